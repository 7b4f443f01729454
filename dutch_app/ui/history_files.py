"""The History page's CSV files: downloads made when clicked, and imports.

A download button is handed a function that builds its file when the person
clicks it (outside the page's script run), so showing the page costs nothing.
Each file is kept per group cache stamp (cache key and data version) and set of
filters, so a second click with nothing changed hands back the same bytes without
reading the database.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, tzinfo
from functools import partial

import pandas as pd
import streamlit as st

from dutch_app.csv_io import CsvImportError
from dutch_app.csv_io.export import export_games_csv, export_rounds_csv
from dutch_app.i18n import _, format_number, ngettext
from dutch_app.services import csv_export, history
from dutch_app.services.csv_import import ImportReport
from dutch_app.ui.context import run_service
from dutch_app.ui.history_view import Filters, games_word, rounds_word
from dutch_app.ui.text import md

ROUNDS, GAMES = "rounds", "games"


@st.cache_data(max_entries=16, show_spinner=False)
def history_csv(
    user_id: int,
    group_id: int,
    version: str,
    kind: str,
    filters: Filters,
    game_id: int | None = None,
) -> bytes:
    """The rounds or games file of the games that pass ``filters`` (only ``game_id``'s if given).

    Takes the person's id and the group's cache stamp explicitly, so it can run
    when a download button is clicked, outside the page's script run.
    """
    del version  # part of the cache key only
    frame = run_service(
        history.load_history,
        user_id,
        group_id,
        date_from=filters.date_from,
        date_to=filters.date_to,
        player_ids=list(filters.player_ids) if filters.player_ids else None,
        status=filters.status,
    )
    if game_id is not None:
        frame = frame[frame["game_id"] == game_id]
    if kind == GAMES:
        return export_games_csv(frame)
    return export_rounds_csv(frame, run_service(csv_export.game_rules, user_id, group_id))


def file_maker(
    user_id: int, group_id: int, version: str, kind: str, filters: Filters | None = None
) -> Callable[[], bytes]:
    """What a download button calls for the file of the group's games passing ``filters``."""
    return partial(history_csv, user_id, group_id, version, kind, filters or Filters())


def game_file_maker(
    user_id: int, group_id: int, version: str, game_id: int, started_at: datetime
) -> Callable[[], bytes]:
    """What a download button calls for the rounds file of one game.

    Only games that started at that very moment are read, not the group's whole history.
    """
    moment = Filters(date_from=started_at, date_to=started_at)
    return partial(history_csv, user_id, group_id, version, ROUNDS, moment, game_id)


def csv_download(label: str, make: Callable[[], bytes], what: str, key: str) -> None:
    """A CSV download button; ``make`` builds the file when it is clicked; ``what`` names
    it (with today's date), or is a whole file name ending in ``.csv``."""
    st.download_button(
        label,
        make,
        file_name=what if what.endswith(".csv") else file_name(what, date.today()),
        mime="text/csv",
        key=key,
        on_click="ignore",
        icon=":material/download:",
    )


def file_name(what: str, today: date) -> str:
    """The name offered for a download, e.g. ``dutch-scorer-rounds-2025-05-10.csv``.

    >>> file_name("game-12", date(2025, 5, 10))
    'dutch-scorer-game-12-2025-05-10.csv'
    """
    return f"dutch-scorer-{what}-{today:%Y-%m-%d}.csv"


def game_file_name(started_at: datetime, tz: tzinfo = UTC) -> str:
    """The name offered for one game's rounds file: the game as the page names it, by its
    start (a database id would not match the file's own ``game`` number, which is 1).

    >>> game_file_name(datetime(2025, 5, 10, 18, 30, tzinfo=UTC))
    'dutch-scorer-game-of-2025-05-10-1830.csv'
    """
    return f"dutch-scorer-game-of-{started_at.astimezone(tz):%Y-%m-%d-%H%M}.csv"


def import_summary(report: ImportReport) -> str:
    """What an import did, as Markdown (new player names escaped)."""
    parts = [
        _("Imported {games} with {rounds}.").format(
            games=games_word(report.games_imported), rounds=rounds_word(report.rounds_imported)
        )
    ]
    if report.games_skipped:
        parts.append(
            _("Skipped {games} already stored in this group.").format(
                games=games_word(report.games_skipped)
            )
        )
    if report.players_created:
        names = ", ".join(md(name) for name in report.players_created)
        parts.append(_("New players: {names}.").format(names=names))
    return " ".join(parts)


def refusal(error: CsvImportError) -> str:
    """The one-line message over the list of a refused file's problems."""
    count = error.count
    if count == len(error.problems):
        template = ngettext(
            "The file was not imported: {count} problem found (listed below). Nothing was saved.",
            "The file was not imported: {count} problems found (listed below). Nothing was saved.",
            count,
        )
    else:
        template = _(
            "The file was not imported: {count} problems found (the first {listed} listed "
            "below). Nothing was saved."
        )
    return template.format(count=format_number(count), listed=len(error.problems))


def problems_frame(error: CsvImportError) -> pd.DataFrame:
    """The problems of a refused file with their line and column, for a table; a last row
    says how many more there are when the file has more than were kept."""
    problems = list(error.problems)
    line = _("Line")
    frame = pd.DataFrame(
        {
            line: [problem.line for problem in problems],
            _("Column"): [problem.column or "" for problem in problems],
            _("Problem"): [problem.message for problem in problems],
        }
    )
    more = error.count - len(problems)
    if more:
        frame.loc[len(frame)] = [
            None,
            "",
            _("… and {count} more").format(count=format_number(more)),
        ]
    return frame.astype({line: "Int64"})
