"""Altair charts of the statistics tables, in one colour-blind-safe theme.

Every builder takes one table from :mod:`dutch_core.stats` (the same table
the page shows beside or under the chart), reshapes it to long form where it
needs to, then encodes it. Builders accept empty tables and then return a
chart without data. Long trends are thinned to at most ``MAX_POINTS`` points
so the page stays light; the table keeps every row. Pages show them with
``st.altair_chart(chart, theme=None)`` so that this theme, not Streamlit's, applies.
"""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

OKABE_ITO = [
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#F0E442",  # yellow
    "#000000",  # black
]
"""The Okabe–Ito palette, readable with every common colour-vision deficiency."""

OUTCOME_COLOURS = {"lowest": "#0072B2", "tied": "#E69F00", "beaten": "#D55E00"}
OUTCOME_LABELS = {"lowest": "Lowest (success)", "tied": "Tied", "beaten": "Beaten"}
MAX_POINTS = 4000


@alt.theme.register("dutch", enable=True)
def dutch_theme() -> alt.theme.ThemeConfig:
    """The app's chart theme: Okabe–Ito colours, quiet axes, legend at the bottom."""
    return {
        "config": {
            "range": {"category": OKABE_ITO},
            "font": "'Source Sans Pro', 'Segoe UI', sans-serif",
            # Long player names are cut with an ellipsis (the tooltip has them whole).
            "axis": {
                "labelFontSize": 12,
                "titleFontSize": 13,
                "gridOpacity": 0.4,
                "labelLimit": 110,
            },
            # Legend entries wrap into columns, so a phone-wide chart keeps them all in view.
            "legend": {
                "orient": "bottom",
                "direction": "horizontal",
                "columns": 3,
                "labelLimit": 90,
                "labelFontSize": 12,
                "titleFontSize": 13,
            },
            "title": {"fontSize": 15, "anchor": "start"},
            "view": {"stroke": None},
            "line": {"strokeWidth": 2},
            "point": {"filled": True, "size": 40},
        },
        "width": "container",
    }


def _player_colour() -> alt.Color:
    return alt.Color("player:N", title="Player", scale=alt.Scale(range=OKABE_ITO))


def _outcome_colour() -> alt.Color:
    return alt.Color(
        "outcome_label:N",
        title="Outcome",
        scale=alt.Scale(
            domain=[OUTCOME_LABELS[o] for o in OUTCOME_COLOURS],
            range=list(OUTCOME_COLOURS.values()),
        ),
        sort=[OUTCOME_LABELS[o] for o in OUTCOME_COLOURS],
    )


def _outcomes_long(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per key and outcome, with its ``count``, ``share`` and a readable label."""
    long = table.melt(
        id_vars=[*keys, "calls"],
        value_vars=list(OUTCOME_COLOURS),
        var_name="outcome",
        value_name="count",
    )
    share = long["count"].astype("float64") / long["calls"].where(long["calls"] > 0)
    order = {outcome: i for i, outcome in enumerate(OUTCOME_COLOURS)}
    return long.assign(
        share=share,
        outcome_label=long["outcome"].map(OUTCOME_LABELS),
        outcome_order=long["outcome"].map(order).astype("int64"),
    )


def thin_events(
    table: pd.DataFrame, counter: str, limit: int = MAX_POINTS
) -> tuple[pd.DataFrame, int]:
    """At most about ``limit`` rows: every k-th event of each player (by ``counter``, 1-based)
    plus each player's last; returns the rows kept and k (1 when the table was short enough)."""
    if len(table) <= limit:
        return table, 1
    stride = math.ceil(len(table) / limit)
    last = table.groupby("player")[counter].transform("max")
    keep = table[counter].mod(stride).eq(0) | table[counter].eq(last)
    return table.loc[keep.to_numpy(dtype=bool)], stride


def _thin(table: pd.DataFrame, counter: str) -> pd.DataFrame:
    """At most about ``MAX_POINTS`` rows: every k-th event per player, plus each player's last."""
    return thin_events(table, counter)[0]


def build_win_rate_chart(summary: pd.DataFrame) -> alt.Chart:
    """Bars of each player's win rate (from ``player_summary``)."""
    return (
        alt.Chart(summary, title="Win rate (ended games)")
        .mark_bar()
        .encode(
            x=alt.X("win_rate:Q", title="Win rate", axis=alt.Axis(format=".0%")),
            y=alt.Y("player:N", title=None, sort="-x"),
            color=_player_colour(),
            tooltip=[
                alt.Tooltip("player:N", title="Player"),
                alt.Tooltip("wins:Q", title="Wins"),
                alt.Tooltip("games_ended:Q", title="Ended games"),
                alt.Tooltip("win_rate:Q", title="Win rate", format=".1%"),
            ],
        )
    )


def build_round_scores_chart(summary: pd.DataFrame) -> alt.Chart:
    """Average and median round score per player, side by side (from ``player_summary``)."""
    measures = {"avg_round_score": "Average", "median_round_score": "Median"}
    long = summary.melt(
        id_vars=["player", "rounds"],
        value_vars=list(measures),
        var_name="measure",
        value_name="score",
    )
    long = long.assign(measure=long["measure"].map(measures))
    return (
        alt.Chart(long, title="Round score (lower is better)")
        .mark_bar()
        .encode(
            x=alt.X("player:N", title=None),
            xOffset=alt.XOffset("measure:N"),
            y=alt.Y("score:Q", title="Points per round"),
            color=alt.Color("measure:N", title="", scale=alt.Scale(range=OKABE_ITO[2:4])),
            tooltip=[
                alt.Tooltip("player:N", title="Player"),
                alt.Tooltip("measure:N", title="Measure"),
                alt.Tooltip("score:Q", title="Points", format=".1f"),
                alt.Tooltip("rounds:Q", title="Rounds"),
            ],
        )
    )


def build_call_outcomes_chart(calls: pd.DataFrame) -> alt.Chart:
    """Each player's Dutch calls split by outcome, as shares (from ``dutch_calls``)."""
    long = _outcomes_long(calls, ["player"])
    return (
        alt.Chart(long, title="How Dutch calls turned out")
        .mark_bar()
        .encode(
            x=alt.X(
                "count:Q", stack="normalize", title="Share of calls", axis=alt.Axis(format=".0%")
            ),
            y=alt.Y("player:N", title=None),
            color=_outcome_colour(),
            order=alt.Order("outcome_order:Q"),
            tooltip=[
                alt.Tooltip("player:N", title="Player"),
                alt.Tooltip("outcome_label:N", title="Outcome"),
                alt.Tooltip("count:Q", title="Calls"),
                alt.Tooltip("share:Q", title="Share", format=".1%"),
            ],
        )
    )


def build_call_success_by_hand_total_chart(table: pd.DataFrame) -> alt.Chart:
    """Call outcomes by the caller's hand total (from ``call_success_by_hand_total``)."""
    long = _outcomes_long(table, ["hand_total", "lowest_rate_at_or_below"])
    return (
        alt.Chart(long, title="Call outcome by the caller's hand total")
        .mark_bar()
        .encode(
            x=alt.X("hand_total:O", title="Caller's hand total"),
            y=alt.Y(
                "count:Q", stack="normalize", title="Share of calls", axis=alt.Axis(format=".0%")
            ),
            color=_outcome_colour(),
            order=alt.Order("outcome_order:Q"),
            tooltip=[
                alt.Tooltip("hand_total:O", title="Hand total"),
                alt.Tooltip("outcome_label:N", title="Outcome"),
                alt.Tooltip("count:Q", title="Calls"),
                alt.Tooltip("share:Q", title="Share", format=".1%"),
                alt.Tooltip("lowest_rate_at_or_below:Q", title="Success at or below", format=".1%"),
            ],
        )
    )


def build_head_to_head_chart(table: pd.DataFrame) -> alt.Chart:
    """A grid of how often the row's player finished below the column's (from ``head_to_head``)."""
    return (
        alt.Chart(table, title="Head to head: share of shared games finished lower")
        .mark_rect()
        .encode(
            x=alt.X("opponent:N", title="Opponent"),
            y=alt.Y("player:N", title="Player"),
            color=alt.Color(
                "lower_rate:Q",
                title="Finished lower",
                scale=alt.Scale(scheme="cividis", domain=[0, 1]),
                legend=alt.Legend(format=".0%"),
            ),
            tooltip=[
                alt.Tooltip("player:N", title="Player"),
                alt.Tooltip("opponent:N", title="Opponent"),
                alt.Tooltip("games:Q", title="Games together"),
                alt.Tooltip("lower:Q", title="Finished lower"),
                alt.Tooltip("equal:Q", title="Level"),
                alt.Tooltip("higher:Q", title="Finished higher"),
                alt.Tooltip("lower_rate:Q", title="Lower rate", format=".0%"),
            ],
        )
    )


def _trend(table: pd.DataFrame, time: str, value: str, title: str, axis_title: str) -> alt.Chart:
    """Lines of ``value`` over ``time`` per player."""
    percent = value.endswith("rate")
    return (
        alt.Chart(table[["player", time, value]], title=title)
        .mark_line(point=len(table) <= 200)
        .encode(
            x=alt.X(f"{time}:T", title=None),
            y=alt.Y(
                f"{value}:Q", title=axis_title, axis=alt.Axis(format=".0%" if percent else "d")
            ),
            color=_player_colour(),
            tooltip=[
                alt.Tooltip("player:N", title="Player"),
                alt.Tooltip(f"{time}:T", title="When", format="%Y-%m-%d %H:%M"),
                alt.Tooltip(f"{value}:Q", title=axis_title, format=".1%" if percent else ".1f"),
            ],
        )
    )


def build_round_score_trend_chart(trend: pd.DataFrame) -> alt.Chart:
    """Each player's rolling average round score over time (from ``round_score_trend``)."""
    table = _thin(trend, "player_round")
    return _trend(table, "played_at", "rolling_avg", "Round score over time", "Rolling average")


def build_win_rate_trend_chart(trend: pd.DataFrame) -> alt.Chart:
    """Each player's win rate so far after each ended game (from ``win_rate_trend``)."""
    table = _thin(trend, "game_number")
    return _trend(table, "game_started_at", "win_rate", "Win rate over time", "Win rate")


def build_call_success_trend_chart(trend: pd.DataFrame) -> alt.Chart:
    """Each player's Dutch-call success rate so far after each call (``call_success_trend``)."""
    table = _thin(trend, "call_number")
    return _trend(
        table, "played_at", "success_rate", "Dutch-call success over time", "Success rate"
    )


def build_cumulative_totals_chart(totals: pd.DataFrame) -> alt.Chart:
    """Each player's game total after every round of one game (from ``cumulative_totals``)."""
    return (
        alt.Chart(totals, title="Game totals round by round")
        .mark_line(point=True)
        .encode(
            x=alt.X("round_number:Q", title="Round", axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("game_total:Q", title="Game total"),
            color=_player_colour(),
            tooltip=[
                alt.Tooltip("player:N", title="Player"),
                alt.Tooltip("round_number:Q", title="Round"),
                alt.Tooltip("round_score:Q", title="Round score"),
                alt.Tooltip("game_total:Q", title="Game total"),
            ],
        )
    )
