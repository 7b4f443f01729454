"""The Stats page's view as plain data: the filters, every section's table and chart of one
view computed together (:func:`compute_bundle`), and trends thinned to a bounded size.
The sections themselves are declared in :mod:`dutch_app.stats_sections`.

No Streamlit here: :mod:`dutch_app.ui.stats_cache` caches these bundles per group and
version, and the page only reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

import pandas as pd

from dutch_app.charts import ChartSpec
from dutch_app.stats_sections import SECTIONS, TrendWindows, View
from dutch_core import stats

TREND_ROWS = 2000
"""The most rows a cached trend keeps (about; each player's latest event is always kept)."""


@dataclass(frozen=True)
class StatsFilters:
    """What the person narrowed the view to; ``None`` leaves a side open / keeps every player."""

    date_from: date | None = None
    date_to: date | None = None
    player_ids: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Trend:
    """A trend table, thinned to every ``stride``-th event per player when it was long."""

    table: pd.DataFrame
    events: int
    stride: int

    @property
    def thinned(self) -> bool:
        """Whether some events were left out."""
        return self.stride > 1


@dataclass(frozen=True)
class StatsBundle:
    """Every statistics table and chart of one view, by section
    (:data:`dutch_app.stats_sections.SECTIONS`).

    ``players`` are the names the per-player tables show (the chosen players,
    or everyone in the view). Records are the group's records in the view's
    games, whoever holds them.
    """

    players: tuple[str, ...]
    games_played: int
    rounds_played: int
    tables: Mapping[str, pd.DataFrame | Trend]
    """Each section's table (a :class:`Trend` for a trend), by section key."""
    charts: Mapping[str, Mapping[Any, ChartSpec]]
    """Each charted section's charts, ready to draw (see :meth:`dutch_app.charts.ChartKind.spec`):
    by chart kind, or by choice for a section's ``chart_set``."""

    @property
    def is_empty(self) -> bool:
        """True when the view holds no round at all."""
        return self.rounds_played == 0

    def table(self, key: str) -> pd.DataFrame:
        """A section's table (a trend's thinned table)."""
        table = self.tables[key]
        return table.table if isinstance(table, Trend) else table

    def trend(self, key: str) -> Trend:
        """A trend section's thinned table with how much was left out."""
        trend = self.tables[key]
        if not isinstance(trend, Trend):
            raise TypeError(f"{key} is not a trend")
        return trend

    def all_specs(self) -> list[ChartSpec]:
        """Every chart spec of the view."""
        return [spec for specs in self.charts.values() for spec in specs.values()]


def thin(table: pd.DataFrame, counter: str, limit: int = TREND_ROWS) -> Trend:
    """Keep every k-th event of each player (by ``counter``, 1-based) and each player's last.

    >>> table = pd.DataFrame({"player": ["Ann"] * 5, "n": [1, 2, 3, 4, 5]})
    >>> trend = thin(table, "n", limit=2)
    >>> trend.stride, trend.table["n"].tolist()
    (3, [3, 5])
    """
    kept, stride = stats.thin_events(table, counter, limit)
    return Trend(kept.reset_index(drop=True), len(table), stride)


def compute_bundle(
    frame: pd.DataFrame,
    player_ids: tuple[int, ...] | None,
    windows: TrendWindows,
) -> StatsBundle:
    """Every section's table and charts for a history frame (already filtered to the view).

    With ``player_ids``, the per-player tables keep only those players; the
    statistics themselves are still worked out over whole games. Trends
    average over each player's last ``windows`` rounds, games and calls.
    """
    view = View(frame, player_ids, windows)
    tables: dict[str, pd.DataFrame | Trend] = {}
    chart_specs: dict[str, Mapping[Any, ChartSpec]] = {}
    for section in SECTIONS:
        table = view.tables[section.key] = section.table(view)
        shown: pd.DataFrame | Trend = table
        if section.trend is not None:
            shown = thin(table, section.trend)
        tables[section.key] = shown
        rows = section.shown_rows(shown.table if isinstance(shown, Trend) else shown)
        if section.chart_set is not None:
            chart_specs[section.key] = section.chart_set(rows, view)
        elif section.charts:
            chart_specs[section.key] = {kind: kind.spec(rows) for kind in section.charts}
    return StatsBundle(
        players=view.shown,
        games_played=int(frame["game_id"].nunique()),
        rounds_played=int(frame["round_id"].nunique()),
        tables=tables,
        charts=chart_specs,
    )
