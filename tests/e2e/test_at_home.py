"""At home on phones, in Chromium: joining by invite link, a read-only link to one game, and
the dark theme (the device's, and the one saved with the account)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from dutch_app.services import games, groups, preferences, rounds, sharing
from dutch_core import EndCondition, HouseRules
from tests.e2e.streamlit_ui import (
    PASSWORD,
    expect_clean_page,
    expect_title,
    fill,
    press,
    take_picture,
    wait_until_idle,
    widget,
)
from tests.views import get_group

DARK_BACKGROUND = "rgb(18, 26, 22)"  # theme.dark.backgroundColor in .streamlit/config.toml
LIGHT_BACKGROUND = "rgb(251, 250, 246)"  # theme.light.backgroundColor


def background(page: Page) -> str:
    """The colour the app is drawn on."""
    return page.get_by_test_id("stApp").evaluate("app => getComputedStyle(app).backgroundColor")


def invite_link_on_group_page(page: Page) -> str:
    """The invite link the Group page shows its owner."""
    link = page.get_by_test_id("stCode").filter(has_text="?join=")
    expect(link).to_be_visible()
    return link.inner_text().strip()


def test_an_invite_link_joins_a_new_account_and_a_replaced_codes_link_is_refused(
    app_server, make_table, page_factory
):
    """Ann's Group page shows the invite as a link, a QR code and the code. Ben opens the
    link signed out, creates an account (which signs him in), and is a member of Ann's group without
    typing the code. After Ann makes a new code, the old link tells Cleo it no longer works
    and she joins nothing."""
    ann = make_table("Ann", "ann.at-home@example.com", "Sunday cards", ["Ann"])
    anns = page_factory()
    anns.context.add_cookies([ann.session_cookie(app_server.url)])
    anns.goto(app_server.url + "/group")
    expect_title(anns, "Group")
    link = invite_link_on_group_page(anns)
    code = ann.call(get_group, ann.group_id).invite_code
    assert link == f"{app_server.url}/?join={code}"
    expect(anns.get_by_test_id("stImage").locator("img")).to_be_visible()  # the QR code
    expect(anns.get_by_text("Scan to join")).to_be_visible()

    bens = page_factory(*(390, 844), is_mobile=True, has_touch=True)
    bens.goto(link)
    expect(bens.get_by_text("You were invited to join a group.")).to_be_visible()
    assert "join=" not in bens.url  # the code left the address bar, and waits in the tab
    bens.get_by_role("tab", name="Create an account").click()
    fill(bens, "signup_name", "Ben")
    fill(bens, "signup_email", "ben@example.com")
    fill(bens, "signup_password", PASSWORD)
    press(bens.get_by_role("button", name="Create account"))  # and he is signed in
    joined = "You joined Sunday cards with the invite link; it is now your active group."
    expect(bens.get_by_text(joined)).to_be_visible()
    expect_title(bens, "Play")
    members = ann.call(get_group, ann.group_id).members
    assert [member.display_name for member in members] == ["Ann", "Ben"]

    press(anns.get_by_role("button", name="Make a new code"))
    expect(anns.get_by_text("The group has a new invite code and link")).to_be_visible()
    assert invite_link_on_group_page(anns) != link
    cleo = make_table("Cleo", "cleo@example.com", "Cleo's own", ["Cleo"])
    cleos = page_factory()
    cleos.context.add_cookies([cleo.session_cookie(app_server.url)])
    cleos.goto(link)
    expect(cleos.get_by_text("This invite link no longer works")).to_be_visible()
    expect_clean_page(cleos)
    assert [g.id for g in cleo.call(groups.list_groups)] == [cleo.group_id]
    assert len(ann.call(get_group, ann.group_id).members) == 2


def test_a_read_only_link_shows_that_game_only_and_is_refused_like_a_guess_once_ended(
    app_server, make_table, page_factory
):
    """Someone without an account opens a game's read-only link: the names, totals and
    rounds of that game show, and nothing else of the group (its name, other games, notes).
    Once the group ends the link, it gets exactly the answer a made-up link gets."""
    dora = make_table("Dora", "dora@example.com", "Secret society", ["Dora", "Emil"])
    seats = list(dora.player_ids.values())
    other = dora.call(games.start_game, dora.group_id, seats, HouseRules(), "the other game")
    game = dora.call(
        games.start_game, dora.group_id, seats, HouseRules(end=EndCondition.open()), "Notes!"
    )
    for hands in ({seats[0]: "3", seats[1]: "11"}, {seats[0]: "1", seats[1]: "2"}):
        dora.call(rounds.add_round, game.id, hands, seats[0], "dutch", None)
    assert other.id != game.id
    token = dora.call(sharing.make_share_link, game.id)
    link = f"{app_server.url}/shared?game={token}"

    visitor = page_factory(*(390, 844), is_mobile=True, has_touch=True)
    visitor.goto(link)
    expect_title(visitor, "A game of Dutch")
    expect(visitor.get_by_text("Round 3", exact=True)).to_be_visible()
    expect(visitor.get_by_role("heading", name="Rounds")).to_be_visible()
    shown = visitor.get_by_test_id("stMain").inner_text()
    for private in ("Secret society", "Notes!", "the other game", "dora@example.com"):
        assert private not in shown
    expect_clean_page(visitor)

    dora.call(sharing.end_share_link, game.id)
    visitor.reload()
    ended = visitor.get_by_test_id("stAlertContentError").get_by_role("paragraph")
    expect(ended).to_contain_text("This link to a game does not work")
    ended_text = ended.inner_text()
    guessed = page_factory()
    guessed.goto(f"{app_server.url}/shared?game={token[:-2]}xy")
    answer = guessed.get_by_test_id("stAlertContentError").get_by_role("paragraph")
    expect(answer).to_have_text(ended_text)
    expect(guessed.get_by_test_id("stMain")).not_to_contain_text("Dora")
    expect_clean_page(guessed)


def test_a_journey_in_the_dark_theme(app_server, make_table, page_factory, screenshot):
    """A phone set to dark shows the app dark, charts included, and links the web manifest
    for its home screen; a person who saved "Light" on the Account page gets the light theme
    on that phone, and "Like my device" brings the dark one back."""
    finn = make_table("Finn", "finn@example.com", "Night owls", ["Finn", "Gea", "Hal"])
    seats = list(finn.player_ids.values())
    game = finn.call(games.start_game, finn.group_id, seats, HouseRules())
    for hands in (("3", "9", "14"), ("1", "4", "6"), ("2", "8", "5")):
        keyed = dict(zip(seats, hands, strict=True))
        finn.call(rounds.add_round, game.id, keyed, seats[0], "dutch", None)
    phone = page_factory(
        *(390, 844), is_mobile=True, has_touch=True, device_scale_factor=2, color_scheme="dark"
    )
    phone.context.add_cookies([finn.session_cookie(app_server.url)])
    phone.goto(app_server.url)
    expect_title(phone, "Play")
    expect(phone.get_by_test_id("stApp")).to_have_css("background-color", DARK_BACKGROUND)
    chart = phone.get_by_test_id("stVegaLiteChart").first
    chart.scroll_into_view_if_needed()
    expect(chart.locator("svg").first).to_be_visible()
    # The chart's axis labels are light on the dark page (charts re-run with the theme).
    label = chart.locator("svg text").filter(has_text=re.compile(r"^Round$")).first
    expect(label).to_have_attribute("fill", "#E6E9EC")
    # Added to the home screen, the phone finds the app's name and icon through the manifest.
    manifest = phone.locator("link[rel='manifest']")
    expect(manifest).to_have_count(1)
    answer = phone.request.get(app_server.url + manifest.get_attribute("href"))
    assert answer.ok and answer.json()["name"] == "Dutch Scorer"
    expect(phone.locator("link[rel='apple-touch-icon']")).to_have_count(1)
    take_picture(phone, screenshot, "dark-play", top=phone.get_by_role("heading", name="Standings"))

    finn.call(preferences.save_preferences, language=None, theme="light", keep_awake=True)
    fresh = page_factory(*(390, 844), is_mobile=True, has_touch=True, color_scheme="dark")
    fresh.context.add_cookies([finn.session_cookie(app_server.url)])
    fresh.goto(app_server.url + "/account")
    expect_title(fresh, "Account")
    expect(fresh.get_by_test_id("stApp")).to_have_css("background-color", LIGHT_BACKGROUND)
    fresh.goto(app_server.url + "/group")  # another address the theme was never kept for
    expect_title(fresh, "Group")
    expect(fresh.get_by_test_id("stApp")).to_have_css("background-color", LIGHT_BACKGROUND)
    fresh.goto(app_server.url + "/account")
    expect_title(fresh, "Account")
    widget(fresh, "account_theme").get_by_text("Like my device").click()
    press(fresh.get_by_role("button", name="Save the preferences"))
    expect(fresh.get_by_test_id("stApp")).to_have_css("background-color", DARK_BACKGROUND)
    wait_until_idle(fresh)
    assert finn.call(preferences.get_preferences).theme == "auto"
    expect_clean_page(fresh)
