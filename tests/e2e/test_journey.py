"""A first evening with Dutch Scorer, in one browser tab against one server.

A new person signs up, creates a group, sets up a game, plays three rounds (one of them a
Dutch call that is beaten, so the app asks for the penalty cards), reloads the browser, corrects
a round on the History page and finally signs out. Each test checks one step and continues
from where the previous one left the tab, so the tests of this module run in file order.

Players sit as Ann, Ben, ``<img src=x onerror=alert(1)>`` and Cleo: a name made of HTML must
show as typed everywhere it appears. After each step, the browser reported no breach of the
app's content policy.
"""

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.streamlit_ui import (
    PASSWORD,
    SESSION_COOKIE,
    XSS_NAME,
    choice_button,
    choose,
    data_frame,
    expect_clean_page,
    expect_literal_name,
    expect_standings,
    expect_title,
    field,
    fill,
    fill_round,
    is_chosen,
    open_page,
    press,
    save_button,
    session_cookie,
    take_picture,
    wait_for_session_cookie,
    watch_content_policy,
    widget,
)

# The journey's pictures need the steps before them: `make screenshots` runs it whole.
pytestmark = pytest.mark.screenshot

EMAIL = "ann.journey@example.com"
SEATS = ["Ann", "Ben", XSS_NAME, "Cleo"]


@pytest.fixture(scope="module")
def dialogs(tab: Page) -> list[str]:
    """Every alert or other dialog the app opened in the tab (there should be none)."""
    seen: list[str] = []

    def note(dialog) -> None:
        seen.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", note)
    return seen


@pytest.fixture(scope="module")
def breaches(tab: Page) -> list[str]:
    """Every breach of the content policy the browser reported in the tab (none expected)."""
    return watch_content_policy(tab)


@pytest.fixture
def page(tab: Page, dialogs: list[str], breaches: list[str]) -> Page:
    """The journey's tab; after each step, no dialog was opened by anything on the page and
    nothing on it broke the content policy."""
    yield tab
    assert dialogs == []
    assert breaches == []


def save_round(page: Page) -> None:
    press(save_button(page))


def test_sign_up_signs_in_and_opens_the_play_page(app_server, page, screenshot):
    """Creating an account signs the person in with it: the Play page opens and the
    session cookie is set, as after signing in."""
    page.goto(app_server.url)
    expect_title(page, "Dutch Scorer")
    take_picture(page, screenshot, "sign-in")

    page.get_by_role("tab", name="Create an account").click()
    fill(page, "signup_name", "Ann")
    fill(page, "signup_email", EMAIL)
    fill(page, "signup_password", PASSWORD)
    press(page.get_by_role("button", name="Create account"))

    expect_title(page, "Play")  # signed in at once, no second form
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text("Signed in as")).to_be_visible()
    expect(sidebar.get_by_text("Ann", exact=True)).to_be_visible()
    expect(page.get_by_text("You are not in a group yet.")).to_be_visible()
    wait_for_session_cookie(page, present=True)


def test_a_group_is_created_and_filled_on_the_group_page(page, screenshot):
    """The new group becomes the active one with Ann, who made it, as its first player;
    players added there are listed."""
    open_page(page, "Group")
    fill(page, "group_create_name", "Friday cards")
    press(page.get_by_role("button", name="Create the group"))
    said = page.get_by_test_id("stAlertContentSuccess").get_by_text("You created Friday cards")
    expect(said).to_be_visible()
    expect(page.get_by_test_id("stSidebar").get_by_text("Friday cards")).to_be_visible()
    expect(page.get_by_role("button", name="Set up the first game")).to_be_visible()
    expect(data_frame(page, "Player", "Linked to")).to_contain_text("Ann")

    for name in ["Ben", XSS_NAME]:
        fill(page, "group_add_player_name", name)
        press(page.get_by_role("button", name="Add the player"))
        expect(page.get_by_text(f"{name} was added to the players.")).to_be_visible()
    expect_clean_page(page)
    expect_literal_name(page)
    take_picture(page, screenshot, "group")


def test_a_game_is_set_up_on_the_play_page(page):
    """Players picked from the group plus one typed in start a game with everyone at 0."""
    open_page(page, "Play")
    chosen = widget(page, "play_setup_players").locator("[data-tag]")
    expect(chosen).to_have_text(["Ann"])  # the group's one member is chosen already
    for name in ["Ben", XSS_NAME]:
        press(widget(page, "play_setup_players").locator("input"))
        page.get_by_role("option", name=name, exact=True).click()
    fill(page, "play_setup_new_players", "Cleo")
    press(widget(page, "play_setup_start").get_by_role("button"))

    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect_standings(page, [(1, name, 0) for name in SEATS])
    expect_clean_page(page)
    expect_literal_name(page)


def test_rounds_are_scored_and_a_beaten_dutch_asks_for_penalty_cards(page, screenshot):
    """Round 2's caller is beaten: before anything is saved the entry says how many cards
    are owed and asks for them; one Save stores the round. After round 3 (a tied Auto
    Dutch) the standings add up."""
    fill_round(page, "play_round", ["AH 2C", "10", "25", "7"], "Ann")
    save_round(page)
    expect_standings(page, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 10), (4, XSS_NAME, 25)])

    fill_round(page, "play_round", ["12", "4", "30", "12"], "Ann")
    penalty = widget(page, "play_round_penalty")
    expect(penalty.get_by_text("Ann draws 3 penalty cards: enter them")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_standings(page, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 10), (4, XSS_NAME, 25)])

    fill(page, "play_round_penalty", "QC 3D KS")
    save_round(page)
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    expect_standings(page, [(1, "Ben", 14), (2, "Cleo", 19), (3, "Ann", 43), (4, XSS_NAME, 55)])

    fill_round(page, "play_round", ["KH KD", "", "2", "6"], "Ben", how="Auto Dutch (no cards left)")
    penalty = widget(page, "play_round_penalty")
    expect(penalty.get_by_text("Ben draws 1 penalty card: enter them")).to_be_visible()
    fill(page, "play_round_penalty", "7H")
    save_round(page)

    expect(page.get_by_role("heading", name="Round 4")).to_be_visible()
    expect_standings(page, [(1, "Ben", 21), (2, "Cleo", 25), (3, "Ann", 43), (4, XSS_NAME, 57)])
    expect_clean_page(page)
    expect_literal_name(page)
    take_picture(page, screenshot, "play")


def test_a_reload_keeps_the_person_signed_in(page):
    """After a browser reload the session cookie signs Ann back in, on the same game."""
    page.reload()
    expect_title(page, "Play")
    expect(page.get_by_test_id("stSidebar").get_by_text("Ann", exact=True)).to_be_visible()
    expect(page.get_by_role("tab", name="Create an account")).to_have_count(0)
    expect_standings(page, [(1, "Ben", 21), (2, "Cleo", 25), (3, "Ann", 43), (4, XSS_NAME, 57)])


def test_picking_a_round_on_history_loads_it_into_the_correction_form(page):
    """Round 3 is shown first; picking round 1 fills the form with round 1's hands and call."""
    open_page(page, "History")
    expect_literal_name(page)
    expect(field(page, "history_edit_hand_2")).to_have_value("2")

    choose(page, "history_round", "Round 1")
    expect(page.get_by_role("button", name="Delete round 1")).to_be_visible()
    expect_clean_page(page)

    shown = [field(page, f"history_edit_hand_{seat}").input_value() for seat in range(4)]
    assert shown == ["AH 2C", "10", "25", "7"]
    assert is_chosen(choice_button(page, "history_edit_caller", "Ann"))


def test_correcting_a_round_on_history_changes_the_totals(page, screenshot):
    """A lower hand for one player in round 1 moves them up the standings, on the History
    page and on the Play page alike."""
    open_page(page, "History")
    choose(page, "history_round", "Round 1")
    fill_round(page, "history_edit", ["AH 2C", "10", "5", "7"], "Ann")
    press(save_button(page, "history_edit"))

    expect(page.get_by_text(f"Round 1 corrected: {XSS_NAME} 25 → 5.")).to_be_visible()
    corrected = [(1, "Ben", 21), (2, "Cleo", 25), (3, XSS_NAME, 37), (4, "Ann", 43)]
    expect_standings(page, corrected)
    expect_clean_page(page)
    take_picture(page, screenshot, "history")

    open_page(page, "Play")
    expect_standings(page, corrected)


def test_signing_out_ends_the_session_for_good(app_server, page):
    """Sign out shows the sign-in page and clears the cookie; a reload stays signed out, and
    even the old cookie put back no longer signs anyone in."""
    old_cookie = session_cookie(page)
    assert old_cookie

    press(page.get_by_test_id("stSidebar").get_by_role("button", name="Sign out"))
    expect_title(page, "Dutch Scorer")
    wait_for_session_cookie(page, present=False)

    page.reload()
    expect_title(page, "Dutch Scorer")
    expect(page.get_by_test_id("stSidebar").get_by_text("Signed in as")).to_have_count(0)

    page.context.add_cookies([{"name": SESSION_COOKIE, "value": old_cookie, "url": app_server.url}])
    page.reload()
    expect_title(page, "Dutch Scorer")
    expect(page.get_by_role("tab", name="Sign in")).to_be_visible()
    expect(page.get_by_test_id("stSidebar").get_by_text("Signed in as")).to_have_count(0)
