"""From joining a group to a started game, in Chromium: a newcomer is a player at once, one
tap starts a game with the members, a new game starts from the last one, a demo group is
one tap away for someone in a group already, and tables leave room for their toolbar on a
phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dutch_app.services import games, groups, players, setup
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import (
    PASSWORD,
    SESSION_COOKIE,
    expect_clean_page,
    expect_standings,
    expect_title,
    fill,
    open_page,
    press,
    wait_until_idle,
    widget,
)
from tests.views import get_group

pytestmark = pytest.mark.e2e


def signed_in(page: Page, table, url: str, account=None) -> None:
    """Give the page's browser the session cookie of ``account`` (the table's owner if
    not given) and open the app."""
    account = account or table.account
    token = table.accounts.issue_token(account.user_id)
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": url}])
    page.goto(url)
    expect_title(page, "Play")


def test_a_newcomer_joins_and_one_tap_sets_up_a_game_with_the_members(
    app_server, make_table, browser_page
):
    """Sam joins Ann's group with its invite code on the Group page; he is a player of it
    at once, and the button offered there opens the Play page's set-up with Ann and Sam
    chosen, where a third player can still sit down before the game starts."""
    table = make_table("Ann", "ann.join@example.com", "Card night", [])
    sam = table.accounts.sign_up("sam.join@example.com", PASSWORD, "Sam")
    code = table.call(get_group, table.group_id).invite_code
    signed_in(browser_page, table, app_server.url, sam)
    open_page(browser_page, "Group")
    fill(browser_page, "group_join_code", code)
    press(browser_page.get_by_role("button", name="Join the group"))
    set_up = browser_page.get_by_role("button", name="Set up a game with Ann and Sam")
    expect(set_up).to_be_visible()
    linked = {p.name: p.user_id for p in table.call(players.list_players, table.group_id)}
    assert linked == {"Ann": table.account.user_id, "Sam": sam.user_id}
    press(set_up)
    expect_title(browser_page, "Play")
    expect(browser_page.get_by_role("heading", name="New game")).to_be_visible()
    assert table.call(games.list_games, table.group_id) == []
    fill(browser_page, "play_setup_new_players", "Eve")
    press(browser_page.get_by_role("button", name="Start the game"))
    expect(browser_page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect_standings(browser_page, [(1, "Ann", 0), (1, "Sam", 0), (1, "Eve", 0)])
    (game,) = table.call(games.list_games, table.group_id, status="active")
    assert game.players == ("Ann", "Sam", "Eve")


def test_a_member_is_asked_whether_the_guest_of_their_name_is_them(
    app_server, make_table, browser_page
):
    """A guest called Olivia played before Olivia had an account: when she joins, the
    Group page asks her (nothing is linked before), and one tap links her."""
    table = make_table("Ann", "ann.invites@example.com", "Guests", ["Olivia"])
    olivia = table.accounts.sign_up("olivia.guest@example.com", PASSWORD, "Olivia")
    with table.sessions() as session:
        code = perform(session, get_group, table.account.user_id, table.group_id).invite_code
        perform(session, groups.join_group, olivia.user_id, code)
    signed_in(browser_page, table, app_server.url, olivia)
    open_page(browser_page, "Group")
    expect(browser_page.get_by_text("Is that you?")).to_be_visible()
    assert table.call(players.list_players, table.group_id)[1].user_id is None
    press(browser_page.get_by_role("button", name="Yes, I am Olivia"))
    expect(browser_page.get_by_text("You play as Olivia in this group.")).to_be_visible()
    expect(browser_page.get_by_text("Is that you?")).to_have_count(0)
    olivias = {p.name: p.user_id for p in table.call(players.list_players, table.group_id)}
    assert olivias["Olivia"] == olivia.user_id


def test_new_game_while_one_is_running_starts_from_its_line_up_and_rules(
    app_server, make_table, browser_page
):
    """With a points game of Cleo, Ann and Ben going on, "New game" shows them chosen in
    that order under the last game's rules, and starting it keeps both."""
    table = make_table("Ann", "ann.again@example.com", "Again", ["Ann", "Ben", "Cleo"])
    ids = table.player_ids
    seats = [ids["Cleo"], ids["Ann"], ids["Ben"]]
    table.call(setup.start_game_with_players, table.group_id, seats, PRESETS["points"])
    signed_in(browser_page, table, app_server.url)
    press(browser_page.get_by_role("button", name="New game"))
    chosen = widget(browser_page, "play_setup_players").locator("[data-tag]")
    expect(chosen).to_have_text(["Cleo", "Ann", "Ben"])
    preset = widget(browser_page, "play_setup_rules_preset").locator("input")
    expect(preset).to_have_value("The last game's rules")
    press(browser_page.get_by_role("button", name="Start the game"))
    expect(browser_page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect_clean_page(browser_page)
    newest = table.call(games.list_games, table.group_id, status="active")[0]
    assert newest.players == ("Cleo", "Ann", "Ben")
    assert table.call(games.get_game, newest.id).rules == PRESETS["points"]


def test_someone_in_a_group_loads_a_marked_demo_group_and_removes_it(
    app_server, make_table, browser_page
):
    """The Group page offers a demo group to someone already in a group; it is marked as a
    demo, and one tap removes it, saying so, back in their own group."""
    table = make_table("Ann", "ann.demo@example.com", "Real group", ["Ann", "Ben"])
    signed_in(browser_page, table, app_server.url)
    open_page(browser_page, "Group")
    browser_page.get_by_text("Look around in a demo group").click()
    press(browser_page.get_by_role("button", name="Load a demo group"))
    expect(browser_page.get_by_text("This is a demo group.")).to_be_visible()
    expect(browser_page.get_by_role("heading", name="Demo group")).to_be_visible()
    press(browser_page.get_by_role("button", name="Remove the demo group"))
    expect(browser_page.get_by_role("heading", name="Real group")).to_be_visible()
    expect(
        browser_page.get_by_test_id("stAlert").get_by_text("Demo group was removed")
    ).to_be_visible()
    expect_clean_page(browser_page)
    assert [g.name for g in table.call(groups.list_groups)] == ["Real group"]


def test_a_tables_toolbar_on_a_phone_covers_no_heading_or_message(
    app_server, make_table, phone_page
):
    """On a phone, the toolbar a tapped table shows (search, full screen) sits in room of
    its own, below the heading above the table; it offers no file of Streamlit's making."""
    table = make_table("Ann", "ann.phone@example.com", "Pocket", ["Ann", "Ben"])
    signed_in(phone_page, table, app_server.url)
    phone_page.goto(f"{app_server.url}/group")
    expect_title(phone_page, "Group")
    heading = phone_page.get_by_role("heading", name="Pocket")
    frame = phone_page.get_by_test_id("stDataFrame").first
    frame.tap()
    wait_until_idle(phone_page)
    toolbar = phone_page.get_by_test_id("stElementToolbar").first
    expect(toolbar).to_be_visible()
    # Search, but no download: Streamlit's file would keep a typed "=..." a formula.
    expect(toolbar.get_by_role("button", name="Search")).to_be_visible()
    expect(toolbar.get_by_role("button", name="Download as CSV")).to_have_count(0)
    bar = toolbar.bounding_box()
    # What is drawn just above the table: here the box offering the first game.
    above = frame.locator(
        "xpath=ancestor::div[@data-testid='stElementContainer'][1]/preceding-sibling::*[1]"
    ).bounding_box()
    assert not overlap(above, bar), (above, bar)
    assert heading.bounding_box()["y"] + heading.bounding_box()["height"] <= bar["y"] + 1


def overlap(a: dict, b: dict) -> bool:
    """Whether two boxes share any area."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )
