"""Reading the rounds file into typed rows, every bad cell reported with its line.

Limits, encoding and the header are checked first (a file failing those is
refused at once); after that every row is read and every problem collected.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Any, NamedTuple, cast

from dutch_app.csv_io.format import (
    MAX_BYTES,
    MAX_ROWS,
    ROUND_COLUMNS,
    CsvImportError,
    CsvProblem,
    Problems,
    restore_text,
)
from dutch_app.i18n import N_, _, error_text, format_number
from dutch_core import CallType, DutchError, Hand, HouseRules, Outcome, Penalty
from dutch_core.game import GameStatus

_WHOLE = re.compile(r"-?[0-9]{1,9}")
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(9998, 12, 31, tzinfo=UTC)
RULES_LENGTH = 2000
"""The longest rules cell read; real house rules take under 200 characters."""
STATUSES = tuple(GameStatus)


class RoundRow(NamedTuple):
    """One row of the rounds file, typed."""

    line: int
    game: int
    game_started_at: datetime
    game_status: str
    rules: HouseRules
    round: int
    played_at: datetime
    seat: int
    player: str
    cards: Hand
    hand_total: int
    caller: str | None
    call_type: CallType | None
    outcome: Outcome | None
    penalty_cards_due: int
    penalty: Penalty | None
    penalty_points: int
    round_score: int
    game_total: int


class BadCell(ValueError):
    """A cell that cannot be read; the message says why."""


def _whole(low: int | None = None) -> Callable[[str], int]:
    def convert(cell: str) -> int:
        if not _WHOLE.fullmatch(cell):
            raise BadCell(_("{cell!r} is not a whole number").format(cell=cell))
        number = int(cell)
        if low is not None and number < low:
            raise BadCell(_("{cell!r} is less than {low}").format(cell=cell, low=low))
        return number

    return convert


def _timestamp(cell: str) -> datetime:
    try:
        moment = datetime.fromisoformat(cell)
    except ValueError:
        raise BadCell(
            _("{cell!r} is not a date and time like 2025-05-10T18:30:00Z").format(cell=cell)
        ) from None
    try:
        moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:
        raise BadCell(
            _("{cell!r} is outside the dates that can be stored").format(cell=cell)
        ) from None
    if not EARLIEST <= moment <= LATEST:
        raise BadCell(
            _("{cell!r} is outside the dates that can be stored (years 1900 to 9998)").format(
                cell=cell
            )
        )
    return moment


def _status(cell: str) -> str:
    if cell not in STATUSES:
        raise BadCell(_("{cell!r} is not a game status; use 'active' or 'ended'").format(cell=cell))
    return cell


def _rules(cell: str) -> HouseRules:
    if not cell:
        return HouseRules()
    if len(cell) > RULES_LENGTH:
        raise BadCell(
            _("the house rules are {length} characters; at most {most}").format(
                length=format_number(len(cell)), most=format_number(RULES_LENGTH)
            )
        )
    try:
        settings = json.loads(cell)
    except (ValueError, RecursionError):  # bad JSON, a number too long, nesting too deep
        settings = None
    if not isinstance(settings, dict):
        raise BadCell(_("{short} is not house rules written as JSON").format(short=_short(cell)))
    try:
        return HouseRules.from_dict(settings)
    except DutchError as error:
        raise BadCell(error_text(error)) from None


def _short(cell: str, longest: int = 60) -> str:
    """The cell quoted, cut short when long."""
    return repr(cell) if len(cell) <= longest else f"{cell[:longest]!r}…"


NameCheck = Callable[[str], "str | None"]
"""What is wrong with a player's name (None when nothing is), as the group sees names."""


def _name(check: NameCheck | None) -> Callable[[str], str]:
    def name(cell: str) -> str:
        if not cell.strip():
            raise BadCell(_("a player needs a name"))
        wrong = check(cell) if check is not None else None
        if wrong:
            raise BadCell(wrong)
        return cell

    return name


def _optional(convert: Callable[[str], object]) -> Callable[[str], object]:
    def optional(cell: str) -> object:
        return None if cell == "" else convert(cell)

    return optional


def _choice(kind: type[CallType] | type[Outcome], what: str) -> Callable[[str], object]:
    def convert(cell: str) -> object:
        try:
            return kind(cell)
        except ValueError:
            allowed = ", ".join(repr(member.value) for member in kind)
            raise BadCell(_(what).format(cell=cell, allowed=allowed)) from None

    return convert


def _converters(check_name: NameCheck | None) -> dict[str, Callable[[str], object]]:
    # Dates, rules and names repeat on many rows: their converters remember their answers
    # (for this file only: the converters are made for each file).
    return {
        "game": _whole(low=1),
        "game_started_at": cache(_timestamp),
        "game_status": _status,
        "rules": cache(_rules),
        "round": _whole(low=1),
        "played_at": cache(_timestamp),
        "seat": _whole(low=0),
        "player": cache(_name(check_name)),
        "hand_total": _whole(),
        "caller": cache(_optional(_name(check_name))),
        "call_type": _optional(
            _choice(CallType, N_("{cell!r} is not a call type; use {allowed} or leave it empty"))
        ),
        "outcome": _optional(
            _choice(Outcome, N_("{cell!r} is not an outcome; use {allowed} or leave it empty"))
        ),
        "penalty_cards_due": _whole(),
        "penalty_points": _whole(),
        "round_score": _whole(),
        "game_total": _whole(),
    }


TEXT_CELLS = ("player", "cards", "caller", "penalty", "rules")


def _hand_reader(
    kind: type[Hand] | type[Penalty], *, empty_is_none: bool
) -> Callable[[str, str | None], object]:
    """Reads hands (or penalties); equal texts give equal values, so each is parsed once."""
    known: dict[str, Hand | Penalty] = {}

    def read(text: str, player: str | None) -> Hand | Penalty | None:
        if empty_is_none and text == "":
            return None
        if text not in known:
            try:
                known[text] = kind.parse(text, player)
            except DutchError as error:
                raise BadCell(error_text(error)) from None
        return known[text]

    return read


def _hand_readers() -> dict[str, Callable[[str, str | None], object]]:
    return {
        "cards": _hand_reader(Hand, empty_is_none=False),
        "penalty": _hand_reader(Penalty, empty_is_none=True),
    }


def _typed_row(
    line: int, cells: dict[str, str], readers: tuple[dict, dict], problems: Problems
) -> RoundRow | None:
    """The row with typed values, or None (with its problems recorded) if a cell is bad."""
    converters, hand_readers = readers
    values: dict[str, object] = {"line": line}
    for column in TEXT_CELLS:
        cells[column] = restore_text(cells[column])
    found = len(problems)
    for column, convert in converters.items():
        try:
            values[column] = convert(cells[column])
        except BadCell as error:
            problems.add(CsvProblem(line, column, str(error)))
    for column, read in hand_readers.items():
        try:
            values[column] = read(cells[column], values.get("player"))
        except BadCell as error:
            problems.add(CsvProblem(line, column, str(error)))
    # Every column was read by its own converter, so each value has its field's type.
    return RoundRow(**cast(dict[str, Any], values)) if len(problems) == found else None


def _text(data: bytes, max_bytes: int) -> str:
    if len(data) > max_bytes:
        size, limit = math.ceil(len(data) / 2**20 * 10) / 10, max_bytes / 2**20
        message = _(
            "the file is {size} MB; files up to {limit} MB can be imported "
            "(export a shorter date range)"
        ).format(size=format_number(size, digits=1), limit=format_number(limit))
        raise CsvImportError([CsvProblem(None, None, message)])
    if not data.strip():
        raise CsvImportError([CsvProblem(None, None, _("the file is empty"))])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        byte = data[error.start : error.start + 1]
        message = _("the file is not UTF-8 text (byte {byte!r}); save it as 'CSV UTF-8'").format(
            byte=byte
        )
        raise CsvImportError([CsvProblem(line, None, message)]) from None


def _records(text: str) -> Iterator[tuple[int, list[str]]]:
    """(first line, cells) of every record, blank ones included."""
    reader = csv.reader(io.StringIO(text, newline=""))
    line = 1
    try:
        for cells in reader:
            yield line, cells
            line = reader.line_num + 1
    except csv.Error as error:
        problem = CsvProblem(
            reader.line_num, None, _("unreadable CSV: {error}").format(error=error)
        )
        raise CsvImportError([problem]) from None


def _blank(cells: list[str]) -> bool:
    return not any(cell.strip() for cell in cells)


def _check_header(cells: list[str]) -> list[str]:
    header = [cell.strip() for cell in cells]
    faults = (
        (_("missing column(s): {columns}"), [c for c in ROUND_COLUMNS if c not in header]),
        (_("unexpected column(s): {columns}"), [c for c in header if c not in ROUND_COLUMNS]),
        (_("column(s) given twice: {columns}"), sorted({c for c in header if header.count(c) > 1})),
    )
    problems = [
        template.format(columns=", ".join(map(repr, columns)))
        for template, columns in faults
        if columns
    ]
    if problems:
        expected = ",".join(ROUND_COLUMNS)
        problems.append(
            _("the header must name these columns: {expected}").format(expected=expected)
        )
        raise CsvImportError([CsvProblem(1, None, message) for message in problems])
    return header


class ReadRows(NamedTuple):
    """The rows that could be typed, the problems of the others, and where those are:
    ``bad_rounds`` holds (game, round) of every bad row whose game cell can be read, the
    round None when its round cell cannot."""

    rows: list[RoundRow]
    problems: Problems
    bad_rounds: set[tuple[int, int | None]]


def _number_in(cells: list[str], header: list[str], column: str) -> int | None:
    """The number in a bad row's ``column``, if that cell can be read."""
    index = header.index(column)
    cell = cells[index].strip() if index < len(cells) else ""
    return int(cell) if _WHOLE.fullmatch(cell) else None


def _note_place(places: set[tuple[int, int | None]], cells: list[str], header: list[str]) -> None:
    """Note the (game, round) of a bad row when its game can be read (the round None when
    it cannot)."""
    game = _number_in(cells, header, "game")
    if game is not None:
        places.add((game, _number_in(cells, header, "round")))


def read_round_rows(
    data: bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    check_name: NameCheck | None = None,
) -> ReadRows:
    """The typed rows of a rounds file, the problems of the rows that could not be typed
    and the games those rows belong to.

    Raises CsvImportError at once for an empty, too large or non-UTF-8 file,
    a bad header, no rows after the header, more than ``max_rows`` rows (blank ones
    count: each costs a read) or text that is not CSV.
    """
    readers = (_converters(check_name), _hand_readers())
    header: list[str] | None = None
    rows: list[RoundRow] = []
    problems = Problems()
    bad_rounds: set[tuple[int, int | None]] = set()
    # Every record counts against the limit, blank ones too: each costs a read.
    for count, (line, cells) in enumerate(_records(_text(data, max_bytes))):
        if count > max_rows:
            message = _(
                "the file has more than {max_rows} rows; export a shorter date range"
            ).format(max_rows=format_number(max_rows))
            raise CsvImportError([CsvProblem(line, None, message)])
        if _blank(cells):
            continue
        if header is None:
            header = _check_header(cells)
            continue
        if len(cells) != len(header):
            message = _("{cells} cells, but the header names {columns} columns").format(
                cells=len(cells), columns=len(header)
            )
            problems.add(CsvProblem(line, None, message))
            _note_place(bad_rounds, cells, header)
            continue
        row = _typed_row(line, dict(zip(header, cells, strict=True)), readers, problems)
        if row is None:
            _note_place(bad_rounds, cells, header)
        else:
            rows.append(row)
    if header is None:
        raise CsvImportError([CsvProblem(None, None, _("the file is empty"))])
    if not rows and not problems:
        raise CsvImportError([CsvProblem(None, None, _("the file has no games"))])
    return ReadRows(rows, problems, bad_rounds)
