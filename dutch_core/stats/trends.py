"""Trends over time, one row per event (round, game or call) per player."""

from __future__ import annotations

import pandas as pd

from dutch_core.stats._util import ended_only, is_value
from dutch_core.stats.players import _results


def _running(table: pd.DataFrame, column: str, window: int) -> pd.DataFrame:
    """Add ``n`` (1, 2, ... per player), the running ``total``, mean and rolling mean of ``column``.

    ``table`` must be sorted by player and time.
    """
    values = table[column].astype("int64")
    by_player = values.groupby(table["player"], sort=False)
    count = (by_player.cumcount() + 1).astype("int64")
    total = by_player.cumsum().astype("int64")
    rolling = by_player.rolling(window, min_periods=1).mean().reset_index(level=0, drop=True)
    return table.assign(n=count, total=total, running=total / count, rolling=rolling)


def round_score_trend(df: pd.DataFrame, window: int = 10) -> pd.DataFrame:
    """Each player's round scores in the order played, with a rolling average.

    Columns: ``player``, ``played_at``, ``game_id``, ``round_number``,
    ``player_round`` (1 for the player's first round in the frame, ...),
    ``round_score``, ``rolling_avg`` (mean of the player's last ``window``
    rounds, fewer at the start).
    """
    order = ["player", "played_at", "game_id", "round_number"]
    rounds = df[[*order, "round_score"]].sort_values(order, kind="stable", ignore_index=True)
    rounds = _running(rounds, "round_score", window)
    rounds = rounds.rename(columns={"n": "player_round", "rolling": "rolling_avg"})
    columns = [*order, "player_round", "round_score", "rolling_avg"]
    return rounds[columns]


def win_rate_trend(
    df: pd.DataFrame, window: int = 10, *, results: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Each player's win rate after each of their ended games, in start order.

    Columns: ``player``, ``game_started_at``, ``game_id``, ``game_number``
    (the player's 1st, 2nd, ... ended game), ``won``, ``wins`` (so far),
    ``win_rate`` (wins / games so far) and ``rolling_win_rate`` (over the
    last ``window`` games). ``results``, when given, must be ``game_results(df)``.
    """
    order = ["player", "game_started_at", "game_id"]
    games = ended_only(_results(df, results))[[*order, "won"]]
    games = games.sort_values(order, kind="stable", ignore_index=True)
    games = _running(games, "won", window)
    games = games.rename(
        columns={
            "n": "game_number",
            "total": "wins",
            "running": "win_rate",
            "rolling": "rolling_win_rate",
        }
    )
    return games[[*order, "game_number", "won", "wins", "win_rate", "rolling_win_rate"]]


def call_success_trend(df: pd.DataFrame, window: int = 10) -> pd.DataFrame:
    """Each player's Dutch-call success rate after each of their calls, in the order made.

    Columns: ``player``, ``played_at``, ``game_id``, ``round_number``,
    ``call_number`` (the player's 1st, 2nd, ... call), ``outcome``,
    ``success_rate`` (share of calls so far whose outcome was lowest) and
    ``rolling_success_rate`` (over the last ``window`` calls).
    """
    order = ["player", "played_at", "game_id", "round_number"]
    calls = df.loc[df["is_caller"].to_numpy(dtype=bool), [*order, "outcome"]]
    calls = calls.sort_values(order, kind="stable", ignore_index=True)
    calls = calls.assign(succeeded=is_value(calls["outcome"], "lowest"))
    calls = _running(calls, "succeeded", window)
    calls = calls.rename(
        columns={"n": "call_number", "running": "success_rate", "rolling": "rolling_success_rate"}
    )
    return calls[[*order, "call_number", "outcome", "success_rate", "rolling_success_rate"]]


def cumulative_totals(df: pd.DataFrame, game_id: int) -> pd.DataFrame:
    """The game totals of one game after each round, one row per player per round.

    Columns: ``round_number``, ``player``, ``seat``, ``round_score``,
    ``game_total`` (running, with any house-rule halving). Empty for an
    unknown game.
    """
    rows = df.loc[df["game_id"].eq(game_id).to_numpy(dtype=bool)]
    columns = ["round_number", "player", "seat", "round_score", "game_total"]
    order = ["round_number", "seat"]
    return rows.sort_values(order, kind="stable", ignore_index=True)[columns]
