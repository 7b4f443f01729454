"""Charts: every kind draws its statistics table, empty or not, in the app's theme."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest
from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

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


KINDS = {
    "win_rate": (charts.WIN_RATE, summary_table),
    "round_scores": (charts.ROUND_SCORES, summary_table),
    "call_outcomes": (charts.CALL_OUTCOMES, calls_table),
    "by_hand_total": (charts.CALL_SUCCESS_BY_HAND_TOTAL, by_hand_total_table),
    "head_to_head": (charts.HEAD_TO_HEAD, head_to_head_table),
    "round_score_trend": (
        charts.ROUND_SCORE_TREND,
        lambda: trend_table("player_round", "played_at", "rolling_avg", 5),
    ),
    "win_rate_trend": (
        charts.WIN_RATE_TREND,
        lambda: trend_table("game_number", "game_started_at", "win_rate", 5),
    ),
    "call_success_trend": (
        charts.CALL_SUCCESS_TREND,
        lambda: trend_table("call_number", "played_at", "success_rate", 5),
    ),
    "cumulative_totals": (charts.CUMULATIVE_TOTALS, totals_table),
}


def encodings(spec: dict) -> list[dict]:
    """The encoding of a chart, or of each layer of a layered one (cells and their numbers)."""
    return [layer["encoding"] for layer in spec.get("layer", [spec])]


def chart_rows(chart: alt.Chart) -> list[dict]:
    spec = chart.to_dict()
    return [row for rows in spec.get("datasets", {}).values() for row in rows]


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_chart_draws_its_table_with_tooltips(name):
    kind, table = KINDS[name]
    chart = kind.chart(table())
    spec = chart.to_dict()
    assert isinstance(chart, alt.Chart | alt.LayerChart)
    assert chart_rows(chart)
    assert all(encoding["tooltip"] for encoding in encodings(spec))


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_chart_of_an_empty_table_is_a_chart_without_data(name):
    kind, table = KINDS[name]
    chart = kind.chart(table().iloc[0:0])
    assert isinstance(chart, alt.Chart | alt.LayerChart)
    assert chart_rows(chart) == []


def test_charts_of_the_real_statistics_of_an_empty_history_do_not_fail():
    empty = stats.empty_history()
    summary = stats.player_summary(empty)
    assert chart_rows(charts.WIN_RATE.chart(summary)) == []
    assert chart_rows(charts.CALL_OUTCOMES.chart(stats.dutch_calls(empty))) == []
    trend = stats.round_score_trend(empty)
    assert chart_rows(charts.ROUND_SCORE_TREND.chart(trend)) == []


def test_the_dutch_theme_is_active_and_uses_the_okabe_ito_palette():
    assert alt.theme.active == "dutch"
    config = charts.dutch_theme()["config"]
    assert config["range"]["category"] == charts.OKABE_ITO
    assert charts.WIN_RATE.chart(summary_table()).to_dict()["config"]["range"] == {
        "category": charts.OKABE_ITO
    }


def test_call_outcomes_are_shown_per_outcome_with_fixed_colours():
    chart = charts.CALL_OUTCOMES.chart(calls_table())
    rows = chart_rows(chart)
    cat = {row["outcome"]: (row["count"], row["share"]) for row in rows if row["player"] == "Cat"}
    assert cat == {"lowest": (1, pytest.approx(1 / 3)), "tied": (0, 0.0), "beaten": (2, 2 / 3)}
    scale = chart.to_dict()["encoding"]["color"]["scale"]
    colours = dict(zip(scale["domain"], scale["range"], strict=True))
    assert colours["Lowest (success)"] == "#0072B2"
    assert colours["Beaten"] == "#D55E00"


def test_a_long_trend_is_thinned_but_keeps_each_players_latest_point():
    trend = trend_table("player_round", "played_at", "rolling_avg", 30_000)
    rows = chart_rows(charts.ROUND_SCORE_TREND.chart(trend))
    assert len(rows) <= charts.MAX_POINTS + 2
    latest = {row["player"]: row["played_at"] for row in rows}
    assert all(stamp.startswith("2025-01-21T20:00") for stamp in latest.values())


def as_drawn(spec: dict) -> dict:
    """``spec`` with its dataset renamed ``data``: names are content hashes, made two ways.

    The players a spec lists for its colours (``usermeta``, which Vega ignores) are left out.
    """
    (payload,) = spec["datasets"].values()
    drawn = {**spec, "data": {"name": "data"}, "datasets": {"data": payload}}
    drawn.pop("usermeta", None)
    return drawn


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("rows", [5, 300, 0])
def test_each_spec_is_what_streamlit_would_send_for_the_chart(name, rows):
    """A spec drawn as is must look exactly like ``st.altair_chart`` of the chart."""
    kind, table = KINDS[name]
    data = table()
    if "trend" in name:
        counter = data.columns[2]
        data = trend_table(counter, data.columns[1], data.columns[3], max(rows, 1))
    if rows == 0:
        data = data.iloc[0:0]
    converted = _convert_altair_to_vega_lite_spec(kind.chart(data))
    assert as_drawn(kind.spec(data)) == as_drawn(converted)


def test_a_spec_names_its_data_by_content_and_leaves_the_shared_template_alone():
    first = charts.WIN_RATE.spec(summary_table())
    again = charts.WIN_RATE.spec(summary_table())
    other = charts.WIN_RATE.spec(summary_table().iloc[:1])
    assert first == again
    assert first["data"] != other["data"]
    assert first["encoding"] is other["encoding"]  # one template, shared
    assert "datasets" not in charts._template(charts.WIN_RATE, True)


def test_line_charts_mark_their_points_only_when_there_are_few():
    few = charts.ROUND_SCORE_TREND.spec(trend_table("player_round", "played_at", "rolling_avg", 5))
    many = charts.ROUND_SCORE_TREND.spec(
        trend_table("player_round", "played_at", "rolling_avg", charts.MARKED_POINTS)
    )
    assert few["mark"]["point"] is True
    assert many["mark"]["point"] is False


def test_outcome_shares_match_the_plain_melt_of_the_calls_table():
    table = calls_table().assign(calls=[3, 0], lowest=[2, 0], tied=[1, 0], beaten=[0, 0])
    expected = table.melt(
        id_vars=["player", "calls"],
        value_vars=["lowest", "tied", "beaten"],
        var_name="outcome",
        value_name="count",
    )
    long = charts._outcomes_long(table, ["player"])
    pd.testing.assert_frame_equal(long[expected.columns.tolist()], expected)
    assert long["share"].tolist()[:2] == [2 / 3, pytest.approx(float("nan"), nan_ok=True)]
    assert long["outcome_order"].tolist() == [0, 0, 1, 1, 2, 2]


def test_round_scores_stand_side_by_side_per_player():
    long = charts._round_scores_long(summary_table())
    assert long.columns.tolist() == ["player", "rounds", "measure", "score"]
    assert long["measure"].tolist() == ["Average", "Average", "Median", "Median"]
    assert long["score"].tolist() == [6.625, 5.375, 5.5, 5.5]


HOSTILE = "**Ann** <img src=x> :red[x] datum.x ${1} 'a\"b"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_player_names_reach_a_chart_only_as_data(name):
    """A name is a value in the chart's data, drawn and shown in tooltips as text: never a
    field name, an expression, a link (``href``), or one of the tooltip keys that the
    tooltip draws as a heading or an image (``title``, ``image``)."""
    kind, table = KINDS[name]
    original = table()
    frame = original.replace({"Ann": HOSTILE})
    spec = kind.chart(frame).to_dict()
    data = spec.pop("datasets")
    named = not frame.equals(original)  # the table of calls by hand total names nobody
    assert named == any(HOSTILE in row.values() for rows in data.values() for row in rows)
    assert HOSTILE not in repr(spec)
    for encoding in encodings(spec):
        assert "href" not in encoding
        titles = {tip.get("title") for tip in encoding["tooltip"]}
        assert not titles & {"title", "image"}


def test_the_head_to_head_grid_writes_each_share_in_its_cell():
    """Each cell shows its share as a whole percent, readable on both ends of the scale."""
    spec = charts.HEAD_TO_HEAD.chart(head_to_head_table()).to_dict()
    cells, numbers = spec["layer"]
    assert cells["mark"]["type"] == "rect"
    assert numbers["mark"]["type"] == "text"
    assert numbers["encoding"]["text"] == {
        "field": "lower_rate",
        "format": charts.PERCENT_FORMAT,
        "type": "quantitative",
    }
    assert charts.PERCENT_FORMAT == ".0%" and format(2 / 3, charts.PERCENT_FORMAT) == "67%"


def _chart_of(players: list[str]) -> dict:
    frame = pd.DataFrame(
        {"player": players, "round_number": [1] * len(players), "game_total": range(len(players))}
    )
    return charts.CUMULATIVE_TOTALS.spec(frame)


def test_twelve_players_at_one_table_get_twelve_colours():
    names = [f"P{number}" for number in range(1, 13)]
    colours = charts.player_colours(enumerate(names))
    assert len(set(colours.values())) == 12
    spec = charts.coloured(_chart_of(names), colours)
    assert len(set(spec["encoding"]["color"]["scale"]["range"])) == 12


def test_players_of_a_large_group_never_share_a_colour_in_one_chart():
    """In a group of 14 players, the 1st and 13th (and 2nd and 14th) have the same own
    colour; drawn together, the later one takes a colour nobody in the chart has, and
    everyone else keeps their own."""
    names = [f"P{number}" for number in range(1, 15)]
    colours = charts.player_colours(enumerate(names))
    assert colours["P1"] == colours["P13"] and colours["P2"] == colours["P14"]
    shown = ["P1", "P5", "P13", "P14", "P2"]
    spec = charts.coloured(_chart_of(shown), colours)
    scale = spec["encoding"]["color"]["scale"]
    drawn = dict(zip(scale["domain"], scale["range"], strict=True))
    assert scale["domain"] == ["P1", "P13", "P14", "P2", "P5"]  # the legend's order
    assert len(set(drawn.values())) == len(shown)
    assert drawn["P1"] == colours["P1"] and drawn["P5"] == colours["P5"]
    assert drawn["P14"] == colours["P14"]  # first in the legend with that colour: kept
    assert drawn["P13"] != colours["P13"] and drawn["P2"] != colours["P2"]


def test_in_the_dark_theme_a_replacement_colour_is_never_the_one_swapped_for_black():
    colours = {"Ann": "#000000", "Ben": "#000000"}
    spec = charts.for_theme(charts.coloured(_chart_of(["Ann", "Ben"]), colours), dark=True)
    ann, ben = spec["encoding"]["color"]["scale"]["range"]
    assert ann == "#EDEDED" and ben not in ("#EDEDED", "#000000")


def test_time_axes_write_dates_the_way_the_language_does():
    from dutch_app.i18n import use_language

    stamps = pd.Series(pd.date_range("2025-11-20 19:00", periods=14, freq="D", tz="UTC"))
    trend = pd.DataFrame(
        {
            "player": ["Ann"] * 14,
            "game_id": range(14),
            "player_round": range(1, 15),
            "played_at": stamps,
            "round_score": [5] * 14,
            "rolling_avg": [5.0] * 14,
        }
    )
    try:
        use_language("nl")
        spec = charts.ROUND_SCORE_TREND.spec(trend)
    finally:
        use_language("en")
    assert spec["encoding"]["x"]["axis"]["format"] == "%-d %b"  # "1 dec", not "01 Dec"
    names = spec["usermeta"]["embedOptions"]["timeFormatLocale"]
    assert names["shortMonths"][11] == "dec" and names["months"][2] == "maart"
    assert names["shortDays"][0] == "zo"  # d3 weeks start on Sunday
