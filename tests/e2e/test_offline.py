"""No network, nothing lost: rounds saved on a phone that is offline are kept on it and
sent, once each and in order, when the connection is back.

Two phones (390×844, touch) on one game against one real server; Chromium's own offline
switch (``context.set_offline``) takes a phone off the network. What is checked is what a
person sees on each phone, and what the database holds.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.streamlit_ui import (
    UNEXPECTED_ERROR,
    expect_clean_page,
    field,
    fill,
    fill_round,
    press,
    save_button,
    widget,
)
from tests.e2e.test_live_table import LIVE_PROMISE_MS, stored_rounds
from tests.e2e.test_live_table import table_of_two as table_of_two  # the two phones
from tests.views import get_group

# A test whose promise is a deadline (kept, sent, shown within so long) is marked so: it
# runs on a machine no other browser test shares.

KEPT_WITHIN_MS = 2_000  # the phone says the round is kept within 2 s of the tap
SENT_WITHIN_MS = 10_000  # and sends it within 10 s of the connection coming back


def notice(page: Page):
    return widget(page, "play_round_notice")


def save_offline(page: Page, number: int, hands: list[str]) -> None:
    """Round ``number`` typed and saved while the phone is offline: kept, and said so."""
    expect(page.get_by_role("heading", name=f"Round {number}", exact=True)).to_be_visible()
    fill_round(page, "play_round", hands, "Ann")
    save_button(page).tap()
    expect(notice(page)).to_contain_text(
        f"No connection: round {number} is kept on this phone", timeout=KEPT_WITHIN_MS
    )


def expect_no_error(*pages: Page) -> None:
    for page in pages:
        expect(page.get_by_text(UNEXPECTED_ERROR)).to_have_count(0)
        expect(page.get_by_test_id("stException")).to_have_count(0)


@pytest.mark.deadline
def test_a_round_saved_offline_is_sent_once_when_the_connection_is_back(table_of_two):
    ann, game_id, phone_a, phone_b, _ = table_of_two
    phone_a.context.set_offline(True)
    save_offline(phone_a, 1, ["3", "9", "7"])
    expect(field(phone_a, "play_round_hand_1")).to_have_value("9")  # still on the form
    expect(widget(phone_a, "play_round_outbox")).to_contain_text("Offline")
    phone_a.wait_for_timeout(1_000)  # a second offline: still nothing may be stored
    assert stored_rounds(ann, game_id) == ()
    phone_a.context.set_offline(False)
    expect(notice(phone_a)).to_contain_text("Round 1 saved.", timeout=SENT_WITHIN_MS)
    expect(phone_a.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    heading = phone_b.get_by_role("heading", name="Round 2", exact=True)
    expect(heading).to_be_visible(timeout=LIVE_PROMISE_MS)  # without a touch
    assert [[h.hand_total for h in r.hands] for r in stored_rounds(ann, game_id)] == [[3, 9, 7]]
    expect_no_error(phone_a, phone_b)
    expect_clean_page(phone_a)


@pytest.mark.deadline
def test_three_rounds_saved_offline_are_stored_in_order_once_each(table_of_two):
    ann, game_id, phone_a, phone_b, _ = table_of_two
    phone_a.context.set_offline(True)
    rounds = [["3", "9", "7"], ["2", "8", "6"], ["1", "5", "4"]]
    for number, hands in enumerate(rounds, start=1):
        save_offline(phone_a, number, hands)
        if number < len(rounds):
            press(phone_a.get_by_role("button", name=f"Enter round {number + 1}"))
    outbox = widget(phone_a, "play_round_outbox")
    expect(outbox).to_contain_text("3 rounds are kept on this phone")
    assert stored_rounds(ann, game_id) == ()
    phone_a.context.set_offline(False)
    expect(notice(phone_a)).to_contain_text("Round 3 saved.", timeout=SENT_WITHIN_MS)
    stored = stored_rounds(ann, game_id)
    assert [r.number for r in stored] == [1, 2, 3]
    assert [[h.hand_total for h in r.hands] for r in stored] == [
        [int(hand) for hand in hands] for hands in rounds
    ]
    heading = phone_b.get_by_role("heading", name="Round 4", exact=True)
    expect(heading).to_be_visible(timeout=LIVE_PROMISE_MS)
    expect(outbox).not_to_contain_text("kept on this phone")
    expect_no_error(phone_a, phone_b)


@pytest.mark.deadline
def test_a_round_saved_offline_that_another_phone_saved_too_is_offered_as_the_next(
    table_of_two,
):
    ann, game_id, phone_a, phone_b, _ = table_of_two
    phone_a.context.set_offline(True)
    save_offline(phone_a, 1, ["3", "9", "7"])
    fill_round(phone_b, "play_round", ["4", "6", "8"], "Ann")  # Finn saves round 1 meanwhile
    press(save_button(phone_b))
    expect(notice(phone_b)).to_contain_text("Round 1 saved.")
    phone_a.context.set_offline(False)
    question = re.compile(r"Finn just saved round 1\. Save yours as round 2\?")
    expect(notice(phone_a)).to_have_text(question, timeout=SENT_WITHIN_MS)
    assert len(stored_rounds(ann, game_id)) == 1  # not stored twice, not dropped
    press(phone_a.get_by_role("button", name="Save it as round 2"))
    expect(notice(phone_a)).to_contain_text("Round 2 saved.")
    stored = stored_rounds(ann, game_id)
    assert [[h.hand_total for h in r.hands] for r in stored] == [[4, 6, 8], [3, 9, 7]]
    expect_no_error(phone_a, phone_b)


@pytest.mark.deadline
def test_a_round_kept_on_the_phone_survives_a_closed_tab_and_is_sent_once(table_of_two):
    ann, game_id, phone_a, phone_b, _ = table_of_two
    url, context = phone_a.url, phone_a.context
    context.set_offline(True)
    save_offline(phone_a, 1, ["3", "9", "7"])
    phone_a.close()  # the tab is closed with the round still on the phone
    assert stored_rounds(ann, game_id) == ()
    context.set_offline(False)
    again = context.new_page()
    again.goto(url)
    expect(widget(again, "play_round_outbox")).to_contain_text(
        "Round 1 sent.", timeout=SENT_WITHIN_MS
    )
    expect(again.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    expect(phone_b.get_by_role("heading", name="Round 2", exact=True)).to_be_visible(
        timeout=LIVE_PROMISE_MS
    )
    again.reload()  # sent once: nothing is kept any more, nothing goes again
    expect(again.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    expect_clean_page(again)
    assert len(stored_rounds(ann, game_id)) == 1
    expect_no_error(again, phone_b)


@pytest.mark.deadline
def test_a_round_kept_on_the_phone_survives_a_reload_and_is_sent_once(table_of_two):
    """The server cannot be reached for saving (here the phone's requests to the round
    route fail), the page is reloaded, and the round is sent once the route answers."""
    ann, game_id, phone_a, _, _ = table_of_two
    route = "**/_dutch/round"
    phone_a.route(route, lambda request: request.abort())
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_button(phone_a).tap()
    expect(notice(phone_a)).to_contain_text(
        "No connection: round 1 is kept on this phone", timeout=KEPT_WITHIN_MS
    )
    phone_a.reload()
    expect(widget(phone_a, "play_round_outbox")).to_contain_text("1 round is kept on this phone")
    assert stored_rounds(ann, game_id) == ()
    phone_a.unroute(route)
    expect(widget(phone_a, "play_round_outbox")).to_contain_text(
        "Round 1 sent.",
        timeout=40_000,  # the next try, at most 30 s after the last
    )
    assert len(stored_rounds(ann, game_id)) == 1
    expect_no_error(phone_a)


@pytest.mark.deadline
def test_a_round_kept_for_one_account_is_never_sent_by_another(table_of_two, app_server):
    """Ann's round kept on her phone; Finn signs in on that phone: the round is not his to
    send, and waits for Ann."""
    ann, game_id, phone_a, _, _ = table_of_two
    phone_a.context.set_offline(True)
    save_offline(phone_a, 1, ["3", "9", "7"])
    members = ann.call(get_group, ann.group_id).members
    finn = next(member.user_id for member in members if member.display_name == "Finn")

    def sign_in_as(user_id: int) -> None:
        phone_a.context.clear_cookies()
        token = ann.accounts.issue_token(user_id)
        cookie = {"name": "dutch_session", "value": token, "url": app_server.url}
        phone_a.context.add_cookies([cookie])

    sign_in_as(finn)  # on this phone, while it is still offline and Ann's page is open
    phone_a.context.set_offline(False)  # Ann's page tries to send her round: not as Finn
    phone_a.goto(app_server.url)
    expect(phone_a.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    expect_clean_page(phone_a)
    phone_a.wait_for_timeout(2_500)  # longer than the outbox waits before its first retry
    assert stored_rounds(ann, game_id) == ()
    expect(widget(phone_a, "play_round_outbox")).not_to_contain_text("kept on this phone")
    sign_in_as(ann.account.user_id)
    phone_a.goto(app_server.url)
    expect(widget(phone_a, "play_round_outbox")).to_contain_text(
        "Round 1 sent.", timeout=SENT_WITHIN_MS
    )
    (stored,) = stored_rounds(ann, game_id)
    assert stored.entered_by == ann.account.user_id


def test_the_table_view_says_when_it_is_offline(table_of_two):
    """The table view lies in the middle of the table: without a network it says so, so
    nobody takes a still screen for the latest standings."""
    _, _, _, phone_b, _ = table_of_two
    press(phone_b.get_by_test_id("stMain").get_by_role("link", name="Table view"))
    expect(phone_b.get_by_role("heading", name="Table view")).to_be_visible()
    badge = phone_b.locator(".dutch-offline-badge")
    expect(badge).to_be_hidden()
    phone_b.context.set_offline(True)
    expect(badge).to_have_text("Offline")
    expect(badge).to_be_visible()
    phone_b.context.set_offline(False)
    expect(badge).to_be_hidden()


@pytest.mark.deadline
def test_a_kept_round_with_a_problem_comes_back_to_its_field_to_be_fixed(table_of_two):
    """A round kept offline is checked like any other when it is sent: a problem is shown
    against its field, and the round waits until it is fixed."""
    ann, game_id, phone_a, _, _ = table_of_two
    phone_a.context.set_offline(True)
    save_offline(phone_a, 1, ["3", "K", "7"])  # a King without its colour
    press(phone_a.get_by_role("button", name="Enter round 2"))
    phone_a.context.set_offline(False)
    outbox = widget(phone_a, "play_round_outbox")
    expect(outbox).to_contain_text(
        "Round 1, kept on this phone, was not saved: Ben: 'K' needs a colour",
        timeout=SENT_WITHIN_MS,
    )
    assert stored_rounds(ann, game_id) == ()
    press(outbox.get_by_role("button", name="Fix it"))
    expect(phone_a.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    error = widget(phone_a, "play_round_hand_1").locator(".dutch-entry-error")
    expect(error).to_contain_text("'K' needs a colour")
    expect(field(phone_a, "play_round_hand_1")).to_have_value("K")
    fill(phone_a, "play_round_hand_1", "KS")
    press(save_button(phone_a))
    expect(notice(phone_a)).to_contain_text("Round 1 saved.")
    assert [[h.hand_total for h in r.hands] for r in stored_rounds(ann, game_id)] == [[3, 13, 7]]
    expect_no_error(phone_a)
