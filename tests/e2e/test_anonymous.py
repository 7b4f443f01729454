"""Playing without an account, on phones that never visited: one tap to a saved round, and
a friend who joins by invite link as a guest."""

from __future__ import annotations

from playwright.sync_api import expect

from dutch_app.services import games
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import (
    expect_standings,
    expect_title,
    field,
    fill,
    fill_round,
    press,
    save_button,
    wait_for_session_cookie,
    wait_until_idle,
    widget,
)
from tests.views import get_group


def test_a_first_visit_saves_a_round_without_an_account(app_server, phone_page):
    """A phone with no cookies taps "Play without an account", names two players in the
    set-up it lands on, and saves a round: no email typed, and the session cookie keeps it."""
    page = phone_page
    page.goto(app_server.url)
    expect_title(page, "Dutch Scorer")
    press(page.get_by_role("button", name="Play without an account"))
    expect_title(page, "Play")
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    fill(page, "play_setup_new_players", "Ann, Ben")
    press(widget(page, "play_setup_start").get_by_role("button"))
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    fill_round(page, "play_round", ["12", "3", "9"], "Ann")  # the guest's own player first
    press(save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_standings(page, [(1, "Ann", 3), (2, "Ben", 9), (3, "Guest", 12)])
    wait_for_session_cookie(page, present=True)
    page.reload()  # the cookie brings the anonymous account back
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()


def test_a_friend_joins_by_invite_link_as_a_guest_and_saves_a_round(
    app_server, make_table, phone_page
):
    """Ann's invite link, opened on a phone that never signed up, offers "Join as a guest";
    one tap makes the guest a member of Ann's group, in her game, where they save a round."""
    ann = make_table("Ann", "ann.guest@example.com", "Saturday cards", ["Ann", "Ben"])
    seats = list(ann.player_ids.values())
    game = ann.call(games.start_game, ann.group_id, seats, PRESETS["classic"])
    code = ann.call(get_group, ann.group_id).invite_code
    page = phone_page
    page.goto(f"{app_server.url}/?join={code}")
    expect(page.get_by_text("You were invited to join a group.")).to_be_visible()
    press(page.get_by_role("button", name="Join as a guest"))
    joined = "You joined Saturday cards with the invite link; it is now your active group."
    expect(page.get_by_text(joined)).to_be_visible()
    # The join's runs end with the session cookie set: the page has settled before typing.
    wait_for_session_cookie(page, present=True)
    wait_until_idle(page)
    members = ann.call(get_group, ann.group_id).members
    assert [member.display_name for member in members] == ["Ann", "Guest"]
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    # The next run (here the R key's) no longer shows the join's notice, and the round
    # entry stays as it is drawn: drawn afresh, it would lose what was typed the moment
    # before (it keeps what the page has heard of, a quarter of a second later).
    page.locator(".dutch-entry").evaluate("entry => { entry.dataset.seen = 'before'; }")
    fill(page, "play_round_hand_0", "4")
    page.get_by_role("heading", name="Round 1").click()  # out of the field, for the key
    page.keyboard.press("r")
    expect(page.get_by_text(joined)).to_have_count(0)
    wait_until_idle(page)
    expect(page.locator(".dutch-entry")).to_have_attribute("data-seen", "before")
    expect(field(page, "play_round_hand_0")).to_have_value("4")
    fill_round(page, "play_round", ["4", "20"], "Ann")
    press(save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_standings(page, [(1, "Ann", 4), (2, "Ben", 20)])
    assert ann.call(games.get_game, game.id).rounds_played == 1


def test_a_kept_anonymous_account_finds_its_game_on_another_device(
    app_server, phone_page, page_factory
):
    """A first visit plays without an account, then keeps it with an email and password on
    the Account page; a second device signs in with them and finds the same game."""
    page = phone_page
    page.goto(app_server.url)
    press(page.get_by_role("button", name="Play without an account"))
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    fill(page, "play_setup_new_players", "Ann")
    press(widget(page, "play_setup_start").get_by_role("button"))
    fill_round(page, "play_round", ["12", "3"], "Ann")
    press(save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    wait_for_session_cookie(page, present=True)

    page.goto(f"{app_server.url}/account")
    expect(page.get_by_text("Keep your games: add an email and password")).to_be_visible()
    fill(page, "account_keep_email", "kept.guest@example.com")
    fill(page, "account_keep_password", "table-tennis-42")
    press(page.get_by_role("button", name="Keep my games"))
    kept = "Your account is kept: sign in with kept.guest@example.com from now on."
    expect(page.get_by_text(kept)).to_be_visible()

    laptop = page_factory()
    laptop.goto(app_server.url)
    expect_title(laptop, "Dutch Scorer")
    fill(laptop, "signin_email", "kept.guest@example.com")
    fill(laptop, "signin_password", "table-tennis-42")
    press(laptop.get_by_role("button", name="Sign in", exact=True))
    expect_title(laptop, "Play")
    expect(laptop.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_standings(laptop, [(1, "Ann", 3), (2, "Guest", 12)])
