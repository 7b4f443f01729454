"""Every page of the dashboard runs in Chromium without a traceback, on a group with history.

The group has a few dozen past games (made by the demo generator from a fixed seed) and a game
in progress whose players include ``<img src=x onerror=alert(1)>``: that name must show as
typed, never become an element of the page. Every test here also checks that the browser
reported no breach of the app's content policy on any page it showed.
"""

import pytest
from playwright.sync_api import Page, expect

from dutch_app.charts import OKABE_ITO, OTHERS_GREY, player_colours
from dutch_app.services import games, players, rounds
from dutch_app.services.demo import generate_history
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import (
    XSS_NAME,
    chart_colours,
    expect_clean_page,
    expect_literal_name,
    expect_name_in_table,
    expect_standings,
    expect_title,
    fill_round,
    open_page,
    open_tab,
    press,
    save_button,
    take_picture,
    watch_content_policy,
    widget,
)

SEATS = ["Ann", "Ben", XSS_NAME]
SIGNED_OUT_PAGES = [
    ("Round calculator", "Round calculator"),
    ("Rules", "Rules of Dutch"),
    ("Privacy", "Privacy"),
]
SIGNED_IN_PAGES = [
    ("History", "History"),
    ("Stats", "Stats"),
    ("Group", "Group"),
    ("Account", "Account"),
    ("Round calculator", "Round calculator"),
    ("Rules", "Rules of Dutch"),
    ("Privacy", "Privacy"),
    ("Play", "Play"),
]
STATS_SECTIONS = [
    "Players",
    "Ratings",
    "Dutch calls",
    "Head to head",
    "Records",
    "Trends",
    "One player",
]


@pytest.fixture(scope="module")
def table(make_table):
    """Ann's group: past games from the demo generator, and a game in progress of 1 round."""
    table = make_table("Ann", "ann.pages@example.com", "Friday cards", SEATS)
    with table.sessions() as session:
        generate_history(session, table.group_id, rows=300, seed=2025)
    ann, ben, html_name = (table.player_ids[name] for name in SEATS)
    game = table.call(games.start_game, table.group_id, [ann, ben, html_name], PRESETS["classic"])
    hands = {ann: "10", ben: "9", html_name: "2"}
    table.call(rounds.add_round, game.id, hands, html_name, "dutch", None)
    return table


@pytest.fixture
def policed(browser_page) -> Page:
    """A desktop tab; when the test ends, the browser reported no content-policy breach."""
    breaches = watch_content_policy(browser_page)
    yield browser_page
    assert breaches == []


@pytest.fixture
def signed_in(app_server, table, policed) -> Page:
    """A desktop tab signed in as Ann through her session cookie, on the Play page."""
    policed.context.add_cookies([table.session_cookie(app_server.url)])
    policed.goto(app_server.url)
    expect_title(policed, "Play")
    return policed


def test_pages_before_sign_in_run_without_errors(app_server, policed):
    """Signed out, the sign-in page and the public pages show without a traceback."""
    policed.goto(app_server.url)
    expect_title(policed, "Dutch Scorer")
    policed.get_by_role("tab", name="Create an account").click()
    expect_clean_page(policed)
    for link, title in SIGNED_OUT_PAGES:
        open_page(policed, link, title)


def empty_pickers(page) -> list[str]:
    """The labels of the pickers that show Streamlit's own placeholder (English whatever the
    page's language) for want of a choice: every picker of the app starts on an option,
    or on a placeholder of its own."""
    return page.locator(
        'input[placeholder="Choose an option"], input[placeholder="Choose options"]'
    ).evaluate_all("inputs => inputs.filter(i => i.value === '').map(i => i.ariaLabel)")


def test_every_signed_in_page_runs_without_errors(signed_in, screenshot):
    """Each page of the navigation, and each section of Stats, finishes its run cleanly,
    with no picker left empty under Streamlit's own placeholder (English in any language)."""
    for link, title in SIGNED_IN_PAGES:
        open_page(signed_in, link, title)
        assert empty_pickers(signed_in) == [], link
    open_page(signed_in, "Stats")
    for section in [*STATS_SECTIONS[1:], STATS_SECTIONS[0]]:
        open_tab(signed_in, section)
        expect_clean_page(signed_in)
    take_picture(signed_in, screenshot, "stats")


def test_the_charts_draw_the_groups_numbers(signed_in, table):
    """Play's totals chart and the Stats charts show marks in the players' colours (the
    crowded trend: one highlighted, the rest grey)."""
    chart = signed_in.get_by_test_id("stVegaLiteChart").first
    with table.sessions() as session:
        roster = perform(session, players.list_players, table.account.user_id, table.group_id)
    colours = player_colours((player.id, player.name) for player in roster)
    drawn = chart_colours(chart, [colours[name] for name in SEATS])
    assert all(drawn.values()), drawn  # one line per player of the game, in their colours
    open_page(signed_in, "Stats")
    bars = chart_colours(signed_in.get_by_test_id("stVegaLiteChart").first, OKABE_ITO)
    assert sum(1 for count in bars.values() if count > 50) >= 3, bars  # a bar per player
    open_tab(signed_in, "Trends")
    # The demo group has more than four players: one line in colour, the others grey.
    trend = signed_in.get_by_test_id("stVegaLiteChart").first
    lines = chart_colours(trend, [*OKABE_ITO, OTHERS_GREY])
    assert lines.pop(OTHERS_GREY) > 20, lines
    assert sum(1 for count in lines.values() if count > 20) == 1, lines


def test_an_html_player_name_shows_as_typed_on_every_page(signed_in):
    """The name appears literally on Play and History, and in the tables of Stats and Group;
    no <img> is built from it, and no alert ever opens."""
    alerts: list[str] = []
    signed_in.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
    expect_standings(signed_in, [(1, XSS_NAME, 2), (2, "Ben", 9), (3, "Ann", 10)])
    expect_literal_name(signed_in)
    open_page(signed_in, "History")
    expect_literal_name(signed_in)
    for title in ["Stats", "Group"]:
        open_page(signed_in, title)
        expect_name_in_table(signed_in)
    assert alerts == []


def test_the_round_form_is_empty_again_after_a_saved_round(signed_in):
    """Once a round is saved, every hand field is blank for the next, and the penalty field
    is gone until the next round owes cards."""
    fill_round(signed_in, "play_round", ["KH KD", "4", "0"], "Ann", penalty="5")
    press(save_button(signed_in))
    expect(signed_in.get_by_role("heading", name="Round 3")).to_be_visible()
    expect_clean_page(signed_in)

    fields = ["play_round_hand_0", "play_round_hand_1", "play_round_hand_2"]
    shown = [widget(signed_in, key).locator("input").input_value() for key in fields]
    assert shown == ["", "", ""]
    expect(widget(signed_in, "play_round_penalty")).to_be_hidden()
