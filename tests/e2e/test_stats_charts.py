"""Stats charts in Chromium: time axes that read as dates, and each player in one colour.

The group plays eight games spread over two weeks; the charts are drawn as SVG, so
their axis labels and marks (each labelled with its tooltip fields) can be read.
"""

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from dutch_app.charts import player_colours
from dutch_app.services import games, rounds
from dutch_core import EndCondition, HouseRules
from tests.e2e.streamlit_ui import expect_title, open_page, open_tab

SEATS = ["Ann", "Ben", "Cleo"]
TWO_ROUNDS = HouseRules(end=EndCondition.after_rounds(2))
START = datetime(2025, 3, 3, 19, 0, tzinfo=UTC)
DATE_LABEL = re.compile(r"^\d{2} [A-Z][a-z]{2}$")  # "05 Mar"


@pytest.fixture(scope="module")
def table(make_table):
    """Eight ended games of Ann, Ben and Cleo, two days apart."""
    table = make_table("Ann", "ann.stats-charts@example.com", "Two weeks", SEATS)
    seated = [table.player_ids[name] for name in SEATS]
    for number in range(8):
        started = START + timedelta(days=2 * number)
        game = table.call(games.start_game, table.group_id, seated, TWO_ROUNDS, started_at=started)
        for turn in range(2):
            hands = dict(zip(seated, [str(3 + number % 3), "9", str(12 - turn)], strict=True))
            table.call(
                rounds.add_round,
                game.id,
                hands,
                seated[0],
                "dutch",
                None,
                entered_at=started + timedelta(minutes=10 * (turn + 1)),
            )
    return table


@pytest.fixture
def stats_page(app_server, table, browser_page) -> Page:
    browser_page.context.add_cookies([table.session_cookie(app_server.url)])
    browser_page.goto(app_server.url)
    expect_title(browser_page, "Play")
    open_page(browser_page, "Stats")
    return browser_page


def chart_titled(page: Page, title: str):
    chart = page.get_by_test_id("stVegaLiteChart").filter(has_text=title)
    expect(chart).to_have_count(1)
    expect(chart.locator("svg .role-axis-label text").first).to_be_visible()
    return chart


def mark_colours(chart, player: str) -> set[str]:
    """The fill colours of the chart's marks whose label names ``player``."""
    marks = chart.locator(f"svg [aria-label*='Player: {player};']")
    expect(marks.first).to_be_attached()
    return {(marks.nth(i).get_attribute("fill") or "").upper() for i in range(marks.count())} - {""}


def test_a_two_week_trend_shows_dates_and_a_player_keeps_one_colour(stats_page, table):
    wins = chart_titled(stats_page, "Win rate (ended games)")
    bar_colours = mark_colours(wins, "Ben")
    open_tab(stats_page, "Trends")
    trend = chart_titled(stats_page, "Round score over time")
    labels = [
        text.strip()
        for text in trend.locator("svg .role-axis-label text").all_text_contents()
        if text.strip()
    ]
    dates = [label for label in labels if DATE_LABEL.match(label)]
    assert len(set(dates)) >= 3, labels  # several distinct days along the axis
    assert not any("PM" in label or "AM" in label for label in labels), labels
    assert len(dates) == len(set(dates)), labels  # no day labelled twice
    expected = player_colours((player_id, name) for name, player_id in table.player_ids.items())
    assert bar_colours == {expected["Ben"].upper()}
    assert mark_colours(trend, "Ben") == {expected["Ben"].upper()}
    assert mark_colours(trend, "Ann") == {expected["Ann"].upper()}


def test_on_a_phone_every_table_and_chart_stays_inside_the_screen(app_server, table, phone_page):
    """At 390 px each table keeps to its frame (scrolling sideways inside it, the player's
    name pinned first), each chart fits, and the page itself never scrolls sideways."""
    phone_page.context.add_cookies([table.session_cookie(app_server.url)])
    phone_page.goto(app_server.url + "/stats")
    expect_title(phone_page, "Stats")
    for section in ("Players", "Ratings", "Dutch calls", "One player"):
        open_tab(phone_page, section)
        frames = phone_page.get_by_test_id("stDataFrame")
        expect(frames.first).to_be_visible()
        for element in [*frames.all(), *phone_page.get_by_test_id("stVegaLiteChart").all()]:
            element.scroll_into_view_if_needed()
            box = element.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (section, box)
        assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390, section
