"""The History page's CSV files: downloads built from the cached history frame, and imports.

Each file is made once per group data version and set of filters, so a rerun
that changes nothing hands back the same bytes without reading the database.
"""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from dutch_app.csv_io import CsvImportError, export_games_csv, export_rounds_csv
from dutch_app.services import csv_export
from dutch_app.services.csv_import import ImportReport
from dutch_app.ui.cache import group_version, history_frame
from dutch_app.ui.context import require_account, resources
from dutch_app.ui.history_view import Filters, rounds_word
from dutch_app.ui.text import md
from dutch_core import HouseRules

ROUNDS, GAMES = "rounds", "games"


@st.cache_data(max_entries=32, show_spinner=False)
def _game_rules(user_id: int, group_id: int, version: int) -> dict[int, HouseRules]:
    del version  # part of the cache key only
    with resources().sessions() as session:
        return csv_export.game_rules(session, user_id, group_id)


@st.cache_data(max_entries=64, show_spinner=False)
def _file(
    user_id: int,
    group_id: int,
    version: int,
    kind: str,
    filters: Filters,
    game_id: int | None,
    _history: pd.DataFrame,
) -> bytes:
    history = _history if game_id is None else _history[_history["game_id"] == game_id]
    if kind == GAMES:
        return export_games_csv(history)
    return export_rounds_csv(history, _game_rules(user_id, group_id, version))


def csv_file(
    group_id: int, kind: str, filters: Filters | None = None, game_id: int | None = None
) -> bytes:
    """The rounds or games file of the group's games that pass ``filters`` (or of one game)."""
    filters = filters or Filters()
    account = require_account()
    version = group_version(group_id)
    history = history_frame(
        group_id, filters.date_from, filters.date_to, filters.player_ids, filters.status
    )
    return _file(account.user_id, group_id, version, kind, filters, game_id, history)


def file_name(what: str, today: date) -> str:
    """The name offered for a download, e.g. ``dutch-scorer-rounds-2025-05-10.csv``.

    >>> file_name("game-12", date(2025, 5, 10))
    'dutch-scorer-game-12-2025-05-10.csv'
    """
    return f"dutch-scorer-{what}-{today:%Y-%m-%d}.csv"


def import_summary(report: ImportReport) -> str:
    """What an import did, as Markdown (new player names escaped)."""
    games = "1 game" if report.games_imported == 1 else f"{report.games_imported} games"
    parts = [f"Imported {games} with {rounds_word(report.rounds_imported)}."]
    if report.games_skipped:
        skipped = "1 game" if report.games_skipped == 1 else f"{report.games_skipped} games"
        parts.append(f"Skipped {skipped} already stored in this group.")
    if report.players_created:
        names = ", ".join(md(name) for name in report.players_created)
        parts.append(f"New players: {names}.")
    return " ".join(parts)


def refusal(error: CsvImportError) -> str:
    """The one-line message over the list of a refused file's problems."""
    count = len(error.problems)
    found = "1 problem" if count == 1 else f"{count} problems"
    return f"The file was not imported: {found} found (listed below). Nothing was saved."


def problems_frame(error: CsvImportError) -> pd.DataFrame:
    """Every problem of a refused file with its line and column, for a table."""
    return pd.DataFrame(
        {
            "Line": [problem.line for problem in error.problems],
            "Column": [problem.column or "" for problem in error.problems],
            "Problem": [problem.message for problem in error.problems],
        }
    ).astype({"Line": "Int64"})
