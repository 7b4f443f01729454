"""Seasons: a group's history cut into calendar quarters, months or years, or into seasons
its owner named, with who won each.

A game belongs to the season in which it started, in a given time zone (the viewer's):
a game started at 23:30 UTC on 31 December belongs to the new year's first quarter in
Amsterdam, where it was already 00:30 on 1 January. A named season runs from its start
date to the next named season's start; games before the first named season belong to
no season. Nothing here reads the clock: "this season" is the season of a day the caller
gives.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np
import pandas as pd

from dutch_core.seasons import NamedSeason, SeasonKind, seasons_between
from dutch_core.stats._util import frame_of, moments
from dutch_core.stats.players import player_summary
from dutch_core.stats.ratings import rating_history

SEASON_COLUMNS = ("season", "first_day", "end_day", "games", "leaders", "leader_wins")
SEASON_INPUT_COLUMNS = (
    "game_id",
    "game_started_at",
    "game_status",
    "round_id",
    "round_number",
    "played_at",
    "player_id",
    "player",
    "seat",
    "round_score",
    "game_total",
)
"""The history's columns a season's player table reads."""
SEASON_PLAYER_COLUMNS = (
    "season",
    "player",
    "games",
    "wins",
    "avg_game_total",
    "rating",
    "time_played",
    "leader",
)


def day_start(day: dt.date, zone: dt.tzinfo) -> pd.Timestamp:
    """The first moment of ``day`` in ``zone``, in UTC."""
    return pd.Timestamp(dt.datetime.combine(day, dt.time(), tzinfo=zone)).tz_convert("UTC")


def season_table(
    df: pd.DataFrame,
    kind: SeasonKind,
    zone: dt.tzinfo,
    named: Sequence[NamedSeason] = (),
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Who won each season of the history, and how each player did in it.

    The first table has one row per season, from the season of the first game to that
    of the last, seasons without a game included: ``season`` (its label), ``first_day``,
    ``end_day`` (the day after its last; missing for an open named season), ``games``,
    ``leaders`` (the players with the most wins, tied players named together in name
    order, joined by ", "; empty while nobody won a game of the season) and
    ``leader_wins``.

    The second has one row per season per player who played in it: ``games`` (with at
    least one round, any status), ``wins`` (ended games with the lowest total),
    ``avg_game_total`` (over their ended games), ``rating`` (their rating
    after their last rated game of the frame started before the season's end: the
    starting rating, 0, before any), ``time_played`` (the lengths of their games, as
    :func:`dutch_core.stats.player_summary` adds them up) and ``leader``.
    """
    if df.empty:
        return _empty_seasons(), _empty_players()
    started = df["game_started_at"]
    first, last = (moment.tz_convert(zone).date() for moment in (started.min(), started.max()))
    seasons = seasons_between(first, last, kind, named)
    if not seasons:
        return _empty_seasons(), _empty_players()
    # Each row's season, by the instants its season and the next start at.
    bounds = [day_start(season.first_day, zone) for season in seasons]
    final_end = seasons[-1].end_day
    bounds.append(
        pd.Timestamp.max.tz_localize("UTC") if final_end is None else day_start(final_end, zone)
    )
    instants = np.array([bound.value for bound in bounds], dtype="int64")
    codes = np.searchsorted(instants, moments(started), side="right") - 1
    order = np.argsort(codes, kind="stable")
    edges = np.searchsorted(codes[order], np.arange(len(seasons) + 1), side="left")
    kept = df.loc[:, list(SEASON_INPUT_COLUMNS)]
    history = rating_history(df)
    history_starts = moments(history["game_started_at"])
    summaries, players = [], []
    for index, season in enumerate(seasons):
        games = kept.take(order[edges[index] : edges[index + 1]])
        # Rating rows are in start order: those before the season's end come first.
        rated = int(np.searchsorted(history_starts, instants[index + 1], side="left"))
        table = _season_players(games, history.iloc[:rated])
        wins = int(table["wins"].max()) if len(table) else 0
        leaders = sorted(table.loc[table["leader"], "player"].astype(str)) if wins else []
        summaries.append(
            (season.label, season.first_day, season.end_day, games["game_id"].nunique(),
             ", ".join(leaders), wins)
        )  # fmt: skip
        players.append(table.assign(season=season.label))
    summary = pd.DataFrame(summaries, columns=list(SEASON_COLUMNS))
    summary = summary.astype({"games": "int64", "leader_wins": "int64"})
    per_player = pd.concat(players, ignore_index=True)
    return summary, per_player.loc[:, list(SEASON_PLAYER_COLUMNS)]


def _season_players(games: pd.DataFrame, before: pd.DataFrame) -> pd.DataFrame:
    """One season's rows of the per-player table (without the season's label); ``before``
    holds the rating rows of the games started before the season's end."""
    summary = player_summary(games)
    last = before.drop_duplicates("player", keep="last")
    rating = dict(zip(last["player"].astype(str), last["rating"], strict=True))
    newcomer = 0.0  # a player with no rated game yet is taken as the group's average
    wins = summary["wins"].to_numpy()
    return frame_of(
        {
            "player": summary["player"].astype("string").array,
            "games": summary["games"].to_numpy(),
            "wins": wins,
            "avg_game_total": summary["avg_game_total"].to_numpy(),
            "rating": np.array(
                [rating.get(str(name), newcomer) for name in summary["player"]], dtype="float64"
            ),
            "time_played": summary["time_played"].to_numpy(),
            "leader": (wins == wins.max()) & (wins > 0) if len(wins) else wins.astype(bool),
        }
    )


def _empty_seasons() -> pd.DataFrame:
    table = pd.DataFrame({name: pd.Series(dtype="object") for name in SEASON_COLUMNS})
    return table.astype({"games": "int64", "leader_wins": "int64"})


def _empty_players() -> pd.DataFrame:
    return frame_of(
        {
            "season": pd.array([], dtype="object"),
            "player": pd.array([], dtype="string"),
            "games": np.zeros(0, dtype="int64"),
            "wins": np.zeros(0, dtype="int64"),
            "avg_game_total": np.zeros(0, dtype="float64"),
            "rating": np.zeros(0, dtype="float64"),
            "time_played": np.zeros(0, dtype="timedelta64[ns]"),
            "leader": np.zeros(0, dtype=bool),
        }
    )
