"""Per-game results, per-player summaries and head-to-head records."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from dutch_core.stats._groups import (
    changes,
    codes_in,
    group_codes,
    group_max,
    pick,
    player_codes,
    sorted_within,
    stable_order,
    starts,
)
from dutch_core.stats._util import frame_of, is_value, moments, nullable, rate, take


def game_results(df: pd.DataFrame) -> pd.DataFrame:
    """One row per player per game: the final game total, rank and whether they won.

    ``rounds`` is the number of rounds the game has had, ``game_total`` the
    total after its last round, ``rank`` the competition rank within the game
    (1, 1, 3 on a tie for first). ``won`` is true for the players with the
    lowest total of an *ended* game (ties share the win); active games have
    no winners yet.
    """
    games, game_ids = group_codes(df["game_id"].to_numpy())
    numbers = df["round_number"].to_numpy()
    final = np.flatnonzero(numbers == group_max(games, numbers, len(game_ids))[games])
    totals = df["game_total"].to_numpy()[final]
    rank = _min_rank(games[final], totals)
    order = stable_order(
        moments(df["game_started_at"])[final],
        df["game_id"].to_numpy()[final],
        df["seat"].to_numpy()[final],
    )
    rows = final[order]
    copied = ["game_id", "game_started_at", "game_status", "player_id", "player", "seat"]
    out = {name: take(df[name], rows) for name in copied}
    out["rounds"] = numbers[rows]
    out["game_total"] = totals[order]
    out["rank"] = rank[order]
    out["won"] = is_value(out["game_status"], "ended") & (out["rank"] == 1)
    return frame_of(out)


def _min_rank(groups: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each value's competition rank within its group, lowest first (1, 1, 3 on a tie)."""
    order = stable_order(groups, values)
    positions = np.arange(len(order))
    new_group = changes(groups[order])
    group_start = np.maximum.accumulate(np.where(new_group, positions, 0))
    new_value = new_group | changes(values[order])
    value_start = np.maximum.accumulate(np.where(new_value, positions, 0))
    rank = np.empty(len(order), dtype="int64")
    rank[order] = value_start - group_start + 1
    return rank


def _results(df: pd.DataFrame, results: pd.DataFrame | None) -> pd.DataFrame:
    """``results`` when the caller already worked them out for ``df``, else :func:`game_results`."""
    return game_results(df) if results is None else results


def player_summary(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per player: games, wins and round and game scores.

    Columns: ``player``; ``games`` (games with at least one round, any
    status); ``games_ended``; ``wins`` and ``win_rate`` (wins / ended games);
    ``rounds``; ``avg_round_score``, ``median_round_score``, ``best_round``
    (lowest) and ``worst_round`` (highest); ``avg_game_total``, ``best_game``
    and ``worst_game`` over the final totals of ended games (missing when a
    player has none); ``time_played``: the lengths of the games they sat in (each
    from its start to its last round), added up. ``results``, when given, must be
    ``game_results(df)`` (worked out once by a caller that needs it for several tables).
    """
    codes, names = player_codes(df["player"])
    players = len(names)
    games, game_ids = group_codes(df["game_id"].to_numpy())
    played = pd.unique(games.astype("int64") * players + codes)  # (game, player) pairs
    scores = _Sorted(codes, df["round_score"].to_numpy(), players)
    results = _results(df, results)
    ended = is_value(results["game_status"], "ended")
    ended_codes = codes_in(results["player"], names)[ended]
    totals = _Sorted(ended_codes, results["game_total"].to_numpy()[ended], players)
    wins = np.bincount(ended_codes[results["won"].to_numpy()[ended]], minlength=players)
    # Each game's length (as dutch_core.game.game_length: start to last round), summed over
    # the games each player sat in.
    ends = group_max(games, moments(df["played_at"]), len(game_ids))
    lengths = np.maximum(ends - group_max(games, moments(df["game_started_at"]), len(game_ids)), 0)
    time_played = np.zeros(players, dtype="int64")
    np.add.at(time_played, played % players, lengths[played // players])
    return frame_of(
        {
            "player": names,
            "games": np.bincount(played % players, minlength=players),
            "games_ended": totals.counts,
            "wins": wins,
            "win_rate": rate(wins, totals.counts),
            "rounds": scores.counts,
            "avg_round_score": scores.mean(),
            "median_round_score": scores.median(),
            "best_round": scores.lowest(),
            "worst_round": scores.highest(),
            "avg_game_total": totals.mean(),
            "best_game": nullable(totals.lowest(), totals.present),
            "worst_game": nullable(totals.highest(), totals.present),
            "time_played": time_played.view("timedelta64[ns]"),
        }
    )


class _Sorted:
    """Integer values sorted by group, then value: for per-group means, medians and extremes."""

    def __init__(self, codes: np.ndarray, values: np.ndarray, groups: int) -> None:
        self.values = sorted_within(codes, values, groups)
        self.counts = np.bincount(codes, minlength=groups)
        self.sums = np.bincount(codes, weights=values, minlength=groups)
        self.first = starts(self.counts)
        self.present = self.counts > 0

    def _at(self, positions: np.ndarray) -> np.ndarray:
        return pick(self.values, positions, self.present)

    def lowest(self) -> np.ndarray:
        return self._at(self.first)

    def highest(self) -> np.ndarray:
        return self._at(self.first + self.counts - 1)

    def mean(self) -> np.ndarray:
        return rate(self.sums, self.counts)

    def median(self) -> np.ndarray:
        low = self._at(self.first + (self.counts - 1) // 2)
        high = self._at(self.first + self.counts // 2)
        return np.where(self.present, (low + high.astype("float64")) / 2, np.nan)


def head_to_head(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """For each ordered pair of players, their finishes in the ended games both played.

    One row per (``player``, ``opponent``) who met at least once; each pair
    appears both ways round. ``games`` counts their common ended games;
    ``lower`` / ``higher`` / ``equal`` how often ``player``'s final total was
    below / above / equal to ``opponent``'s; ``lower_rate`` = lower / games.
    ``results`` as in :func:`player_summary`.
    """
    results = _results(df, results)
    ended = is_value(results["game_status"], "ended")
    codes, names = player_codes(results["player"])
    games, _ = group_codes(results["game_id"].to_numpy()[ended])
    me, them = _pairs_in_games(games)
    codes = codes[ended]
    totals = results["game_total"].to_numpy()[ended]
    others = codes[me] != codes[them]
    me, them = me[others], them[others]
    pair, distinct = pd.factorize(codes[me].astype("int64") * len(names) + codes[them], sort=True)
    diff = totals[me] - totals[them]
    counts = np.bincount(pair, minlength=len(distinct))
    lower = np.bincount(pair[diff < 0], minlength=len(distinct))
    return frame_of(
        {
            "player": names.take(distinct // len(names)),
            "opponent": names.take(distinct % len(names)),
            "games": counts,
            "lower": lower,
            "higher": np.bincount(pair[diff > 0], minlength=len(distinct)),
            "equal": np.bincount(pair[diff == 0], minlength=len(distinct)),
            "lower_rate": rate(lower, counts),
        }
    )


def _pairs_in_games(games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair of rows of the same game (a row with itself too), as two row arrays."""
    order = np.argsort(games, kind="stable")
    counts = np.bincount(games)
    sizes = counts[games[order]]
    me = np.repeat(order, sizes)
    offsets = np.arange(len(me)) - np.repeat(starts(sizes), sizes)
    them = order[np.repeat(starts(counts)[games[order]], sizes) + offsets]
    return me, them


def latest_game(results: pd.DataFrame) -> pd.DataFrame:
    """The rows of the newest game (by start, then game id), in seat order; none when
    there is no game.

    ``results`` are the view's :func:`game_results` (sorted by start, game and seat).
    """
    if results.empty:
        return results
    newest = results["game_id"].to_numpy()[-1]
    rows: pd.DataFrame = results.loc[results["game_id"].to_numpy() == newest]
    return rows


def game_list(results: pd.DataFrame) -> pd.DataFrame:
    """One row per game, newest first: when, status, rounds and the players in seat order.

    ``results`` are the view's :func:`game_results` (sorted by
    start, game and seat, so each game's rows are together).
    """
    first = np.flatnonzero(changes(results["game_id"].to_numpy()))
    names = results["player"].to_numpy(dtype=object)
    # Each game's names joined in seat order: add up each game's "name, " and drop the last ", ".
    joined = np.add.reduceat(names + ", ", first) if len(first) else np.array([], dtype=object)
    games = results.iloc[first][["game_id", "game_started_at", "game_status", "rounds"]]
    dtype: Any = results["player"].dtype
    if isinstance(dtype, pd.CategoricalDtype):  # a line-up is not one of the names
        dtype = dtype.categories.dtype
    players = pd.array([text[:-2] for text in joined], dtype=dtype)
    games = games.assign(players=players)
    order = ["game_started_at", "game_id"]
    return games.sort_values(order, ascending=False, ignore_index=True)
