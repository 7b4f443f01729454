"""How the Stats page shows its tables: which columns, under what headings, in what format.

Each table is shown with ``st.dataframe``, so player names stay plain data. The
key figures come first and the player's name stays pinned at the left, so on a
phone the table scrolls sideways inside its frame while the name stays in view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

Column = ColumnConfig | str


def records(table: pd.DataFrame) -> Iterator[Any]:
    """The table's rows as named tuples (pandas types their cells as any scalar at all)."""
    return table.itertuples()


def _count(label: str, help: str | None = None) -> ColumnConfig:
    return st.column_config.NumberColumn(label, format="%d", help=help)


SHARE_FORMAT = "%.0f%%"
"""A share column in whole percents, as `dutch_app.ui.text.percent` writes them; the
shares (0 to 1) are multiplied by 100 for it when the table is shown."""


def _share(label: str, help: str | None = None) -> ColumnConfig:
    return st.column_config.NumberColumn(label, format=SHARE_FORMAT, help=help)


def _is_share(column: Column) -> bool:
    if isinstance(column, str):
        return False
    type_config: Any = column.get("type_config") or {}
    return bool(type_config.get("format") == SHARE_FORMAT)


def shown_frame(table: pd.DataFrame, columns: dict[str, Column]) -> pd.DataFrame:
    """Just ``columns`` of ``table``, in that order, with shares in percent points.

    >>> columns = {"player": "Player", "win_rate": _share("Win rate")}
    >>> shown_frame(pd.DataFrame({"player": ["Ann"], "win_rate": [5 / 6]}), columns)
      player  win_rate
    0    Ann  83.333333
    """
    shown = table.loc[:, list(columns)].copy()
    for name, column in columns.items():
        if _is_share(column):
            shown[name] = shown[name] * 100
    return shown


def _points(label: str, help: str | None = None) -> ColumnConfig:
    return st.column_config.NumberColumn(label, format="%.1f", help=help)


def _when(label: str) -> ColumnConfig:
    return st.column_config.DatetimeColumn(label, format="YYYY-MM-DD HH:mm", timezone="UTC")


PLAYER = st.column_config.TextColumn("Player", pinned=True)

SUMMARY: dict[str, Column] = {
    "player": PLAYER,
    "games": _count("Games", "Games with at least one round, finished or not"),
    "wins": _count("Wins", "Ended games won or shared the win of"),
    "win_rate": _share("Win rate", "Wins per ended game"),
    "rounds": _count("Rounds"),
    "avg_round_score": _points("Avg round"),
    "median_round_score": _points("Median round"),
    "best_round": _count("Best round", "Lowest round score"),
    "worst_round": _count("Worst round", "Highest round score"),
    "avg_game_total": _points("Avg game total", "Final totals of ended games"),
    "best_game": _count("Best game", "Lowest final total of an ended game"),
    "worst_game": _count("Worst game", "Highest final total of an ended game"),
}

CALLS: dict[str, Column] = {
    "player": PLAYER,
    "calls": _count("Calls", "Rounds this player ended, Dutch and Auto Dutch"),
    "lowest_rate": _share("Lowest %", "Share of the calls that succeeded"),
    "calls_per_round": st.column_config.NumberColumn(
        "Calls per round", format="%.2f", help="Calls divided by rounds played"
    ),
    "auto_dutch": _count("Auto Dutch", "Calls made by playing the last card"),
    "lowest": _count("Lowest", "Calls with the lowest hand: success"),
    "tied": _count("Tied", "Calls tied with another hand"),
    "beaten": _count("Beaten", "Calls where another hand was lower"),
    "tied_rate": _share("Tied %"),
    "beaten_rate": _share("Beaten %"),
    "avg_penalty_cards": _points("Avg penalty cards", "Per call; a success draws none"),
    "avg_penalty_points": _points("Avg penalty points", "Per call; a success draws none"),
}

AGAINST_CALLS: dict[str, Column] = {
    "player": PLAYER,
    "faced_calls": _count("Others' calls", "Rounds someone else ended"),
    "beat_calls": _count("Beat the call", "This player's hand was below the caller's"),
    "beat_call_rate": _share("Beat %"),
}

BY_HAND_TOTAL: dict[str, Column] = {
    "hand_total": _count("Caller's hand"),
    "calls": _count("Calls"),
    "lowest": _count("Lowest"),
    "tied": _count("Tied"),
    "beaten": _count("Beaten"),
    "lowest_rate": _share("Success %", "Calls with this hand total that were lowest"),
    "lowest_rate_at_or_below": _share(
        "Success at or below", "Calls with this hand total or a lower one that were lowest"
    ),
}

HEAD_TO_HEAD: dict[str, Column] = {
    "player": PLAYER,
    "opponent": st.column_config.TextColumn("Opponent"),
    "lower_rate": _share("Lower %"),
    "games": _count("Games together", "Ended games both played"),
    "lower": _count("Finished lower"),
    "equal": _count("Level"),
    "higher": _count("Finished higher"),
}

RECORDS: dict[str, Column] = {
    "record": st.column_config.TextColumn("Record"),
    "player": PLAYER,
    "value": _count("Value", "Games for a streak, points otherwise"),
    "game_started_at": _when("Game started (UTC)"),
}

PLAYER_RECORDS: dict[str, Column] = {
    "player": PLAYER,
    "longest_win_streak": _count("Longest win streak", "Ended games won in a row"),
    "current_win_streak": _count("Current win streak"),
    "best_game": _count("Best game", "Lowest final total of an ended game"),
    "biggest_comeback": _count(
        "Biggest comeback", "Most points behind the leader in a game the player went on to win"
    ),
}

ROUND_TREND: dict[str, Column] = {
    "player": PLAYER,
    "played_at": _when("Played (UTC)"),
    "player_round": _count("Round #", "The player's 1st, 2nd, ... round in this view"),
    "round_score": _count("Round score"),
    "rolling_avg": _points("Rolling average"),
}

WIN_TREND: dict[str, Column] = {
    "player": PLAYER,
    "game_started_at": _when("Game started (UTC)"),
    "game_number": _count("Game #"),
    "won": st.column_config.CheckboxColumn("Won"),
    "wins": _count("Wins so far"),
    "win_rate": _share("Win rate so far"),
}

CALL_TREND: dict[str, Column] = {
    "player": PLAYER,
    "played_at": _when("Played (UTC)"),
    "call_number": _count("Call #"),
    "outcome": st.column_config.TextColumn("Outcome"),
    "success_rate": _share("Success so far"),
    "rolling_success_rate": _share("Rolling success"),
}

GAME_TOTALS: dict[str, Column] = {
    "round_number": _count("Round"),
    "player": PLAYER,
    "round_score": _count("Round score"),
    "game_total": _count("Game total"),
}


RATINGS: dict[str, Column] = {
    "player": PLAYER,
    "rating_text": st.column_config.TextColumn(
        "Rating",
        help="Conservative skill rating, mu - 3 sigma: shown once a player has 5 rated games",
    ),
    "wins": _count("Wins", "Ended games won or shared the win of"),
    "games_ended": _count("Games", "Ended games"),
    "win_rate": _share("Win rate", "Wins per ended game"),
    "mu": _points("Skill (mu)", "The rating model's estimate of the player's skill"),
    "sigma": _points("Uncertainty (sigma)", "How unsure the estimate still is"),
    "rated_games": _count("Rated games", "Ended games with at least two players"),
}

WIN_CHANCES: dict[str, Column] = {
    "player": PLAYER,
    "win_chance": _share("Chance to win", "By the rating model, for a game of these players"),
    "rating": _points("Rating", "mu - 3 sigma"),
}

CALL_CHANCES: dict[str, Column] = {
    "hand_total": _count("Caller's hand"),
    "fitted": _share("Chance (fit)", "Logistic fit over hand total and player count"),
    "lowest_rate": _share("Succeeded", "Share of these calls that were lowest"),
    "calls": _count("Calls", "How many calls the counted share rests on"),
    "reference": _share("Random hands", "Chance to be lowest against random 4-card hands"),
    "expected_cost": _points("Expected score", "Hand total + 6.5 points per expected penalty card"),
}

CALLER_PROFILES: dict[str, Column] = {
    "player": PLAYER,
    "avg_hand_total": _points("Avg call at", "Average hand total when calling"),
    "lowest_rate": _share("Own success"),
    "group_rate_at_typical": _share(
        "Group success there", "The group's success rate at that hand total (rounded)"
    ),
    "group_calls_at_typical": _count("Group calls there"),
    "reference_rate": _share(
        "Random hands", "Expected success of the same calls against random hands"
    ),
    "calls": _count("Calls"),
}

PLAYER_CALLS: dict[str, Column] = {
    "hand_total": _count("Hand total"),
    "calls": _count("Calls"),
    "lowest_rate": _share("Succeeded"),
    "reference": _share("Random hands", "Chance to be lowest against random 4-card hands"),
}

PLAYER_GAMES: dict[str, Column] = {
    "game_total": _count("Final total"),
    "rank": _count("Place"),
    "players": _count("Players"),
    "game_started_at": _when("Game started (UTC)"),
}

RATING_TREND: dict[str, Column] = {
    "player": PLAYER,
    "game_started_at": _when("Game started (UTC)"),
    "game_number": _count("Game #"),
    "rank": _count("Place"),
    "rating": _points("Rating", "mu - 3 sigma after the game"),
    "mu": _points("Skill (mu)"),
    "sigma": _points("Uncertainty (sigma)"),
}


def show_table(table: pd.DataFrame, columns: dict[str, Column]) -> None:
    """Show ``table`` with just ``columns`` (in that order), labelled and formatted."""
    st.dataframe(
        shown_frame(table, columns),
        column_config=columns,
        column_order=list(columns),
        hide_index=True,
        width="stretch",
    )
