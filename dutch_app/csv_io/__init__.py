"""CSV export and import of a group's history.

Two files go out: the rounds file (one row per player per round, the format
that can be imported again) and the games file (one row per player per
game), written by :mod:`dutch_app.csv_io.export`, the one part that works on pandas
frames (importing this package does not load pandas). The columns are described in
docs/csv.md.

Import is all or nothing: :func:`parse_rounds_csv` reads, checks and scores
the whole file, and either returns an :class:`ImportPlan` or raises one
:class:`CsvImportError` listing every problem with its line.
"""

from dutch_app.csv_io.checks import plan_import
from dutch_app.csv_io.format import (
    GAME_COLUMNS,
    MAX_BYTES,
    MAX_PROBLEMS,
    MAX_ROWS,
    MAX_UPLOAD_MB,
    ROUND_COLUMNS,
    CsvImportError,
    CsvProblem,
    neutralise_text,
    restore_text,
)
from dutch_app.csv_io.plan import ImportPlan, PlannedGame, PlannedRound, import_key
from dutch_app.csv_io.reader import NameCheck, read_round_rows


def parse_rounds_csv(
    data: bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    check_name: NameCheck | None = None,
) -> ImportPlan:
    """The games of a rounds file, every round scored afresh by the core.

    Raises CsvImportError listing every problem (with its line) when anything
    is wrong: the file's size, encoding, header, a cell (``check_name`` says what
    is wrong with a player's name, if anything), the shape of a game, a round the
    rules refuse, or a number that differs from the core's. Problems past
    :data:`MAX_PROBLEMS` are counted, not kept.
    """
    read = read_round_rows(data, max_bytes=max_bytes, max_rows=max_rows, check_name=check_name)
    plan, problems = plan_import(read)
    if problems:
        raise problems.error()
    return plan


__all__ = [
    "GAME_COLUMNS",
    "MAX_BYTES",
    "MAX_PROBLEMS",
    "MAX_ROWS",
    "MAX_UPLOAD_MB",
    "ROUND_COLUMNS",
    "CsvImportError",
    "CsvProblem",
    "ImportPlan",
    "PlannedGame",
    "PlannedRound",
    "import_key",
    "neutralise_text",
    "parse_rounds_csv",
    "restore_text",
]
