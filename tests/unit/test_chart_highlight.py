"""Line charts of many players: one player in colour on top, the others thin and grey."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import vl_convert

from dutch_app import charts

NAMES = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay"]


def trend(players: int) -> pd.DataFrame:
    """Three rounds of each of the first ``players`` names, on three evenings."""
    rows = [
        {
            "player": name,
            "played_at": pd.Timestamp("2025-01-01", tz="UTC") + pd.Timedelta(days=number),
            "player_round": number,
            "game_id": number,
            "rolling_avg": float(seat + number),
        }
        for seat, name in enumerate(NAMES[:players])
        for number in (1, 2, 3)
    ]
    return pd.DataFrame(rows)


def totals(players: int) -> pd.DataFrame:
    rows = [
        {"round_number": number, "player": name, "round_score": seat, "game_total": seat * number}
        for seat, name in enumerate(NAMES[:players])
        for number in (1, 2)
    ]
    return pd.DataFrame(rows)


def drawn(spec: dict, table: pd.DataFrame) -> str:
    """The chart as SVG, rendered by Vega itself with the table as inline data."""
    inline = {key: value for key, value in spec.items() if key not in ("datasets", "usermeta")}
    inline["data"] = {"values": json.loads(table.to_json(orient="records", date_format="iso"))}
    return vl_convert.vegalite_to_svg(inline)


@pytest.mark.parametrize(
    ("kind", "table"),
    [
        (charts.ROUND_SCORE_TREND, trend),
        (charts.CUMULATIVE_TOTALS, totals),
    ],
)
def test_more_than_four_players_highlight_one_and_four_stay_as_they_are(kind, table):
    many, four = kind.spec(table(5)), kind.spec(table(4))
    assert charts.highlightable(many) and not charts.highlightable(four)
    assert charts.highlighted(four, "Ann") is four  # four players: drawn as today
    shown = charts.highlighted(many, "Cleo")
    others, chosen = shown["layer"]
    assert others["transform"] == [{"filter": {"not": {"field": "player", "equal": "Cleo"}}}]
    assert others["encoding"]["color"] == {"value": charts.OTHERS_GREY}
    assert others["encoding"]["detail"]["field"] == "player"  # still a line per player
    assert chosen["transform"] == [{"filter": {"field": "player", "equal": "Cleo"}}]
    assert chosen["encoding"]["color"]["field"] == "player"
    assert chosen["mark"]["strokeWidth"] > others["mark"]["strokeWidth"]
    assert "player" in json.dumps(others["encoding"]["tooltip"])  # grey lines still say who
    assert shown["datasets"] is many["datasets"] and "layer" not in many  # nothing copied


def test_the_highlighted_chart_is_drawn_in_the_players_colour_over_grey():
    table = trend(6)
    colours = charts.player_colours(enumerate(NAMES))
    spec = charts.coloured(charts.highlighted(charts.ROUND_SCORE_TREND.spec(table), "Eve"), colours)
    svg = drawn(spec, table)
    assert (
        svg.count(f'stroke="{charts.OTHERS_GREY.lower()}"')
        + svg.count(f'stroke="{charts.OTHERS_GREY}"')
        == 5
    )
    assert colours["Eve"].lower() in svg.lower()
    assert colours["Ann"].lower() not in svg.lower()  # only the highlighted player's colour
    dark = charts.for_theme(spec, dark=True)
    assert charts.OTHERS_GREY not in json.dumps({k: v for k, v in dark.items() if k != "datasets"})


def test_no_player_or_one_the_chart_lacks_leaves_the_chart_as_it_is():
    spec = charts.ROUND_SCORE_TREND.spec(trend(5))
    assert charts.highlighted(spec, None) is spec
    assert charts.highlighted(spec, "Fay") is spec  # Fay is not in this chart


def test_bar_charts_of_many_players_are_never_highlighted():
    summary = pd.DataFrame(
        {
            "player": NAMES,
            "wins": [1] * 6,
            "games_ended": [2] * 6,
            "win_rate": [0.5] * 6,
        }
    )
    assert not charts.highlightable(charts.WIN_RATE.spec(summary))
