"""Seasons of the calendar: a group's history cut into calendar quarters, months or years,
or into seasons its owner named.

A named season runs from its start date to the next named season's start; days before
the first named season belong to no season. Nothing here reads the clock: "this season"
is the season of a day the caller gives.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


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


def season_of(day: dt.date, kind: SeasonKind, named: Sequence[NamedSeason] = ()) -> Season | None:
    """The season that ``day`` falls in (None before the first named season).

    >>> season_of(dt.date(2026, 1, 1), SeasonKind.QUARTER)
    Season(label='2026 Q1', first_day=datetime.date(2026, 1, 1), end_day=datetime.date(2026, 4, 1))
    >>> season_of(dt.date(2025, 12, 31), SeasonKind.MONTH).label
    '2025-12'
    """
    if kind == SeasonKind.NAMED:
        ordered = sorted(named, key=lambda season: season.starts_on)
        starts = [season.starts_on for season in ordered]
        index = bisect.bisect_right(starts, day) - 1
        if index < 0:
            return None
        end = starts[index + 1] if index + 1 < len(starts) else None
        return Season(ordered[index].name, starts[index], end)
    if kind == SeasonKind.YEAR:
        return Season(f"{day.year}", dt.date(day.year, 1, 1), dt.date(day.year + 1, 1, 1))
    months = 3 if kind == SeasonKind.QUARTER else 1
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
