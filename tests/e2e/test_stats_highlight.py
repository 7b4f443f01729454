"""A crowded line chart in Chromium: with six players, the highlighted player's line is
drawn in their colour and the others' in grey, and the picker moves the highlight."""

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from dutch_app.charts import OTHERS_GREY, player_colours
from dutch_app.services import games, rounds
from dutch_core import EndCondition, HouseRules
from tests.e2e.streamlit_ui import choose, expect_title, open_page, open_tab

SEATS = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay"]
START = datetime(2025, 3, 3, 19, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def table(make_table):
    """Three ended games of six players, two days apart."""
    table = make_table("Ann", "ann.stats-highlight@example.com", "Six at the table", SEATS)
    seated = [table.player_ids[name] for name in SEATS]
    rules = HouseRules(end=EndCondition.after_rounds(2))
    for number in range(3):
        started = START + timedelta(days=2 * number)
        game = table.call(games.start_game, table.group_id, seated, rules, started_at=started)
        for turn in range(2):
            hands = dict(zip(seated, [str(2 + seat + turn) for seat in range(6)], strict=True))
            when = started + timedelta(minutes=10 * (turn + 1))
            table.call(rounds.add_round, game.id, hands, seated[0], "dutch", entered_at=when)
    return table


def line_colour(page: Page, player: str) -> str:
    """The stroke of ``player``'s line in the round-score trend."""
    chart = page.get_by_test_id("stVegaLiteChart").filter(has_text="Round score over time")
    line = chart.locator(f"svg path[aria-label*='Player: {player};']").first
    expect(line).to_be_attached()
    return (line.get_attribute("stroke") or "").upper()


def test_six_players_draw_one_line_in_colour_and_the_picker_moves_it(
    app_server, table, browser_page
):
    page = browser_page
    page.context.add_cookies([table.session_cookie(app_server.url)])
    page.goto(app_server.url)
    expect_title(page, "Play")
    open_page(page, "Stats")
    open_tab(page, "Trends")
    colours = player_colours((player_id, name) for name, player_id in table.player_ids.items())
    expect(page.get_by_test_id("stVegaLiteChart").first).to_be_visible()
    assert line_colour(page, "Ann") == colours["Ann"].upper()  # the signed-in player first
    assert line_colour(page, "Ben") == OTHERS_GREY.upper()
    choose(page, "stats_highlight", "Ben")
    expect(page.get_by_test_id("stVegaLiteChart").first).to_be_visible()
    page.wait_for_function(
        "() => [...document.querySelectorAll(\"path[aria-label*='Player: Ben;']\")]"
        f".some(p => (p.getAttribute('stroke') || '').toUpperCase() === '{colours['Ben'].upper()}')"
    )
    assert line_colour(page, "Ann") == OTHERS_GREY.upper()
