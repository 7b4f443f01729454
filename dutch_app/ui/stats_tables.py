"""How the Stats page shows its tables: which columns, under what headings, in what format.

Each table is shown with ``st.dataframe``, so player names stay plain data. The
key figures come first and the player's name stays pinned at the left, so on a
phone the table scrolls sideways inside its frame while the name stays in view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pandas as pd
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from dutch_app.i18n import N_, _
from dutch_app.ui.labels import OUTCOME_LABELS

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


PLAYER = st.column_config.TextColumn(N_("Player"), pinned=True)

SUMMARY: dict[str, Column] = {
    "player": PLAYER,
    "games": _count(N_("Games"), N_("Games with at least one round, finished or not")),
    "wins": _count(N_("Wins"), N_("Ended games won or shared the win of")),
    "win_rate": _share(N_("Win rate"), N_("Wins per ended game")),
    "rounds": _count(N_("Rounds")),
    "avg_round_score": _points(N_("Avg round")),
    "median_round_score": _points(N_("Median round")),
    "best_round": _count(N_("Best round"), N_("Lowest round score")),
    "worst_round": _count(N_("Worst round"), N_("Highest round score")),
    "avg_game_total": _points(N_("Avg game total"), N_("Final totals of ended games")),
    "best_game": _count(N_("Best game"), N_("Lowest final total of an ended game")),
    "worst_game": _count(N_("Worst game"), N_("Highest final total of an ended game")),
}

CALLS: dict[str, Column] = {
    "player": PLAYER,
    "calls": _count(N_("Calls"), N_("Rounds this player ended, Dutch and Auto Dutch")),
    "lowest_rate": _share(N_("Lowest %"), N_("Share of the calls that succeeded")),
    "calls_per_round": st.column_config.NumberColumn(
        N_("Calls per round"), format="%.2f", help=N_("Calls divided by rounds played")
    ),
    "auto_dutch": _count(N_("Auto Dutch"), N_("Calls made by playing the last card")),
    "lowest": _count(N_("Lowest"), N_("Calls with the lowest hand: success")),
    "tied": _count(N_("Tied"), N_("Calls tied with another hand")),
    "beaten": _count(N_("Beaten"), N_("Calls where another hand was lower")),
    "tied_rate": _share(N_("Tied %")),
    "beaten_rate": _share(N_("Beaten %")),
    "avg_penalty_cards": _points(N_("Avg penalty cards"), N_("Per call; a success draws none")),
    "avg_penalty_points": _points(N_("Avg penalty points"), N_("Per call; a success draws none")),
}

AGAINST_CALLS: dict[str, Column] = {
    "player": PLAYER,
    "faced_calls": _count(N_("Others' calls"), N_("Rounds someone else ended")),
    "beat_calls": _count(N_("Beat the call"), N_("This player's hand was below the caller's")),
    "beat_call_rate": _share(N_("Beat %")),
}

BY_HAND_TOTAL: dict[str, Column] = {
    "hand_total": _count(N_("Caller's hand")),
    "calls": _count(N_("Calls")),
    "lowest": _count(N_("Lowest")),
    "tied": _count(N_("Tied")),
    "beaten": _count(N_("Beaten")),
    "lowest_rate": _share(N_("Success %"), N_("Calls with this hand total that were lowest")),
    "lowest_rate_at_or_below": _share(
        N_("Success at or below"), N_("Calls with this hand total or a lower one that were lowest")
    ),
}

HEAD_TO_HEAD: dict[str, Column] = {
    "player": PLAYER,
    "opponent": st.column_config.TextColumn(N_("Opponent")),
    "lower_rate": _share(N_("Lower %")),
    "games": _count(N_("Games together"), N_("Ended games both played")),
    "lower": _count(N_("Finished lower")),
    "equal": _count(N_("Level")),
    "higher": _count(N_("Finished higher")),
}

RECORDS: dict[str, Column] = {
    "record": st.column_config.TextColumn(N_("Record")),
    "player": PLAYER,
    "value": _count(N_("Value"), N_("Games for a streak, points otherwise")),
    "game_started_at": _when(N_("Game started (UTC)")),
}

PLAYER_RECORDS: dict[str, Column] = {
    "player": PLAYER,
    "longest_win_streak": _count(N_("Longest win streak"), N_("Ended games won in a row")),
    "current_win_streak": _count(N_("Current win streak")),
    "best_game": _count(N_("Best game"), N_("Lowest final total of an ended game")),
    "biggest_comeback": _count(
        N_("Biggest comeback"),
        N_("Most points behind the leader in a game the player went on to win"),
    ),
}

ROUND_TREND: dict[str, Column] = {
    "player": PLAYER,
    "played_at": _when(N_("Played (UTC)")),
    "player_round": _count(N_("Round #"), N_("The player's 1st, 2nd, ... round in this view")),
    "round_score": _count(N_("Round score")),
    "rolling_avg": _points(N_("Rolling average")),
}

WIN_TREND: dict[str, Column] = {
    "player": PLAYER,
    "game_started_at": _when(N_("Game started (UTC)")),
    "game_number": _count(N_("Game #")),
    "won": st.column_config.CheckboxColumn("Won"),
    "wins": _count(N_("Wins so far")),
    "win_rate": _share(N_("Win rate so far")),
}

CALL_TREND: dict[str, Column] = {
    "player": PLAYER,
    "played_at": _when(N_("Played (UTC)")),
    "call_number": _count(N_("Call #")),
    "outcome": st.column_config.TextColumn(N_("Outcome")),
    "success_rate": _share(N_("Success so far")),
    "rolling_success_rate": _share(N_("Rolling success")),
}

GAME_TOTALS: dict[str, Column] = {
    "round_number": _count(N_("Round")),
    "player": PLAYER,
    "round_score": _count(N_("Round score")),
    "game_total": _count(N_("Game total")),
}


RATINGS: dict[str, Column] = {
    "player": PLAYER,
    "rating_text": st.column_config.TextColumn(
        N_("Rating"),
        help=N_("Conservative skill rating, mu - 3 sigma: shown once a player has 5 rated games"),
    ),
    "wins": _count(N_("Wins"), N_("Ended games won or shared the win of")),
    "games_ended": _count(N_("Games"), N_("Ended games")),
    "win_rate": _share(N_("Win rate"), N_("Wins per ended game")),
    "mu": _points(N_("Skill (mu)"), N_("The rating model's estimate of the player's skill")),
    "sigma": _points(N_("Uncertainty (sigma)"), N_("How unsure the estimate still is")),
    "rated_games": _count(N_("Rated games"), N_("Ended games with at least two players")),
}

WIN_CHANCES: dict[str, Column] = {
    "player": PLAYER,
    "win_chance": _share(
        N_("Chance to win"), N_("By the rating model, for a game of these players")
    ),
    "rating": _points(N_("Rating"), N_("mu - 3 sigma")),
}

CALL_CHANCES: dict[str, Column] = {
    "hand_total": _count(N_("Caller's hand")),
    "fitted": _share(N_("Chance (fit)"), N_("Logistic fit over hand total and player count")),
    "lowest_rate": _share(N_("Succeeded"), N_("Share of these calls that were lowest")),
    "calls": _count(N_("Calls"), N_("How many calls the counted share rests on")),
    "reference": _share(N_("Random hands"), N_("Chance to be lowest against random 4-card hands")),
    "expected_cost": _points(
        N_("Expected score"), N_("Hand total + 6.5 points per expected penalty card")
    ),
}

CALLER_PROFILES: dict[str, Column] = {
    "player": PLAYER,
    "avg_hand_total": _points(N_("Avg call at"), N_("Average hand total when calling")),
    "lowest_rate": _share(N_("Own success")),
    "group_rate_at_typical": _share(
        N_("Group success there"), N_("The group's success rate at that hand total (rounded)")
    ),
    "group_calls_at_typical": _count(N_("Group calls there")),
    "reference_rate": _share(
        N_("Random hands"), N_("Expected success of the same calls against random hands")
    ),
    "calls": _count(N_("Calls")),
}

PLAYER_CALLS: dict[str, Column] = {
    "hand_total": _count(N_("Hand total")),
    "calls": _count(N_("Calls")),
    "lowest_rate": _share(N_("Succeeded")),
    "reference": _share(N_("Random hands"), N_("Chance to be lowest against random 4-card hands")),
}

PLAYER_GAMES: dict[str, Column] = {
    "game_total": _count(N_("Final total")),
    "rank": _count(N_("Place")),
    "players": _count(N_("Players")),
    "game_started_at": _when(N_("Game started (UTC)")),
}

RATING_TREND: dict[str, Column] = {
    "player": PLAYER,
    "game_started_at": _when(N_("Game started (UTC)")),
    "game_number": _count(N_("Game #")),
    "rank": _count(N_("Place")),
    "rating": _points(N_("Rating"), N_("mu - 3 sigma after the game")),
    "mu": _points(N_("Skill (mu)")),
    "sigma": _points(N_("Uncertainty (sigma)")),
}


VALUE_LABELS: dict[str, dict[str, str]] = {
    "record": {
        "Longest winning streak": N_("Longest winning streak"),
        "Best game": N_("Best game"),
        "Biggest comeback": N_("Biggest comeback"),
    },
    "outcome": {outcome.value: text for outcome, text in OUTCOME_LABELS.items()},
}
"""Columns whose cells are the core's words or codes, with what a person reads for each."""


def _shown_values(table: pd.DataFrame, columns: dict[str, Column]) -> pd.DataFrame:
    """``table`` with the cells of :data:`VALUE_LABELS` columns in this run's language."""
    for name, labels in VALUE_LABELS.items():
        if name in columns and name in table.columns:
            shown = {value: _(label) for value, label in labels.items()}
            table = table.assign(**{name: table[name].map(lambda v, shown=shown: shown.get(v, v))})
    return table


def translated(columns: dict[str, Column]) -> dict[str, Column]:
    """``columns`` with their headings and help in this run's language."""
    out: dict[str, Column] = {}
    for name, column in columns.items():
        if isinstance(column, str):
            out[name] = _(column)
            continue
        config: dict[str, Any] = dict(column)
        for part in ("label", "help"):
            if config.get(part):
                config[part] = _(config[part])
        out[name] = cast(ColumnConfig, config)
    return out


def show_table(table: pd.DataFrame, columns: dict[str, Column]) -> None:
    """Show ``table`` with just ``columns`` (in that order), labelled and formatted."""
    st.dataframe(
        _shown_values(shown_frame(table, columns), columns),
        column_config=translated(columns),
        column_order=list(columns),
        hide_index=True,
        width="stretch",
    )
