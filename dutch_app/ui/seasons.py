"""Seasons on Stats and History: the one-tap period ("This season", "Last season", "All
time") beside the date filter, the dates as days of the viewer's time zone, and the season
table of the Stats page.

The period and the date filter agree: tapping a period writes its first and last day into
the date filter, and picking other dates clears the period. The period tapped is kept with
the person's preferences, so the next visit, on any device, opens on it; dates picked by
hand last for the visit.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, tzinfo

import pandas as pd
import streamlit as st
from babel import dates as babel_dates

from dutch_app import stats_columns as columns
from dutch_app.i18n import N_, _, active_locale, format_date
from dutch_app.services import preferences, seasons
from dutch_app.services.views import GroupView, SeasonsView
from dutch_app.stats_view import StatsFilters
from dutch_app.ui import stats_tables as tables
from dutch_app.ui.cache import history_frame, shared_memory
from dutch_app.ui.context import call, require_account, run_service
from dutch_app.ui.history_view import zone
from dutch_app.ui.preferences import my_preferences, read_again_next_run
from dutch_app.ui.text import md
from dutch_app.ui.widgets import LABELLED_SEGMENTS, kept_height, shown_as
from dutch_core import Season, SeasonKind, season_before, season_of, stats

PERIODS = {"this": N_("This season"), "last": N_("Last season"), "all": N_("All time")}
"""The one-tap periods (translate with ``_``), as kept in the preferences."""


def viewer_zone() -> tzinfo:
    """The time zone of the person's browser (UTC when it does not say)."""
    return zone(st.context.timezone, st.context.timezone_offset)


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _group_seasons(_reader_id: int, group_id: int, version: str) -> SeasonsView:
    del version  # part of the cache key only: changing the seasons bumps it
    return run_service(seasons.group_seasons, _reader_id, group_id)


def group_seasons(group: GroupView) -> SeasonsView:
    """The group's seasons as of the data version ``group`` was read with."""
    return _group_seasons(require_account().user_id, group.id, group.cache_stamp)


def period_season(choice: str | None, kinds: SeasonsView, today: date) -> Season | None:
    """The season a period stands for on ``today`` (None for all time, or when there is
    no such season: before the first named season)."""
    if choice not in ("this", "last"):
        return None
    named = kinds.core_seasons()
    current = season_of(today, kinds.kind, named)
    if choice == "this" or current is None:
        return current
    return season_before(current, kinds.kind, named)


def season_dates(season: Season | None) -> tuple[date, ...]:
    """What the date filter holds for a season: its first and last day (an open named
    season up to today is left open at the end: its first day only)."""
    if season is None:
        return ()
    return (season.first_day,) if season.last_day is None else (season.first_day, season.last_day)


def local_bounds(
    date_from: date | None, date_to: date | None, tz: tzinfo
) -> tuple[datetime | None, datetime | None]:
    """Inclusive days of the viewer's zone as the services take them: the first moment of
    ``date_from`` and the last of ``date_to``.

    >>> from datetime import UTC
    >>> local_bounds(date(2026, 1, 1), date(2026, 3, 31), UTC)[1].isoformat()
    '2026-03-31T23:59:59.999999+00:00'
    """
    start = None if date_from is None else datetime.combine(date_from, time(), tzinfo=tz)
    end = None
    if date_to is not None:
        after = datetime.combine(date_to + timedelta(days=1), time(), tzinfo=tz)
        end = after - timedelta(microseconds=1)
    return start, end


def period_picker(page: str, dates_key: str, kinds: SeasonsView, tz: tzinfo) -> None:
    """The one-tap periods of a page (widget keys prefixed by ``page``), setting the date
    filter ``dates_key``; drawn before the date filter, so it can fill it in."""
    key = f"{page}_period"
    today = datetime.now(tz).date()
    if key not in st.session_state:  # the first run of the page in this visit
        kept = my_preferences().season_choice
        if kept is not None:
            st.session_state[key] = kept
            st.session_state[dates_key] = season_dates(period_season(kept, kinds, today))
    chosen = st.session_state.get(key)
    season = period_season(chosen, kinds, today)
    if chosen in ("this", "last") and season_dates(season) != _picked(dates_key):
        st.session_state[key] = None  # other dates were picked since
    with kept_height(LABELLED_SEGMENTS):
        st.segmented_control(
            _("Period"),
            list(PERIODS),
            format_func=shown_as(PERIODS),
            key=key,
            on_change=_tapped,
            args=(key, dates_key, kinds, tz),
            help=_("Seasons are the group's choice (set by its owner on the Group page)."),
        )
    shown = period_season(st.session_state.get(key), kinds, today)
    if shown is not None:
        st.caption(season_caption(shown, kinds.kind))
    elif st.session_state.get(key) in ("this", "last"):
        st.caption(_("No season yet: the group's first named season has not started."))


def _picked(dates_key: str) -> tuple[date, ...]:
    value = st.session_state.get(dates_key, ())
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def _tapped(key: str, dates_key: str, kinds: SeasonsView, tz: tzinfo) -> None:
    choice = st.session_state.get(key)
    if choice is not None:
        today = datetime.now(tz).date()
        st.session_state[dates_key] = season_dates(period_season(choice, kinds, today))
    call(preferences.remember_season_choice, choice)
    read_again_next_run()


def season_name(season: Season, kind: SeasonKind) -> str:
    """A season as people read it: "Q1 2026", "January 2026", "2026" or the name given."""
    first = season.first_day
    if kind == SeasonKind.QUARTER:
        return _("Q{quarter} {year}").format(quarter=(first.month - 1) // 3 + 1, year=first.year)
    if kind == SeasonKind.MONTH:
        return babel_dates.format_date(first, "LLLL y", locale=active_locale())
    return season.label


def season_caption(season: Season, kind: SeasonKind) -> str:
    """The season shown, with its days."""
    if season.last_day is None:
        days = _("since {first}").format(first=format_date(season.first_day))
    else:
        days = f"{format_date(season.first_day)} – {format_date(season.last_day)}"
    return f"{md(season_name(season, kind))}: {days}"


def season_tables(
    group: GroupView, filters: StatsFilters, kinds: SeasonsView, tz: tzinfo
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The view's season table and per-player season table, cached per group version."""

    def compute() -> tuple[pd.DataFrame, pd.DataFrame]:  # history_frame checks membership
        frame = history_frame(group.id, filters)
        return stats.season_table(frame, kinds.kind, tz, kinds.core_seasons())

    key = ("seasons", group.id, group.cache_stamp, filters, kinds, str(tz))
    return shared_memory().get_or_compute(key, compute)


def show_season_table(
    group: GroupView, filters: StatsFilters, kinds: SeasonsView, tz: tzinfo
) -> None:
    """Who won each season of the view, and how each player did in a chosen season."""
    st.subheader(_("Who won each season"))
    table, players = season_tables(group, filters, kinds, tz)
    if table.empty:
        st.info(_("No game of this view falls in a season yet."))
        return
    table = table.iloc[::-1].reset_index(drop=True)  # the latest season first
    names = {
        row.season: season_name(Season(row.season, row.first_day, row.end_day), kinds.kind)
        for row in tables.records(table)
    }
    tables.show_table(table.assign(season=table["season"].map(names)), columns.SEASONS)
    st.caption(
        _(
            "The leader has the most wins of the season; players level on wins share the "
            "lead. The rating is the one each player had when the season ended."
        )
    )
    played = [season for season in table["season"] if (players["season"] == season).any()]
    if not played:
        return
    chosen = st.selectbox(
        _("Season"), played, format_func=names.__getitem__, key="stats_season_players"
    )
    rows = players.loc[players["season"] == chosen].sort_values(
        ["leader", "wins", "games"], ascending=False, kind="stable"
    )
    tables.show_table(rows, columns.SEASON_PLAYERS)
