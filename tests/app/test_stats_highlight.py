"""The Stats page's line charts of more than four players: one player highlighted, chosen
with a picker that starts on the signed-in person (or the view's leader)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from dutch_app.services import games, players, rounds
from dutch_core import EndCondition, HouseRules
from tests.app.apptools import Table, open_app

STATS = "pages/stats.py"
START = datetime(2025, 1, 10, 19, 0, tzinfo=UTC)


def play(table: Table, names: list[str], hands: list[str], day: int) -> None:
    """A game of ``names`` over two rounds (the first player calls, and is lowest)."""
    ids = [table.player_ids[name] for name in names]
    started = START + timedelta(days=day)
    rules = HouseRules(end=EndCondition.after_rounds(2))
    game = table.call(games.start_game, table.group_id, ids, rules, started_at=started)
    for number in (1, 2):
        table.call(
            rounds.add_round,
            game.id,
            dict(zip(ids, hands, strict=True)),
            ids[0],
            "dutch",
            entered_at=started + timedelta(minutes=10 * number),
        )


def with_players(table: Table, *names: str) -> Table:
    for name in names:
        table.player_ids[name] = table.call(players.add_player, table.group_id, name).id
    return table


def trends(at) -> list[dict]:
    """The specs of the Trends tab's line charts (over time, and one game's totals) of
    more than four players."""
    at.session_state["stats_section"] = "Trends"
    at.run()
    assert not at.exception, at.exception
    specs = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    return [spec for spec in specs if len(spec["usermeta"]["players"]) > 4]


def highlighted(spec: dict) -> str | None:
    """Whose line the chart draws in colour (None when every line is)."""
    if "layer" not in spec:
        return None
    return spec["layer"][1]["transform"][0]["filter"]["equal"]


def test_five_players_highlight_the_signed_in_player_until_another_is_picked(table):
    with_players(table, "Eve")
    play(table, ["Ben", "Ann", "Cleo", "Dan", "Eve"], ["2", "9", "10", "11", "12"], 0)
    at = open_app(table.account, STATS)
    specs = trends(at)
    assert len(specs) == 3  # round scores, win rate, one game (only Ben called)
    assert [highlighted(spec) for spec in specs] == ["Ann"] * 3
    assert at.selectbox(key="stats_highlight").value == "Ann"
    at.selectbox(key="stats_highlight").select("Dan").run()
    assert [highlighted(spec) for spec in trends(at)] == ["Dan"] * len(specs)
    at.session_state["stats_section"] = "Players"  # a tab without the picker, and back
    at.run()
    assert [highlighted(spec) for spec in trends(at)] == ["Dan"] * len(specs)


def test_without_the_signed_in_player_the_leader_is_highlighted(table):
    with_players(table, "Eve", "Fay")
    play(table, ["Ben", "Cleo", "Dan", "Eve", "Fay"], ["2", "9", "10", "11", "12"], 0)
    at = open_app(table.account, STATS)
    assert {highlighted(spec) for spec in trends(at)} == {"Ben"}  # the only winner


def test_four_players_draw_every_line_in_colour_with_no_picker(table):
    play(table, ["Ben", "Ann", "Cleo", "Dan"], ["2", "9", "10", "11"], 0)
    at = open_app(table.account, STATS)
    assert trends(at) == []
    specs = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    assert len(specs) == 4 and [highlighted(spec) for spec in specs] == [None] * 4
    assert not [box for box in at.selectbox if box.key == "stats_highlight"]
