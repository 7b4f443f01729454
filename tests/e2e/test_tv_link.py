"""A game's live link on a TV: a browser with no account follows the game that a phone keeps.

Ann's phone has the Play page of a game open and makes the live link there; a TV (a
desktop-sized context with no cookies) opens it. What the TV shows must follow each saved
round within the same 3 s as the phones at the table, without a reload.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dutch_core import EndCondition, HouseRules
from tests.e2e.streamlit_ui import (
    expect_clean_page,
    expect_title,
    fill_round,
    press,
    save_button,
    take_picture,
)

# Its promise is a deadline, measured on a machine no other browser test shares.
pytestmark = pytest.mark.deadline

LIVE_PROMISE_MS = 3_000  # a saved round shows on the TV within 3 s
TV = (1280, 720)
ENDED = "This link to a game does not work"


def make_live_link(phone: Page) -> str:
    """Open "Show on a TV or tablet" on Play, make the link, and read it off the page."""
    press(phone.get_by_text("Show on a TV or tablet"))
    press(phone.get_by_role("button", name="Make a live link"))
    link = phone.get_by_test_id("stCode").filter(has_text="/shared?game=")
    expect(link).to_be_visible()
    expect(phone.get_by_test_id("stImage").locator("img")).to_be_visible()  # the QR code
    expect(phone.get_by_text("Scan to watch the game")).to_be_visible()
    return link.inner_text().strip()


def save_round(phone: Page, hands: list[str], caller: str, number: int) -> None:
    fill_round(phone, "play_round", hands, caller)
    press(save_button(phone))
    expect(phone.get_by_text(f"Round {number} saved.")).to_be_visible()


def test_a_tv_without_an_account_follows_the_game_live_to_its_winner(
    phone_at_table, page_factory, screenshot
):
    """The TV shows round 1 and Ann dealing; a round saved on the phone shows on the TV
    within 3 s without a reload, with the standings, the last round and the progress to the
    score limit; the round that ends the game brings the winner banner and the result's
    picture. Nothing of the group but the game shows."""
    table, _game_id, phone = phone_at_table(
        ["Ann", "Ben"], HouseRules(end=EndCondition.score_limit(30))
    )
    link = make_live_link(phone)
    tv = page_factory(*TV)
    assert tv.context.cookies() == []
    tv.goto(link)
    expect_title(tv, "A game of Dutch")
    expect(tv.get_by_text("Round 1", exact=True)).to_be_visible()
    expect(tv.get_by_text("🃏 Ann deals")).to_be_visible()
    expect(tv.get_by_role("button", name="Full screen")).to_be_visible()
    loads = []
    tv.on("load", lambda _page: loads.append(1))

    save_round(phone, ["3", "9"], "Ann", 1)
    expect(tv.get_by_text("🃏 Ben deals")).to_be_visible(timeout=LIVE_PROMISE_MS)
    standings = tv.get_by_role("table", name="Standings")
    expect(standings.locator("tr")).to_have_text(["1Ann3", "2Ben9"])
    expect(tv.get_by_text("Last round (1): Ann called Dutch and was lowest.")).to_be_visible()
    expect(tv.get_by_text("Highest total 9: the game ends at 30 points")).to_be_visible()
    size = standings.evaluate("table => parseFloat(getComputedStyle(table).fontSize)")
    assert size >= 40  # readable from across the room
    shown = tv.get_by_test_id("stMain").inner_text()
    for private in ("Card night", table.email, "saved by"):
        assert private not in shown
    expect_clean_page(tv)
    take_picture(tv, screenshot, "tv-link", hide_toasts=True)

    save_round(phone, ["2", "25"], "Ann", 2)
    banner = tv.get_by_text("🏆 Ann wins with 5 points")
    expect(banner).to_be_visible(timeout=LIVE_PROMISE_MS)
    expect(tv.get_by_test_id("stImage").locator("img")).to_be_visible()  # the result's picture
    expect(tv.get_by_text("The result as a picture")).to_be_visible()
    assert loads == []  # all of it without a reload
    expect_clean_page(tv)


def test_a_live_link_ended_on_play_shows_one_plain_message(phone_at_table, page_factory):
    """Ann ends the link on Play: the TV that watched it says, by itself, that the link
    does not work, in the very words a made-up link gets."""
    _table, _game_id, phone = phone_at_table(["Ann", "Ben"])
    link = make_live_link(phone)
    tv = page_factory(*TV)
    tv.goto(link)
    expect(tv.get_by_text("🃏 Ann deals")).to_be_visible()

    press(phone.get_by_role("button", name="End the link"))
    expect(phone.get_by_text("The live link no longer works.")).to_be_visible()
    ended = tv.get_by_test_id("stAlertContentError").get_by_role("paragraph")
    expect(ended).to_contain_text(ENDED, timeout=LIVE_PROMISE_MS)
    expect(tv.get_by_text("🃏 Ann deals")).to_have_count(0)
    guessed = page_factory(*TV)
    guessed.goto(link[:-2] + "xy")
    answer = guessed.get_by_test_id("stAlertContentError").get_by_role("paragraph")
    expect(answer).to_have_text(ended.inner_text())
    expect_clean_page(tv)
