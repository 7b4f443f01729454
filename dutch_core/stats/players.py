"""Per-game results, per-player summaries and head-to-head records."""

from __future__ import annotations

import pandas as pd

from dutch_core.stats._util import ended_only, is_value, rate

GAME_RESULT_COLUMNS = [
    "game_id",
    "game_started_at",
    "game_status",
    "player_id",
    "player",
    "seat",
    "rounds",
    "game_total",
    "rank",
    "won",
]


def game_results(df: pd.DataFrame) -> pd.DataFrame:
    """One row per player per game: the final game total, rank and whether they won.

    ``rounds`` is the number of rounds the game has had, ``game_total`` the
    total after its last round, ``rank`` the competition rank within the game
    (1, 1, 3 on a tie for first). ``won`` is true for the players with the
    lowest total of an *ended* game (ties share the win); active games have
    no winners yet.
    """
    last_round = df.groupby("game_id")["round_number"].transform("max")
    final = df.loc[df["round_number"].eq(last_round).to_numpy(dtype=bool)]
    final = final.rename(columns={"round_number": "rounds"})
    rank = final.groupby("game_id")["game_total"].rank(method="min")
    final = final.assign(
        rank=rank.astype("int64"),
        won=is_value(final["game_status"], "ended") & rank.eq(1).to_numpy(dtype=bool),
    )
    order = ["game_started_at", "game_id", "seat"]
    return final.sort_values(order, kind="stable", ignore_index=True)[GAME_RESULT_COLUMNS]


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
    player has none). ``results``, when given, must be ``game_results(df)``
    (worked out once by a caller that needs it for several tables).
    """
    per_round = df.groupby("player").agg(
        games=("game_id", "nunique"),
        rounds=("round_id", "size"),
        avg_round_score=("round_score", "mean"),
        median_round_score=("round_score", "median"),
        best_round=("round_score", "min"),
        worst_round=("round_score", "max"),
    )
    ended = ended_only(_results(df, results))
    per_game = ended.groupby("player").agg(
        games_ended=("game_id", "size"),
        wins=("won", "sum"),
        avg_game_total=("game_total", "mean"),
        best_game=("game_total", "min"),
        worst_game=("game_total", "max"),
    )
    out = per_round.join(per_game, how="left")
    out["games_ended"] = out["games_ended"].fillna(0).astype("int64")
    out["wins"] = out["wins"].fillna(0).astype("int64")
    out["win_rate"] = rate(out["wins"], out["games_ended"])
    out["best_game"] = out["best_game"].astype("Int64")
    out["worst_game"] = out["worst_game"].astype("Int64")
    columns = [
        "games",
        "games_ended",
        "wins",
        "win_rate",
        "rounds",
        "avg_round_score",
        "median_round_score",
        "best_round",
        "worst_round",
        "avg_game_total",
        "best_game",
        "worst_game",
    ]
    return out[columns].astype({"avg_round_score": "float64"}).reset_index()


def head_to_head(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """For each ordered pair of players, their finishes in the ended games both played.

    One row per (``player``, ``opponent``) who met at least once; each pair
    appears both ways round. ``games`` counts their common ended games;
    ``lower`` / ``higher`` / ``equal`` how often ``player``'s final total was
    below / above / equal to ``opponent``'s; ``lower_rate`` = lower / games.
    ``results`` as in :func:`player_summary`.
    """
    finals = ended_only(_results(df, results))[["game_id", "player", "game_total"]]
    pairs = finals.merge(finals, on="game_id", suffixes=("", "_opponent"))
    pairs = pairs.loc[pairs["player"].ne(pairs["player_opponent"]).to_numpy(dtype=bool)]
    diff = pairs["game_total"] - pairs["game_total_opponent"]
    pairs = pairs.assign(
        opponent=pairs["player_opponent"], lower=diff < 0, higher=diff > 0, equal=diff == 0
    )
    out = pairs.groupby(["player", "opponent"]).agg(
        games=("game_id", "size"),
        lower=("lower", "sum"),
        higher=("higher", "sum"),
        equal=("equal", "sum"),
    )
    out = out.astype("int64")
    out["lower_rate"] = rate(out["lower"], out["games"])
    return out.reset_index()
