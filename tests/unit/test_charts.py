"""Charts: every builder draws its statistics table, empty or not, in the app's theme."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest

from dutch_app import charts
from dutch_core import stats


def summary_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player": ["Ann", "Bob"],
            "games": [4, 4],
            "games_ended": [3, 4],
            "wins": [1, 3],
            "win_rate": [1 / 3, 0.75],
            "rounds": [8, 8],
            "avg_round_score": [6.625, 5.375],
            "median_round_score": [5.5, 5.5],
        }
    )


def calls_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player": ["Ann", "Cat"],
            "calls": [3, 3],
            "lowest": [2, 1],
            "tied": [1, 0],
            "beaten": [0, 2],
        }
    )


def by_hand_total_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "hand_total": [0, 4],
            "calls": [2, 1],
            "lowest": [1, 0],
            "tied": [1, 0],
            "beaten": [0, 1],
            "lowest_rate_at_or_below": [0.5, 1 / 3],
        }
    )


def head_to_head_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player": ["Ann", "Bob"],
            "opponent": ["Bob", "Ann"],
            "games": [3, 3],
            "lower": [1, 2],
            "higher": [2, 1],
            "equal": [0, 0],
            "lower_rate": [1 / 3, 2 / 3],
        }
    )


def trend_table(counter: str, time: str, value: str, rows_per_player: int) -> pd.DataFrame:
    n = pd.Series(range(1, rows_per_player + 1))
    parts = [
        pd.DataFrame(
            {
                "player": name,
                time: pd.Timestamp("2025-01-01", tz="UTC") + pd.to_timedelta(n, unit="min"),
                counter: n,
                value: n % 7 / 7,
            }
        )
        for name in ("Ann", "Bob")
    ]
    return pd.concat(parts, ignore_index=True)


def totals_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "round_number": [1, 1, 2, 2],
            "player": ["Ann", "Bob", "Ann", "Bob"],
            "seat": [0, 1, 0, 1],
            "round_score": [3, 10, 5, 9],
            "game_total": [3, 10, 8, 19],
        }
    )


BUILDERS = {
    "win_rate": (charts.build_win_rate_chart, summary_table),
    "round_scores": (charts.build_round_scores_chart, summary_table),
    "call_outcomes": (charts.build_call_outcomes_chart, calls_table),
    "by_hand_total": (charts.build_call_success_by_hand_total_chart, by_hand_total_table),
    "head_to_head": (charts.build_head_to_head_chart, head_to_head_table),
    "round_score_trend": (
        charts.build_round_score_trend_chart,
        lambda: trend_table("player_round", "played_at", "rolling_avg", 5),
    ),
    "win_rate_trend": (
        charts.build_win_rate_trend_chart,
        lambda: trend_table("game_number", "game_started_at", "win_rate", 5),
    ),
    "call_success_trend": (
        charts.build_call_success_trend_chart,
        lambda: trend_table("call_number", "played_at", "success_rate", 5),
    ),
    "cumulative_totals": (charts.build_cumulative_totals_chart, totals_table),
}


def chart_rows(chart: alt.Chart) -> list[dict]:
    spec = chart.to_dict()
    return [row for rows in spec.get("datasets", {}).values() for row in rows]


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_each_chart_draws_its_table_with_tooltips(name):
    build, table = BUILDERS[name]
    chart = build(table())
    spec = chart.to_dict()
    assert isinstance(chart, alt.Chart)
    assert chart_rows(chart)
    assert spec["encoding"]["tooltip"]


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_each_chart_of_an_empty_table_is_a_chart_without_data(name):
    build, table = BUILDERS[name]
    chart = build(table().iloc[0:0])
    assert isinstance(chart, alt.Chart)
    assert chart_rows(chart) == []


def test_charts_of_the_real_statistics_of_an_empty_history_do_not_fail():
    empty = stats.empty_history()
    summary = stats.player_summary(empty)
    assert chart_rows(charts.build_win_rate_chart(summary)) == []
    assert chart_rows(charts.build_call_outcomes_chart(stats.dutch_calls(empty))) == []
    trend = stats.round_score_trend(empty)
    assert chart_rows(charts.build_round_score_trend_chart(trend)) == []


def test_the_dutch_theme_is_active_and_uses_the_okabe_ito_palette():
    assert alt.theme.active == "dutch"
    config = charts.dutch_theme()["config"]
    assert config["range"]["category"] == charts.OKABE_ITO
    assert charts.build_win_rate_chart(summary_table()).to_dict()["config"]["range"] == {
        "category": charts.OKABE_ITO
    }


def test_call_outcomes_are_shown_per_outcome_with_fixed_colours():
    chart = charts.build_call_outcomes_chart(calls_table())
    rows = chart_rows(chart)
    cat = {row["outcome"]: (row["count"], row["share"]) for row in rows if row["player"] == "Cat"}
    assert cat == {"lowest": (1, pytest.approx(1 / 3)), "tied": (0, 0.0), "beaten": (2, 2 / 3)}
    scale = chart.to_dict()["encoding"]["color"]["scale"]
    colours = dict(zip(scale["domain"], scale["range"], strict=True))
    assert colours["Lowest (success)"] == "#0072B2"
    assert colours["Beaten"] == "#D55E00"


def test_a_long_trend_is_thinned_but_keeps_each_players_latest_point():
    trend = trend_table("player_round", "played_at", "rolling_avg", 30_000)
    rows = chart_rows(charts.build_round_score_trend_chart(trend))
    assert len(rows) <= charts.MAX_POINTS + 2
    latest = {row["player"]: row["played_at"] for row in rows}
    assert all(stamp.startswith("2025-01-21T20:00") for stamp in latest.values())
