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

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import pandas as pd

from dutch_core.stats._util import frame_of
from dutch_core.stats.players import player_summary
from dutch_core.stats.ratings import MODEL, conservative, rating_history


class SeasonKind(StrEnum):
    """How a group cuts its history into seasons."""

    QUARTER = "quarter"
    """Calendar quarters: January to March, April to June, and so on (the default)."""
    MONTH = "month"
    """Calendar months."""
    YEAR = "year"
    """Calendar years."""
    NAMED = "named"
    """Seasons the group's owner named, each from its start date to the next one's."""


@dataclass(frozen=True)
class NamedSeason:
    """A season a group's owner started on ``starts_on`` and called ``name``."""

    name: str
    starts_on: dt.date


@dataclass(frozen=True)
class Season:
    """One season: its label and its days, from ``first_day`` up to (not including)
    ``end_day``; ``end_day`` is None for the last named season, which has no end yet."""

    label: str
    first_day: dt.date
    end_day: dt.date | None

    @property
    def last_day(self) -> dt.date | None:
        """The season's last day (None while it has no end)."""
        return None if self.end_day is None else self.end_day - dt.timedelta(days=1)


SEASON_COLUMNS = ("season", "first_day", "end_day", "games", "leaders", "leader_wins")
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


def season_of(day: dt.date, kind: SeasonKind, named: Sequence[NamedSeason] = ()) -> Season | None:
    """The season that ``day`` falls in (None before the first named season).

    >>> season_of(dt.date(2026, 1, 1), SeasonKind.QUARTER)
    Season(label='2026 Q1', first_day=datetime.date(2026, 1, 1), end_day=datetime.date(2026, 4, 1))
    >>> season_of(dt.date(2025, 12, 31), SeasonKind.MONTH).label
    '2025-12'
    """
    if kind is SeasonKind.NAMED:
        ordered = sorted(named, key=lambda season: season.starts_on)
        starts = [season.starts_on for season in ordered]
        index = bisect.bisect_right(starts, day) - 1
        if index < 0:
            return None
        end = starts[index + 1] if index + 1 < len(starts) else None
        return Season(ordered[index].name, starts[index], end)
    if kind is SeasonKind.YEAR:
        return Season(f"{day.year}", dt.date(day.year, 1, 1), dt.date(day.year + 1, 1, 1))
    months = 3 if kind is SeasonKind.QUARTER else 1
    first_month = (day.month - 1) // months * months + 1
    first = dt.date(day.year, first_month, 1)
    end = _months_later(first, months)
    label = f"{day.year} Q{first_month // 3 + 1}" if months == 3 else f"{first:%Y-%m}"
    return Season(label, first, end)


def season_before(
    season: Season, kind: SeasonKind, named: Sequence[NamedSeason] = ()
) -> Season | None:
    """The season just before ``season`` (None when there is none).

    >>> season_before(season_of(dt.date(2026, 2, 3), SeasonKind.QUARTER), SeasonKind.QUARTER).label
    '2025 Q4'
    """
    return season_of(season.first_day - dt.timedelta(days=1), kind, named)


def _months_later(first: dt.date, months: int) -> dt.date:
    month = first.month - 1 + months
    return dt.date(first.year + month // 12, month % 12 + 1, 1)


def day_start(day: dt.date, zone: dt.tzinfo) -> pd.Timestamp:
    """The first moment of ``day`` in ``zone``, in UTC."""
    return pd.Timestamp(dt.datetime.combine(day, dt.time(), tzinfo=zone)).tz_convert("UTC")


def local_days(started: pd.Series, zone: dt.tzinfo) -> pd.Series:
    """Each moment's calendar day in ``zone``."""
    days: pd.Series = started.dt.tz_convert(zone).dt.date
    return days


def seasons_between(
    first: dt.date, last: dt.date, kind: SeasonKind, named: Sequence[NamedSeason] = ()
) -> list[Season]:
    """Every season from the one of ``first`` to the one of ``last``, in order (named
    seasons that start after ``first``'s season but by ``last`` included)."""
    found: list[Season] = []
    season = season_of(first, kind, named)
    if season is None:  # before the first named season: start with the first one
        later = sorted(s.starts_on for s in named if s.starts_on <= last)
        season = season_of(later[0], kind, named) if later else None
    while season is not None:
        found.append(season)
        if season.end_day is None or season.end_day > last:
            break
        season = season_of(season.end_day, kind, named)
    return found


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
    ``avg_game_total`` (over their ended games), ``rating`` (their conservative rating
    after their last rated game of the frame started before the season's end: the
    starting rating, 0, before any), ``time_played`` (the lengths of their games, as
    :func:`dutch_core.stats.player_summary` adds them up) and ``leader``.
    """
    if df.empty:
        return _empty_seasons(), _empty_players()
    days = local_days(df["game_started_at"], zone)
    seasons = seasons_between(min(days), max(days), kind, named)
    history = rating_history(df)
    summaries, players = [], []
    for season in seasons:
        start = day_start(season.first_day, zone)
        inside = df["game_started_at"] >= start
        end = None if season.end_day is None else day_start(season.end_day, zone)
        if end is not None:
            inside &= df["game_started_at"] < end
        games = df.loc[inside.to_numpy(dtype=bool)]
        table = _season_players(games, history, end)
        wins = int(table["wins"].max()) if len(table) else 0
        leaders = sorted(table.loc[table["leader"], "player"].astype(str)) if wins else []
        summaries.append(
            (season.label, season.first_day, season.end_day, games["game_id"].nunique(),
             ", ".join(leaders), wins)
        )  # fmt: skip
        players.append(table.assign(season=season.label))
    summary = pd.DataFrame(summaries, columns=list(SEASON_COLUMNS))
    summary = summary.astype({"games": "int64", "leader_wins": "int64"})
    per_player = pd.concat(players, ignore_index=True) if players else _empty_players()
    return summary, per_player.loc[:, list(SEASON_PLAYER_COLUMNS)]


def _season_players(
    games: pd.DataFrame, history: pd.DataFrame, end: pd.Timestamp | None
) -> pd.DataFrame:
    """One season's rows of the per-player table (without the season's label)."""
    summary = player_summary(games)
    before = history if end is None else history.loc[history["game_started_at"] < end]
    last = before.groupby("player", observed=True, sort=False).tail(1)
    rating = dict(zip(last["player"].astype(str), last["rating"], strict=True))
    newcomer = conservative(MODEL.mu, MODEL.sigma)
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
