"""Exporting a history frame as the rounds file and the games file.

The export works on pandas frames; the rest of :mod:`dutch_app.csv_io` (the formats and
the import) does not need pandas."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from dutch_app.csv_io.format import (
    FORMULA_STARTS,
    GAME_COLUMNS,
    LONE_NUMBER,
    QUOTE,
    ROUND_COLUMNS,
    TEXT_COLUMNS,
    TIMESTAMP_FORMAT,
    rules_text,
)
from dutch_core import HouseRules
from dutch_core.stats import game_results


def neutralise_column(cells: pd.Series) -> pd.Series:
    """:func:`~dutch_app.csv_io.format.neutralise_text` on a column of text (missing cells
    become empty), at column speed."""
    text = cells.astype("string").fillna("")
    risky = text.str.startswith((*FORMULA_STARTS, QUOTE)).to_numpy(dtype=bool)
    return text.where(~risky, QUOTE + text)


def format_timestamps(stamps: pd.Series) -> pd.Series:
    """UTC timestamps as ISO 8601 text to the second, e.g. ``2025-05-10T18:30:00Z``."""
    return stamps.dt.tz_convert("UTC").dt.strftime(TIMESTAMP_FORMAT)


def to_csv_bytes(table: pd.DataFrame) -> bytes:
    """A table of CSV cells as UTF-8 bytes with a header row, text columns neutralised."""
    cells = table.copy()
    for column in cells.columns.intersection(list(TEXT_COLUMNS)):
        cells[column] = neutralise_column(cells[column])
    return cells.to_csv(index=False, lineterminator="\n").encode("utf-8")


def _game_numbers(history: pd.DataFrame) -> pd.Series:
    """1, 2, ... for the games in start order (the file's ``game`` column)."""
    codes, _ = pd.factorize(history["game_id"], sort=False)
    return pd.Series(codes + 1, index=history.index, dtype="int64")


def _hand_text(history: pd.DataFrame) -> pd.Series:
    """The hand as typed back: its cards, or its total when only that was entered.

    A single plain number card keeps a trailing comma so it does not read as a total
    (the column form of :func:`~dutch_app.csv_io.format.hand_text`).
    """
    cards = history["cards"].astype("string")
    lone = cards.str.fullmatch(LONE_NUMBER).to_numpy(dtype=bool, na_value=False)
    cards = cards.where(~lone, cards + ",")
    return cards.fillna(history["hand_total"].astype("string"))


def rounds_table(
    history: pd.DataFrame, game_rules: Mapping[int, HouseRules] | None = None
) -> pd.DataFrame:
    """The rounds file's cells (before neutralising) for a history frame.

    ``game_rules`` maps a game id to its house rules; a game without rules
    gets an empty ``rules`` cell.
    """
    order = ["game_started_at", "game_id", "round_number", "seat"]
    history = history.sort_values(order, kind="stable", ignore_index=True)
    rules = {game_id: rules_text(r) for game_id, r in (game_rules or {}).items()}
    table = pd.DataFrame(
        {
            "game": _game_numbers(history),
            "game_started_at": format_timestamps(history["game_started_at"]),
            "game_status": history["game_status"],
            "rules": history["game_id"].map(rules).astype("string"),
            "round": history["round_number"],
            "played_at": format_timestamps(history["played_at"]),
            "seat": history["seat"],
            "player": history["player"],
            "cards": _hand_text(history),
            "hand_total": history["hand_total"],
            "caller": history["caller"],
            "call_type": history["call_type"],
            "outcome": history["outcome"],
            "penalty_cards_due": history["penalty_cards_due"],
            "penalty": history["penalty"],
            "penalty_points": history["penalty_points"],
            "round_score": history["round_score"],
            "game_total": history["game_total"],
        }
    )
    return table.loc[:, list(ROUND_COLUMNS)]


def export_rounds_csv(
    history_df: pd.DataFrame, game_rules: Mapping[int, HouseRules] | None = None
) -> bytes:
    """The rounds file (UTF-8 CSV with a header): one row per player per round.

    The columns are described in docs/csv.md. Pass
    ``game_rules`` (game id -> house rules) so each game's rules travel
    with it; :func:`dutch_app.csv_io.parse_rounds_csv` reads the file back.
    """
    return to_csv_bytes(rounds_table(history_df, game_rules))


def export_games_csv(history_df: pd.DataFrame) -> bytes:
    """The games file (UTF-8 CSV with a header): one row per player per game.

    ``rank`` is 1 for the lowest game total (ties share it); ``won`` is true
    only for the lowest total of an ended game.
    """
    results = game_results(history_df)
    table = pd.DataFrame(
        {
            "game": _game_numbers(results),
            "game_started_at": format_timestamps(results["game_started_at"]),
            "game_status": results["game_status"],
            "seat": results["seat"],
            "player": results["player"],
            "rounds": results["rounds"],
            "game_total": results["game_total"],
            "rank": results["rank"],
            "won": results["won"].map({True: "true", False: "false"}).astype("string"),
        }
    )
    return to_csv_bytes(table.loc[:, list(GAME_COLUMNS)])
