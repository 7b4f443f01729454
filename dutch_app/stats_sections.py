"""The Stats page's sections, each declared once: its table, columns, charts and words.

A section is one statistic of the view: how its table is worked out from the view's
data, the columns it is shown with, the charts drawn from it, and the title and
sentences around it. :func:`dutch_app.stats_view.compute_bundle` works out every
section's table and charts in this order; the page (``pages/stats.py``) shows each tab's
sections in this order too. A section the page has no drawing of its own for is drawn
the same way for all: its title, then its charts and table (or ``empty`` when there is
nothing to show), then its caption. A new statistic is one more :class:`Section` here.

No Streamlit here: the titles are marked with ``N_`` and translated when shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

import pandas as pd

from dutch_app import charts
from dutch_app import stats_columns as columns
from dutch_app.charts import ChartKind, ChartSpec
from dutch_app.i18n import N_
from dutch_app.stats_columns import Column
from dutch_core import stats
from dutch_core.game import GameStatus

ROLLING_WINDOW = 10
"""How many of a player's latest rounds, games or calls a rolling average takes by default."""


class TrendWindows(NamedTuple):
    """How many of each player's latest rounds, games and calls the Trends tab's three
    rolling averages take: three windows, each chosen on its own."""

    rounds: int = ROLLING_WINDOW
    games: int = ROLLING_WINDOW
    calls: int = ROLLING_WINDOW


@dataclass
class View:
    """What a section's table is worked out from: the view's history frame and choices,
    with the in-between results that several sections share, each worked out once."""

    frame: pd.DataFrame
    """The history frame of the view (already filtered by date and players' games)."""
    player_ids: tuple[int, ...] | None
    """The chosen players, or ``None`` for everyone in the view."""
    windows: TrendWindows
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    """The tables of the sections declared earlier (before any thinning)."""

    @cached_property
    def shown(self) -> tuple[str, ...]:
        """The names the per-player tables show (the chosen players, or everyone)."""
        frame = self.frame
        if self.player_ids is not None:
            chosen = frame["player_id"].isin(list(self.player_ids)).to_numpy(dtype=bool)
            frame = frame.loc[chosen]
        return tuple(sorted(frame["player"].unique().tolist(), key=str.casefold))

    @cached_property
    def own_rows(self) -> pd.DataFrame:
        """The frame's rows of the shown players."""
        if self.player_ids is None:
            return self.frame
        return self.frame.loc[self.frame["player"].isin(self.shown).to_numpy(dtype=bool)]

    def ours(self, table: pd.DataFrame) -> pd.DataFrame:
        """``table`` with only the shown players' rows (the statistic is still worked out
        over whole games)."""
        return stats.only_players(table, self.shown)

    @cached_property
    def results(self) -> pd.DataFrame:
        return stats.game_results(self.frame)

    @cached_property
    def streaks(self) -> pd.DataFrame:
        return stats.win_streaks(self.frame, results=self.results)

    @cached_property
    def comebacks(self) -> pd.DataFrame:
        return stats.comebacks(self.frame, results=self.results)

    @cached_property
    def rating_history(self) -> pd.DataFrame:
        return stats.rating_history(self.frame, results=self.results)

    @cached_property
    def call_analysis(self) -> dict[str, pd.DataFrame]:
        return stats.call_analysis(self.frame, None if self.player_ids is None else self.shown)


@dataclass(frozen=True)
class Tab:
    """One tab of the Stats page."""

    key: str
    title: str  # marked with N_


TABS = (
    Tab("players", N_("Players")),
    Tab("ratings", N_("Ratings")),
    Tab("calls", N_("Dutch calls")),
    Tab("head_to_head", N_("Head to head")),
    Tab("records", N_("Records")),
    Tab("trends", N_("Trends")),
    Tab("one_player", N_("One player")),
)


@dataclass(frozen=True)
class Section:
    """One statistic of the Stats page, declared once.

    The texts (``title``, ``empty``, ``caption``, ``thinned``) are marked with ``N_``.
    """

    key: str
    """Its name in the bundle (``bundle.table(key)``)."""
    table: Callable[[View], pd.DataFrame]
    """Its table, from the view (a core statistic of ``view.frame``)."""
    tab: str | None = None
    """The tab it shows in; ``None`` when only another section's drawing uses it."""
    title: str | None = None
    columns: Mapping[str, Column] = field(default_factory=dict)
    """The columns shown, in order, with their headings (:mod:`dutch_app.stats_columns`)."""
    charts: tuple[ChartKind, ...] = ()
    """Charts of the shown rows, drawn above the table."""
    chart_set: Callable[[pd.DataFrame, View], Mapping[Any, ChartSpec]] | None = None
    """Instead of ``charts``: a chart per choice (say, per player count), the page picks one."""
    rows: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    """Which of the table's rows the charts and the table show (all by default)."""
    empty: str | None = None
    """Shown instead of the charts and table when no row is left."""
    caption: str | None = None
    trend: str | None = None
    """For a trend: the per-player event counter it is thinned by when long."""
    window: str | None = None
    """For a trend: which rolling window (``TrendWindows`` field) the page offers above it."""
    thinned: str | None = None
    """For a trend: said when only some events are shown (``{stride}``, ``{events}``)."""

    def shown_rows(self, table: pd.DataFrame) -> pd.DataFrame:
        """The rows of ``table`` the charts and the table show."""
        return table if self.rows is None else self.rows(table)


def _callers(calls: pd.DataFrame) -> pd.DataFrame:
    return calls.loc[calls["calls"] > 0]


def _ended_games(view: View) -> pd.DataFrame:
    results = view.results
    ended = results["game_status"].eq(GameStatus.ENDED.value).to_numpy(dtype=bool, na_value=False)
    return view.ours(results.loc[ended])


def _call_chance_charts(chances: pd.DataFrame, view: View) -> dict[int, ChartSpec]:
    curves = view.call_analysis["curves"]
    counts = [int(players) for players in sorted(chances["players"].unique())]
    chart = charts.CALL_CHANCES
    return {n: chart.spec(charts.call_chance_data(chances, curves, n)) for n in counts}


SECTIONS: tuple[Section, ...] = (
    Section(
        "summary",
        lambda v: v.ours(stats.player_summary(v.frame, results=v.results)),
        tab="players",
        title=N_("Per player"),
        columns=columns.SUMMARY,
        charts=(charts.WIN_RATE, charts.ROUND_SCORES),
        caption=N_("Lower is better. Wins, win rate and game totals count ended games only."),
    ),
    Section(
        "ratings",
        lambda v: v.ours(
            stats.player_ratings(v.frame, results=v.results, history=v.rating_history)
        ),
        tab="ratings",
        title=N_("Skill ratings"),
        columns=columns.RATINGS,
    ),
    Section("latest_game", lambda v: stats.latest_game(v.results)),
    Section(
        "rating_trend",
        lambda v: v.ours(v.rating_history),
        title=N_("Rating over time"),
        columns=columns.RATING_TREND,
        charts=(charts.RATING_TREND,),
        empty=N_("No rated games in this view yet."),
        trend="game_number",
        thinned=N_(
            "Showing 1 in every {stride} of each player's rated games ({events} in all) "
            "and each player's latest; the averages use them all."
        ),
    ),
    Section(
        "calls",
        lambda v: v.ours(stats.dutch_calls(v.frame)),
        tab="calls",
        title=N_("Dutch calls"),
        columns=columns.CALLS,
        charts=(charts.CALL_OUTCOMES,),
        rows=_callers,
        empty=N_("Nobody in this view has called Dutch yet."),
        caption=N_(
            "A call succeeds when the caller's hand is the lowest; tied and beaten calls draw "
            "penalty cards. Auto Dutch calls are counted among the calls."
        ),
    ),
    Section(
        "by_hand_total",
        lambda v: stats.call_success_by_hand_total(v.own_rows),
        tab="calls",
        title=N_("How low do you need to be?"),
        columns=columns.BY_HAND_TOTAL,
        charts=(charts.CALL_SUCCESS_BY_HAND_TOTAL,),
        empty=N_("No calls yet, so no success rates by hand total."),
    ),
    Section(
        "against_calls",
        lambda v: v.tables["calls"],  # the same table (a row per player), other columns
        tab="calls",
        title=N_("Beating someone else's call"),
        columns=columns.AGAINST_CALLS,
        caption=N_("How often this player's hand was strictly lower than the caller's."),
    ),
    Section(
        "call_chances",
        lambda v: v.call_analysis["chances"],
        columns=columns.CALL_CHANCES,
        chart_set=_call_chance_charts,
    ),
    Section(
        "caller_profiles",
        lambda v: v.ours(v.call_analysis["profiles"]),
        columns=columns.CALLER_PROFILES,
    ),
    Section(
        "calls_by_player",
        lambda v: v.ours(v.call_analysis["by_player"]),
        columns=columns.PLAYER_CALLS,
    ),
    Section(
        "call_advice",
        lambda v: v.ours(v.call_analysis["advice"]),
    ),
    Section(
        "head_to_head",
        lambda v: v.ours(stats.head_to_head(v.frame, results=v.results)),
        tab="head_to_head",
        title=N_("Head to head"),
        columns=columns.HEAD_TO_HEAD,
        charts=(charts.HEAD_TO_HEAD,),
        empty=N_("Head to head counts ended games with at least two of these players; none yet."),
        caption=N_("Each row compares the player's final total with the opponent's."),
    ),
    Section(
        "records",
        lambda v: stats.records(
            v.frame, results=v.results, streaks=v.streaks, comeback_rows=v.comebacks
        ),
        tab="records",
        title=N_("Records"),
        columns=columns.RECORDS,
        empty=N_("No game in this view has ended yet, so no records have been set."),
        caption=N_(
            "Records count every player of the games shown. A comeback is the most points a "
            "winner was behind the leader at the end of a round."
        ),
    ),
    Section(
        "player_records",
        lambda v: stats.player_records(v.tables["summary"], v.streaks, v.comebacks),
        tab="records",
        title=N_("Per player"),
        columns=columns.PLAYER_RECORDS,
    ),
    Section(
        "round_trend",
        lambda v: stats.round_score_trend(v.own_rows, v.windows.rounds),
        tab="trends",
        title=N_("Round scores over time"),
        columns=columns.ROUND_TREND,
        charts=(charts.ROUND_SCORE_TREND,),
        empty=N_("No rounds in this view yet."),
        trend="player_round",
        window="rounds",
        thinned=N_(
            "Showing 1 in every {stride} of each player's rounds ({events} in all) "
            "and each player's latest; the averages use them all."
        ),
    ),
    Section(
        "win_trend",
        lambda v: v.ours(stats.win_rate_trend(v.frame, v.windows.games, results=v.results)),
        tab="trends",
        title=N_("Win rate over time"),
        columns=columns.WIN_TREND,
        charts=(charts.WIN_RATE_TREND,),
        empty=N_("No ended games in this view yet."),
        trend="game_number",
        window="games",
        thinned=N_(
            "Showing 1 in every {stride} of each player's ended games ({events} in all) "
            "and each player's latest; the averages use them all."
        ),
    ),
    Section(
        "call_trend",
        lambda v: stats.call_success_trend(v.own_rows, v.windows.calls),
        tab="trends",
        title=N_("Dutch-call success over time"),
        columns=columns.CALL_TREND,
        charts=(charts.CALL_SUCCESS_TREND,),
        empty=N_("No calls in this view yet."),
        trend="call_number",
        window="calls",
        thinned=N_(
            "Showing 1 in every {stride} of each player's calls ({events} in all) "
            "and each player's latest; the averages use them all."
        ),
    ),
    Section(
        "games",
        lambda v: stats.game_list(v.results),
        tab="trends",
        title=N_("One game, round by round"),
        columns=columns.GAME_TOTALS,
    ),
    Section("ended_games", _ended_games, tab="one_player", columns=columns.PLAYER_GAMES),
)
"""Every section, in the order they are worked out and shown."""

BY_KEY: dict[str, Section] = {section.key: section for section in SECTIONS}
