"""Trends over time, one row per event (round, game or call) per player."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dutch_core.stats._groups import player_codes, stable_order, starts
from dutch_core.stats._util import frame_of, is_value, moments, take
from dutch_core.stats.players import _results


def _running(codes: np.ndarray, values: np.ndarray, window: int) -> dict[str, np.ndarray]:
    """Per player: ``n`` (1, 2, ...), the running ``total``, mean and rolling mean of ``values``.

    The rows must be sorted by player (``codes``), then time.
    """
    values = values.astype("int64")
    counts = np.bincount(codes)
    first = np.repeat(starts(counts), counts)  # each row's player's first row
    position = np.arange(len(values))
    through = np.cumsum(values)
    before = through - values
    total = through - before[first]
    count = position - first + 1
    window_first = np.maximum(position - (window - 1), first)
    rolling = (through - before[window_first]) / (position - window_first + 1)
    return {"n": count, "total": total, "running": total / count, "rolling": rolling}


def _in_play_order(
    df: pd.DataFrame, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """The frame's ``rows`` sorted by player, then when they were played.

    Returns the sorted rows, their player codes, and their ``player``,
    ``played_at``, ``game_id`` and ``round_number`` columns.
    """
    codes, names = player_codes(take(df["player"], rows))
    games = df["game_id"].to_numpy()[rows]
    numbers = df["round_number"].to_numpy()[rows]
    order = stable_order(codes, moments(df["played_at"])[rows], games, numbers)
    columns = {
        "player": names.take(codes[order]),
        "played_at": take(df["played_at"], rows[order]),
        "game_id": games[order],
        "round_number": numbers[order],
    }
    return rows[order], codes[order], columns


def round_score_trend(df: pd.DataFrame, window: int = 10) -> pd.DataFrame:
    """Each player's round scores in the order played, with a rolling average.

    Columns: ``player``, ``played_at``, ``game_id``, ``round_number``,
    ``player_round`` (1 for the player's first round in the frame, ...),
    ``round_score``, ``rolling_avg`` (mean of the player's last ``window``
    rounds, fewer at the start).
    """
    rows, codes, columns = _in_play_order(df, np.arange(len(df)))
    scores = df["round_score"].to_numpy()[rows]
    running = _running(codes, scores, window)
    return frame_of(
        {
            **columns,
            "player_round": running["n"],
            "round_score": scores,
            "rolling_avg": running["rolling"],
        }
    )


def win_rate_trend(
    df: pd.DataFrame, window: int = 10, *, results: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Each player's win rate after each of their ended games, in start order.

    Columns: ``player``, ``game_started_at``, ``game_id``, ``game_number``
    (the player's 1st, 2nd, ... ended game), ``won``, ``wins`` (so far),
    ``win_rate`` (wins / games so far) and ``rolling_win_rate`` (over the
    last ``window`` games). ``results``, when given, must be ``game_results(df)``.
    """
    results = _results(df, results)
    ended = np.flatnonzero(is_value(results["game_status"], "ended"))
    codes, names = player_codes(take(results["player"], ended))
    games = results["game_id"].to_numpy()[ended]
    order = stable_order(codes, moments(results["game_started_at"])[ended], games)
    rows = ended[order]
    won = results["won"].to_numpy()[rows]
    running = _running(codes[order], won, window)
    return frame_of(
        {
            "player": names.take(codes[order]),
            "game_started_at": take(results["game_started_at"], rows),
            "game_id": games[order],
            "game_number": running["n"],
            "won": won,
            "wins": running["total"],
            "win_rate": running["running"],
            "rolling_win_rate": running["rolling"],
        }
    )


def call_success_trend(df: pd.DataFrame, window: int = 10) -> pd.DataFrame:
    """Each player's Dutch-call success rate after each of their calls, in the order made.

    Columns: ``player``, ``played_at``, ``game_id``, ``round_number``,
    ``call_number`` (the player's 1st, 2nd, ... call), ``outcome``,
    ``success_rate`` (share of calls so far whose outcome was lowest) and
    ``rolling_success_rate`` (over the last ``window`` calls).
    """
    calls = np.flatnonzero(df["is_caller"].to_numpy(dtype=bool))
    rows, codes, columns = _in_play_order(df, calls)
    outcome = take(df["outcome"], rows)
    running = _running(codes, is_value(outcome, "lowest"), window)
    return frame_of(
        {
            **columns,
            "call_number": running["n"],
            "outcome": outcome,
            "success_rate": running["running"],
            "rolling_success_rate": running["rolling"],
        }
    )


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


def thin_events(table: pd.DataFrame, counter: str, limit: int) -> tuple[pd.DataFrame, int]:
    """At most about ``limit`` rows: every k-th event of each player (by ``counter``, 1-based)
    plus each player's last; returns the rows kept and k (1 when the table was short enough)."""
    if len(table) <= limit:
        return table, 1
    stride = math.ceil(len(table) / limit)
    last = table.groupby("player")[counter].transform("max")
    keep = table[counter].mod(stride).eq(0) | table[counter].eq(last)
    return table.loc[keep.to_numpy(dtype=bool)], stride
