"""A name written in Markdown shows exactly as typed in Chromium, in toasts and alerts too,
and an image address in it is never fetched."""

import pytest
from playwright.sync_api import Page, expect

from dutch_app.services import games
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import (
    entry_error,
    entry_summary,
    expect_clean_page,
    expect_title,
    fill_round,
    press,
    save_button,
    widget,
)

PIXEL = "http://t.invalid/p.png"
NAME = f"**Z** `c` :red[x] :smile: $1$ ![]({PIXEL})"
LINK_NAME = "[Ann](http://t.invalid/a) ann@x.example"


@pytest.fixture(scope="module")
def table(make_table):
    """A group whose two players are named in Markdown, with a game of them in progress."""
    table = make_table("Ann", "ann.user-text@example.com", "Friday cards", [LINK_NAME, NAME])
    seats = [table.player_ids[LINK_NAME], table.player_ids[NAME]]
    table.call(games.start_game, table.group_id, seats, PRESETS["classic"])
    return table


@pytest.fixture
def requests_made(app_server, table, browser_page) -> list[str]:
    """Every address the signed-in tab asks for, from the moment it opens the app."""
    made: list[str] = []
    browser_page.on("request", lambda request: made.append(request.url))
    browser_page.context.add_cookies([table.session_cookie(app_server.url)])
    browser_page.goto(app_server.url)
    expect_title(browser_page, "Play")
    return made


def expect_no_markup(page: Page) -> None:
    """Nothing on the page was built from the names: no image, link, code or colour."""
    content = page.get_by_test_id("stMain")
    expect(content.locator(f"img[src='{PIXEL}']")).to_have_count(0)
    expect(content.locator("a[href^='http://t.invalid']")).to_have_count(0)
    expect(content.locator("a[href^='mailto:']")).to_have_count(0)
    expect(content.locator("[data-testid='stMarkdownContainer'] code")).to_have_count(0)
    expect(content.locator("[data-testid='stMarkdownContainer'] strong")).to_have_count(0)
    expect(content.locator(".stMarkdownColoredText")).to_have_count(0)
    expect(content.locator(".katex")).to_have_count(0)


def test_markdown_names_show_literally_in_labels_alerts_and_toasts(requests_made, browser_page):
    """The round form's labels, an error under a hand and the saved round's line all show
    the names as typed, and the browser never asks for the image address in a name."""
    page = browser_page
    expect(widget(page, "play_round_hand_1").get_by_text(NAME, exact=True)).to_be_visible()
    expect(widget(page, "play_round_hand_0").get_by_text(LINK_NAME, exact=True)).to_be_visible()

    fill_round(page, "play_round", ["9", "K"], NAME)
    press(save_button(page))
    problem = f"{NAME}: 'K' needs a colour: KH/KD (red, 0) or KS/KC (black, 13)"
    # The refused save's summary above Save, and the problem under the field.
    summary = entry_summary(page)
    expect(summary).to_contain_text("The round was not saved")
    expect(summary).to_contain_text(problem)
    expect(entry_error(page, "play_round_hand_1")).to_have_text(problem)
    expect_no_markup(page)

    fill_round(page, "play_round", ["9", "3"], NAME)
    press(save_button(page))
    line = widget(page, "play_round_notice")
    expect(line).to_contain_text(
        f"Round 1 saved. {NAME} called Dutch and had the lowest hand: no penalty."
    )
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_clean_page(page)
    expect_no_markup(page)
    assert [url for url in requests_made if "t.invalid" in url] == []


TWELVE = [
    "www.t.invalid/w",
    "https://t.invalid/h",
    "eve@t.invalid",
    ":smile: :+1:",
    ":material/home:",
    ":streamlit:",
    ":blue-badge[b]",
    "$x^2$ $$y$$",
    "a -> b <- c -- d >= e",
    "<img src=http://t.invalid/i.png>",
    "&amp; &#65; ~~s~~",
    "# 1. > - | x |",
]


def test_twelve_risky_names_show_as_typed_in_the_round_form(app_server, make_table, browser_page):
    """Bare links, addresses, emoji and icon codes, directives, math, arrows, HTML,
    entities and block syntax: each of twelve players' names labels its hand field
    exactly as typed, and nothing is fetched."""
    table = make_table("Cy", "cy@example.com", "Risky names", TWELVE)
    seats = [table.player_ids[name] for name in TWELVE]
    table.call(games.start_game, table.group_id, seats, PRESETS["classic"])
    made: list[str] = []
    browser_page.on("request", lambda request: made.append(request.url))
    browser_page.context.add_cookies([table.session_cookie(app_server.url)])
    browser_page.goto(app_server.url)
    expect_title(browser_page, "Play")
    for seat, name in enumerate(TWELVE):
        hand = widget(browser_page, f"play_round_hand_{seat}")
        expect(hand.locator("label")).to_have_text(name)
        expect(hand.locator("input")).to_have_accessible_name(name)
    expect_no_markup(browser_page)
    expect(browser_page.get_by_test_id("stMain").locator("img")).to_have_count(0)
    assert [url for url in made if "t.invalid" in url] == []
