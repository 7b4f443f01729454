"""The Stats page's numbers: every table of one filtered view, computed together and cached.

A view is a group's games in a date range, optionally narrowed to the games of
some players. :func:`stats_bundle` computes every statistics table of a view in
one cached call and returns a frozen :class:`StatsBundle`, keyed like the other
cached reads by the group's cache stamp (see :mod:`dutch_app.ui.cache`), and shared
by the group's members. Trends are thinned before they are
cached, so a bundle stays small however long the history is. The bundle holds
the view's charts too, as specs ready to draw, so a rerun draws them without
building or converting any chart.

Bundles are kept as shared objects in the server's memory-bounded cache
(:class:`dutch_app.ui.cache.SharedMemory`), not copied out of it on every rerun: a warm
rerun then costs no unpickling. Pages only
read them; nothing may change a bundle's tables in place (pandas' copy-on-write
keeps derived tables apart).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dutch_app import charts
from dutch_app.charts import ChartSpec
from dutch_app.i18n import active_language
from dutch_app.services import csv_export
from dutch_app.services.views import GroupView
from dutch_app.stats_sections import TrendWindows
from dutch_app.stats_view import StatsBundle, StatsFilters, compute_bundle
from dutch_app.ui.cache import history_frame, shared_memory
from dutch_app.ui.context import require_account, run_service
from dutch_core import stats


def _bundle(
    group_id: int, version: str, filters: StatsFilters, windows: TrendWindows
) -> StatsBundle:
    def compute() -> StatsBundle:  # history_frame checks membership
        frame = history_frame(group_id, filters)
        return compute_bundle(frame, filters.player_ids, windows)

    # The charts' titles and labels are in the run's language: one bundle per language.
    key = ("bundle", group_id, version, filters, tuple(windows), active_language())
    return shared_memory().get_or_compute(key, compute)


def cached_call_advice(group: GroupView) -> pd.DataFrame | None:
    """The group's call advice (:func:`dutch_core.stats.call_advice` over all its games) as
    the Stats page last worked it out, or None when it has not lately: never computed here,
    so a page can show it on every rerun for nothing. It may be a few rounds old."""
    return shared_memory().peek(_advice_key(group))


def _advice_key(group: GroupView) -> tuple[str, int, str]:
    return ("call_advice", group.id, group.cache_key)  # the key never serves another group


def stats_bundle(group: GroupView, filters: StatsFilters, windows: TrendWindows) -> StatsBundle:
    """Every statistics table of the group's view, fresh as of this rerun.

    ``group`` must come from the signed-in person's own group list of this run.
    """
    require_account()
    bundle = _bundle(group.id, group.cache_stamp, filters, windows)
    if filters == StatsFilters():  # all the group's games: the advice the Play page shows
        shared_memory().put(_advice_key(group), bundle.table("call_advice"))
    return bundle


@st.cache_data(max_entries=64, show_spinner=False)
def _game_totals(
    user_id: int, group_id: int, version: str, filters: StatsFilters, game_id: int, language: str
) -> tuple[pd.DataFrame, ChartSpec]:
    del user_id, version, language  # part of the cache key only
    frame = history_frame(group_id, filters)
    totals = stats.cumulative_totals(frame, game_id)
    return totals, charts.CUMULATIVE_TOTALS.spec(totals)


def game_totals(
    group: GroupView, filters: StatsFilters, game_id: int
) -> tuple[pd.DataFrame, ChartSpec]:
    """The game totals after each round of one game of the view (``group`` as above), and
    their chart."""
    account = require_account()
    return _game_totals(
        account.user_id, group.id, group.cache_stamp, filters, game_id, active_language()
    )


def _export(service, user_id: int, group_id: int, filters: StatsFilters) -> bytes:
    """Run an export service as ``user_id`` (works outside a script run too)."""
    player_ids = list(filters.player_ids) if filters.player_ids is not None else None
    return run_service(service, user_id, group_id, filters.date_from, filters.date_to, player_ids)


@st.cache_data(max_entries=8, show_spinner=False)
def rounds_csv(user_id: int, group_id: int, version: str, filters: StatsFilters) -> bytes:
    """The rounds file of the view, each game with its house rules.

    Takes the person's id explicitly, so a download button can build the file
    when it is clicked, outside the page's script run.
    """
    del version  # part of the cache key only
    return _export(csv_export.export_rounds, user_id, group_id, filters)


@st.cache_data(max_entries=8, show_spinner=False)
def games_csv(user_id: int, group_id: int, version: str, filters: StatsFilters) -> bytes:
    """The games file of the view (one row per player per game); see :func:`rounds_csv`."""
    del version  # part of the cache key only
    return _export(csv_export.export_games, user_id, group_id, filters)
