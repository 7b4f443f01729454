"""The CSV formats: columns, cell formatting shared by export and import, and the errors.

Text cells that a spreadsheet could take for a formula are neutralised with a
leading single quote; :func:`restore_text` undoes that exactly. Every file the app
writes for people to open (these CSV files and the personal-data ZIP) goes through
:func:`neutralise_text` or its column form
(:func:`dutch_app.csv_io.export.neutralise_column`).

>>> neutralise_text("=SUM(A1)"), restore_text("'=SUM(A1)")
("'=SUM(A1)", '=SUM(A1)')
>>> neutralise_text("'quoted"), restore_text("''quoted")
("''quoted", "'quoted")
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from dutch_app.i18n import _, format_number, ngettext
from dutch_core import HouseRules

ROUND_COLUMNS: tuple[str, ...] = (
    "game",
    "game_started_at",
    "game_status",
    "rules",
    "round",
    "played_at",
    "seat",
    "player",
    "cards",
    "hand_total",
    "caller",
    "call_type",
    "outcome",
    "penalty_cards_due",
    "penalty",
    "penalty_points",
    "round_score",
    "game_total",
)
"""The rounds file: one row per player per round."""

GAME_COLUMNS: tuple[str, ...] = (
    "game",
    "game_started_at",
    "game_status",
    "seat",
    "player",
    "rounds",
    "game_total",
    "rank",
    "won",
)
"""The games file: one row per player per game."""

TEXT_COLUMNS = frozenset(
    {"game_status", "rules", "player", "cards", "caller", "call_type", "outcome", "penalty"}
)
"""Columns holding text, the only ones neutralised against formulas."""

FORMULA_STARTS = (
    *("=", "+", "-", "@", "\t", "\r"),
    *("\uff1d", "\uff0b", "\uff0d", "\uff20"),  # full-width = + - @
    *("\ufe66", "\ufe62", "\ufe63", "\ufe6b"),  # small = + - @
    "\u2212",  # the minus sign
)
"""What a cell a spreadsheet would run starts with: the formula signs, a tab or a carriage
return, the full-width and small forms of the four signs and the minus sign, which some
spreadsheets read as the plain ones (East Asian input methods type them)."""
QUOTE = "'"
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"

_DEFAULT_RULES = HouseRules()
MAX_UPLOAD_MB = 5
"""The largest rounds file that can be imported, in MB: the History page's upload widget
states and enforces the same limit."""
MAX_BYTES = MAX_UPLOAD_MB * 1024 * 1024
MAX_ROWS = 100_000
"""Rows a rounds file may have; a full 5 MB file of real rounds has about 50,000."""
MAX_PROBLEMS = 200
"""Problems of a refused file that are kept and listed; the rest are only counted."""


LONE_NUMBER = r"[0-9]+"
"""A hand of one plain number card, which a comma keeps from reading as a total."""


def hand_text(cards: str | None, hand_total: int) -> str:
    """A stored hand as the files write it: the cards as entered, or the total when only
    that was written down (``cards`` is None); a lone number card gets a trailing comma.
    The rounds file writes the same, column by column.

    >>> hand_text("KH 5", 5), hand_text(None, 21), hand_text("7", 7), hand_text("", 0)
    ('KH 5', '21', '7,', '')
    """
    if cards is None:
        return str(hand_total)
    return f"{cards}," if re.fullmatch(LONE_NUMBER, cards) else cards


def neutralise_text(text: str) -> str:
    """``text`` with a quote in front if it starts like a formula (or with a quote).

    >>> neutralise_text("\uff1dHYPERLINK(1)") == "'\uff1dHYPERLINK(1)", neutralise_text("Ann")
    (True, 'Ann')
    """
    return QUOTE + text if text.startswith((*FORMULA_STARTS, QUOTE)) else text


def restore_text(text: str) -> str:
    """The text :func:`neutralise_text` was given: one leading quote removed."""
    return text[1:] if text.startswith(QUOTE) else text


def rules_text(rules: HouseRules) -> str:
    """House rules as compact JSON of the settings that differ from the original game's.

    ``HouseRules.from_dict`` reads it back (missing settings take their defaults).

    >>> rules_text(HouseRules())
    '{}'
    >>> from dutch_core import PRESETS
    >>> rules_text(PRESETS["classic_open"])
    '{"end":{"kind":"open"}}'
    """
    settings, defaults = rules.to_dict(), _DEFAULT_RULES.to_dict()
    changed = {
        name: value for name, value in settings.items() if name != "end" and value != defaults[name]
    }
    if settings["end"] != defaults["end"]:
        changed["end"] = {
            name: value
            for name, value in settings["end"].items()
            if name == "kind" or value not in (None, False)
        }
    return json.dumps(changed, separators=(",", ":"))


@dataclass(frozen=True)
class CsvProblem:
    """One thing wrong with an imported file, with the line it is on (1 = the header)."""

    line: int | None
    column: str | None
    message: str

    def __str__(self) -> str:
        where = _("line {line}").format(line=self.line) if self.line is not None else ""
        if self.column:
            where = f"{where}, {self.column}" if where else self.column
        return f"{where}: {self.message}" if where else self.message


class CsvImportError(ValueError):
    """A file that cannot be imported; ``problems`` lists what was found wrong, in line
    order, and ``count`` how many problems there are in all (more than ``problems``
    holds when the file has more than :data:`MAX_PROBLEMS`)."""

    shown = 20

    def __init__(
        self, problems: list[CsvProblem] | tuple[CsvProblem, ...], count: int | None = None
    ) -> None:
        self.problems = tuple(problems)
        self.count = max(len(self.problems), count or 0)
        count = self.count
        lines = [str(problem) for problem in self.problems[: self.shown]]
        if count > self.shown:
            lines.append(_("… and {count} more").format(count=format_number(count - self.shown)))
        heading = ngettext(
            "{count} problem in the file, nothing was imported:",
            "{count} problems in the file, nothing was imported:",
            count,
        ).format(count=format_number(count))
        super().__init__(heading + "\n" + "\n".join(lines))


class Problems:
    """The problems of one file as they are found: the first :data:`MAX_PROBLEMS` are kept,
    the others only counted, so a file of junk costs no more memory than a good one."""

    def __init__(self, limit: int = MAX_PROBLEMS) -> None:
        self.kept: list[CsvProblem] = []
        self.count = 0
        self.limit = limit

    def add(self, problem: CsvProblem) -> None:
        """Count ``problem``; keep it while fewer than the limit are kept."""
        self.count += 1
        if len(self.kept) < self.limit:
            self.kept.append(problem)

    def __len__(self) -> int:
        return self.count

    def error(self) -> CsvImportError:
        """The error listing the kept problems in line order, with the full count."""
        ordered = sorted(self.kept, key=lambda p: (p.line is None, p.line or 0))
        return CsvImportError(ordered, self.count)
