"""Measure the performance ratios on synthetic histories and print them as a table.

    python -m benchmarks --sizes 10000,100000,1000000 --databases sqlite,postgresql \\
        --out benchmarks/results/latest.json [--markdown benchmarks/results.md]

Histories come from the demo generator and are kept between runs (see
:mod:`benchmarks.databases`). Every ratio compares two things measured side by
side in the same run, alternating, and reports the ratio of their medians.
PostgreSQL runs need ``DUTCH_TEST_POSTGRES_URL`` (``scripts/postgres.sh`` prints it).
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import shlex
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from streamlit import logger as streamlit_logger

from benchmarks import (
    databases,
    live,
    load_memory,
    memory,
    pages,
    report,
    round_entry,
    service_ratios,
    write_ratios,
)
from benchmarks.timing import Comparison

MEASURING_ORDER = (
    "1", "1b", "13", "2", "12", "5", "4", "3", "6", "9", "11", "14", "8", "7",
)  # fmt: skip
"""Reads first, then the ratios that write to the working copy."""


IMPORTS = 11
"""Imports timed for ratio 8: the slowest save of a few hundred is noisy. With seven
imports, eighteen runs of ratio 8 alone at 10,000 rows on PostgreSQL on one day spread from
0.97 to 1.71 around a median of 1.23; the median over eleven moves less from run to run."""


def _repeats(rows: int) -> int:
    """How many timed turns a service ratio gets: fewer for the slow, large histories."""
    return 15 if rows <= 10_000 else 9 if rows <= 100_000 else 5


def _log(message: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def _measure(ratio_id: str, big: databases.BenchDatabase, rows: int, args) -> Comparison:
    """One ratio on the working copy ``big`` of a ``rows``-row history."""
    repeats = args.repeats or _repeats(rows)
    if ratio_id == "1":
        return service_ratios.history_load(big, repeats)
    if ratio_id == "1b":
        return service_ratios.history_load_against_read_sql(big, repeats)
    if ratio_id == "13":
        return load_memory.peak_growth(big)
    if ratio_id == "2":
        return service_ratios.statistics_and_charts(big, repeats)
    if ratio_id == "5":
        return service_ratios.csv_export_cost(big, repeats)
    if ratio_id == "12":
        return service_ratios.ratings_and_calls(big, repeats)
    if ratio_id == "4":
        return pages.stats_rerun(big, args.repeats or 15)
    if ratio_id == "3":
        return pages.play_rerun(big, args.repeats or 15)
    if ratio_id == "6":
        with databases.working_database(big.kind, 0, args.seed) as empty:
            return service_ratios.add_round_cost(big, empty, args.repeats or 30)
    if ratio_id == "8":
        return write_ratios.save_during_import(big, args.repeats or IMPORTS)
    if ratio_id == "9":
        return write_ratios.long_game_round(big, args.repeats or 30)
    if ratio_id == "11":
        return write_ratios.long_game_view_past_the_window(big, args.repeats or 9)
    if ratio_id == "14":
        return write_ratios.shared_view(big, args.repeats or 15)
    if ratio_id == "7":
        return memory.server_memory(big, args.sessions, args.memory_repeats)
    raise ValueError(f"No ratio {ratio_id!r}.")


def measure_size(kind: str, rows: int, args) -> dict:
    """Every chosen ratio on one database kind and history size."""
    _log(f"{kind}, {rows:,} rows: preparing the database (kept between runs)")
    built = databases.prepare(kind, rows, args.seed)
    run = {"database": kind, "rows": rows, "build_seconds": round(built, 1), "ratios": {}}
    with databases.working_database(kind, rows, args.seed) as big:
        frame = service_ratios.load_frame(big)
        run["rows_stored"] = len(frame)
        run["games"] = int(frame["game_id"].nunique())
        del frame
        for ratio_id in (r for r in MEASURING_ORDER if r in args.ratios):
            _log(f"{kind}, {rows:,} rows: ratio {ratio_id}. {report.RATIOS[ratio_id][0]}")
            began = time.perf_counter()
            try:
                result = _measure(ratio_id, big, rows, args).as_dict()
            except Exception as error:  # one failed ratio must not lose the others
                traceback.print_exc()
                result = {"error": f"{type(error).__name__}: {error}"}
            result["goal"] = report.goal(ratio_id, kind, rows)
            result["seconds_spent"] = round(time.perf_counter() - began, 1)
            run["ratios"][ratio_id] = result
            if "ratio" in result:
                _log(f"  ratio {result['ratio']:.2f} (goal ≤ {result['goal'] or '–'})")
    return run


def _csv(kind: Callable[[str], object]) -> Callable[[str], list]:
    return lambda text: [kind(item.strip()) for item in text.split(",") if item.strip()]


def _add_part(parser: argparse.ArgumentParser, option: str, what: str) -> None:
    """An option that runs a part of the benchmark with the ratios, alone, or not at all."""
    parser.add_argument(
        option,
        choices=("also", "only", "skip"),
        default="also",
        help=f"{what}: with the ratios, alone, or not at all",
    )


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--sizes", type=_csv(int), default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--databases", type=_csv(str), default=["sqlite", "postgresql"])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/latest.json"))
    parser.add_argument("--markdown", type=Path, help="also write a Markdown snapshot here")
    parser.add_argument("--ratios", type=_csv(str), default=list(report.RATIOS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, help="timed turns per ratio (default by size)")
    parser.add_argument("--sessions", type=int, default=20, help="browser sessions for ratio 7")
    parser.add_argument("--memory-repeats", type=int, default=2, help="server pairs for ratio 7")
    _add_part(parser, "--live", "the live table's delay and idle cost")
    parser.add_argument("--live-rounds", type=int, default=20, help="rounds timed for the delay")
    _add_part(
        parser,
        "--round-entry",
        "a typical round's taps and keystrokes, and Save to the next form (Chromium)",
    )
    parser.add_argument("--entry-rounds", type=int, default=10, help="saves timed for it")
    parser.add_argument("--live-pages", type=int, default=50, help="idle pages open at once")
    args = parser.parse_args(argv)
    for kind in args.databases:
        if kind not in ("sqlite", "postgresql"):
            parser.error(f"--databases: {kind!r} is neither 'sqlite' nor 'postgresql'")
    for ratio_id in args.ratios:
        if ratio_id not in report.RATIOS:
            parser.error(f"--ratios: there is no ratio {ratio_id!r} (1 to {len(report.RATIOS)})")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print the table, write the JSON (after every size, so a long run keeps
    what it has) and, when asked, the Markdown snapshot."""
    args = parse_arguments(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    streamlit_logger.set_log_level("error")  # AppTest outside a server warns on every run
    document = {
        "command": shlex.join(["python", "-m", "benchmarks", *(argv or sys.argv[1:])]),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": args.seed,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "goals": {ratio_id: goal for ratio_id, (_, goal) in report.RATIOS.items()},
        "runs": [],
    }
    # Stopped with a signal, the working copies are still removed on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    alone = args.live == "only" or args.round_entry == "only"
    for leftover in databases.remove_leftovers(args.databases if not alone else []):
        _log(f"removed {leftover}, left by a run that was stopped")
    for kind in args.databases if not alone else ():
        for rows in args.sizes:
            document["runs"].append(measure_size(kind, rows, args))
            document["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
            report.write_json(args.out, document)
    if args.round_entry != "skip" and args.live != "only":
        _log(f"round entry: a typical round's taps, then {args.entry_rounds} timed saves")
        document["round_entry"] = round_entry.round_entry(args.entry_rounds)
        document["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        report.write_json(args.out, document)
        print(round_entry.text_report(document["round_entry"]))
    if args.live != "skip" and args.round_entry != "only":
        _log(f"live table: {args.live_rounds} rounds, then {args.live_pages} idle pages")
        document["live"] = live.live_table(args.live_rounds, args.live_pages)
        document["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
        report.write_json(args.out, document)
        print(live.text_report(document["live"]))
    if document["runs"]:
        print(report.text_table(document["runs"]))
    if args.markdown:
        text = report.markdown_report(document) if document["runs"] else "# Benchmark results\n"
        if "live" in document:
            text += "\n## The live table\n\n" + live.text_report(document["live"]) + "\n"
        if "round_entry" in document:
            entry = round_entry.text_report(document["round_entry"])
            text += "\n## Round entry\n\n" + entry + "\n"
        args.markdown.write_text(text, encoding="utf-8")
    return 0
