"""The ratios as a table (plain text for the terminal, Markdown for the docs) and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

RATIOS: dict[str, tuple[str, float]] = {
    "1": (
        "Load a group's history frame ÷ bare Arrow-native (ADBC) read of the same rows "
        "(PostgreSQL: ≤ 1.2)",
        4.0,
    ),
    "1b": ("Load a group's history frame ÷ bare `pandas.read_sql` of the same rows", 1.5),
    "2": ("All statistics and charts ÷ loading the history", 1.0),
    "3": ("Play page rerun, group with the history ÷ empty group (AppTest)", 1.2),
    "4": ("Warm Stats page rerun ÷ bare page drawing the same from memory (AppTest)", 1.2),
    "5": ("Rounds CSV export of the frame ÷ `DataFrame.to_csv` of it", 1.3),
    "6": ("Adding a round, history stored ÷ empty database", 1.2),
    "7": ("Server peak RSS, 20 browser sessions in 20 groups of 10,000 rows ÷ 1 in 1", 1.5),
    "8": ("Another group's slowest round save during a 3,000-game import ÷ the save alone", 100.0),
    "9": ("Adding a round, 20,000-round game ÷ 10-round game", 1.2),
    "11": ("Reading a game for the Play page, 20,000 rounds ÷ 100 (the rounds it lists)", 1.2),
    "12": ("Skill ratings and the call analysis ÷ loading the history", 0.2),
    "13": (
        "Peak memory growth while loading the history ÷ the finished frame's size "
        "(goal at 1M rows)",
        3.0,
    ),
    "14": ("Opening a game's read-only link (CPU, game read afresh), 20,000 rounds ÷ 10", 1.2),
}
"""Ratio id: (what is compared, goal: the ratio should be at most this)."""

STRICTER_GOALS: dict[tuple[str, str], float] = {("1", "postgresql"): 1.2}
"""Goals that are stricter on one database: PostgreSQL's history is read by its Arrow-native
driver in the server (SQLite's through the app's own connection, a Python object per cell)."""


GOAL_ROWS: dict[str, int] = {"13": 1_000_000}
"""Ratios whose goal holds for one history size only: a load's fixed costs (the driver's
and the interpreter's first allocations, 2–3 MiB) are most of a small frame's ratio."""


def goal(ratio_id: str, database: str, rows: int | None = None) -> float | None:
    """The goal of a ratio on one kind of database (and history size: None where the ratio
    has no goal at that size).

    >>> goal("1", "sqlite"), goal("1", "postgresql"), goal("8", "postgresql")
    (4.0, 1.2, 100.0)
    >>> goal("13", "sqlite", 10_000), goal("13", "sqlite", 1_000_000)
    (None, 3.0)
    """
    if rows is not None and GOAL_ROWS.get(ratio_id, rows) != rows:
        return None
    return STRICTER_GOALS.get((ratio_id, database), RATIOS[ratio_id][1])


def short_size(rows: int) -> str:
    """1000000 -> '1M', 100000 -> '100k'.

    >>> short_size(1_000_000), short_size(100_000), short_size(1234)
    ('1M', '100k', '1234')
    """
    if rows % 1_000_000 == 0:
        return f"{rows // 1_000_000}M"
    if rows % 1000 == 0:
        return f"{rows // 1000}k"
    return str(rows)


def _columns(runs: list[dict]) -> list[str]:
    return [f"{run['database']} {short_size(run['rows'])}" for run in runs]


def _measured(runs: list[dict]) -> list[str]:
    """The ratios measured in any of the runs (a narrowed run leaves the others out)."""
    return [ratio_id for ratio_id in RATIOS if any(ratio_id in run["ratios"] for run in runs)]


def _cell(run: dict, ratio_id: str) -> str:
    measured = run["ratios"].get(ratio_id)
    if measured is None:
        return "–"
    if "error" in measured:
        return "failed"
    most = goal(ratio_id, run["database"], run["rows"])
    if most is None:
        return f"{measured['ratio']:.2f}"
    mark = "ok" if measured["ratio"] <= most else "MISS"
    return f"{measured['ratio']:.2f} {mark}"


def text_table(runs: list[dict]) -> str:
    """The ratios, one row per ratio and one column per database and size."""
    header = ["#", "goal", *_columns(runs)]
    rows = [
        [ratio_id, f"≤ {goal}", *(_cell(run, ratio_id) for run in runs)]
        for ratio_id, (_, goal) in RATIOS.items()
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    lines = [line(header), *(line(row) for row in rows)]
    legend = [f"{ratio_id}. {what}" for ratio_id, (what, _) in RATIOS.items()]
    return "\n".join([*lines, "", *legend])


def markdown_table(runs: list[dict]) -> str:
    """The same table in Markdown, each ratio described in its row."""
    header = ["", "goal", *_columns(runs)]
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * 2 + "---:|" * len(runs),
    ]
    for ratio_id in _measured(runs):
        what, goal = RATIOS[ratio_id]
        cells = [_cell(run, ratio_id).replace("MISS", "**miss**") for run in runs]
        lines.append(f"| {ratio_id}. {what} | ≤ {goal} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def times_table(runs: list[dict]) -> str:
    """Markdown: the medians behind each ratio (measured / baseline)."""
    lines = [
        "| | " + " | ".join(_columns(runs)) + " |",
        "|---|" + "---:|" * len(runs),
    ]
    for ratio_id in _measured(runs):
        cells = []
        for run in runs:
            measured = run["ratios"].get(ratio_id)
            if not measured or "error" in measured:
                cells.append("–")
            elif measured["unit"] == "s":
                cells.append(
                    f"{measured['measured'] * 1000:,.0f} / {measured['baseline'] * 1000:,.0f} ms"
                )
            else:
                cells.append(
                    f"{measured['measured']:,.0f} / {measured['baseline']:,.0f} {measured['unit']}"
                )
        lines.append(f"| {ratio_id} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_json(path: Path, document: dict) -> None:
    """Write the results (made folders as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def markdown_report(document: dict) -> str:
    """The snapshot file: the table, the medians behind it, and how it was made."""
    machine = document["machine"]
    return "\n".join(
        [
            "# Benchmark results",
            "",
            f"Measured {document['finished_at']} on {machine['cpus']} CPU(s), "
            f"Python {machine['python']}, {machine['platform']}; seed {document['seed']}. "
            f"Command: `{document['command']}`.",
            "",
            markdown_table(document["runs"]),
            "",
            "Medians behind each ratio (measured / baseline):",
            "",
            times_table(document["runs"]),
            "",
        ]
    )
