"""Save on a phone (390×844, touch) goes through the round route, on a real server.

The round is stored with one request and the next round's form shows at once; the page
then draws the standings. What the route does not store is saved through the page, which
says what is wrong; a route that cannot be reached costs nothing but speed. Each test
checks the database as well as the page: a round stored twice is a bug even when the page
looks right.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from dutch_app.services import games
from tests.e2e.streamlit_ui import (
    expect_clean_page,
    expect_standings,
    field,
    fill,
    fill_round,
    save_button,
    tap_choice,
    wait_until_idle,
    widget,
)

pytestmark = pytest.mark.e2e
NAMES = ("Ann", "Ben", "Cleo")
ROUTE = "**/_dutch/round"


@pytest.fixture
def at_table(phone_at_table):
    """A phone on the Play page of a new game of ``names``: (the table, the game id, page)."""
    return lambda names=NAMES: phone_at_table(names)


def stored(table, game_id):
    return table.call(games.get_game, game_id).rounds


def watch_route(page: Page) -> list[int]:
    """The status of each answer of the round route this page gets."""
    answers: list[int] = []
    page.on(
        "response",
        lambda response: (
            answers.append(response.status) if "/_dutch/round" in response.url else None
        ),
    )
    return answers


def test_save_stores_through_the_route_and_the_next_form_and_standings_follow(at_table):
    table, game_id, page = at_table()
    answers = watch_route(page)
    fill_round(page, "play_round", ["3", "9", "7"], "Ann")
    save_button(page).tap()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(field(page, "play_round_hand_0")).to_have_value("")
    expect(page.get_by_text("Ben deals.")).to_be_visible()
    expect_standings(page, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 9)])
    expect(page.get_by_text("Round 1 saved. Ann called Dutch")).to_be_visible()
    assert answers == [200]
    (saved,) = stored(table, game_id)
    assert [hand.round_score for hand in saved.hands] == [3, 9, 7]


def test_the_next_round_typed_at_once_is_kept_when_the_page_catches_up(at_table):
    """The form is the next round's as soon as the route answers; what is typed into it
    before the page has drawn the standings stays, and is the next round's."""
    table, game_id, page = at_table()
    fill_round(page, "play_round", ["3", "9", "7"], "Ann")
    save_button(page).tap()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    field(page, "play_round_hand_0").fill("12")  # straight away, without waiting for idle
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    wait_until_idle(page)
    expect(field(page, "play_round_hand_0")).to_have_value("12")
    fill(page, "play_round_hand_1", "4")
    fill(page, "play_round_hand_2", "5")
    tap_choice(page, "play_round_caller", "Ben")
    tap_choice(page, "play_round_call_type", "Dutch")
    save_button(page).tap()
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    assert [[h.hand_total for h in r.hands] for r in stored(table, game_id)] == [
        [3, 9, 7],
        [12, 4, 5],
    ]


def test_a_round_with_problems_is_answered_with_each_problem_by_its_field(at_table):
    table, game_id, page = at_table()
    answers = watch_route(page)
    fill(page, "play_round_hand_0", "3")
    fill(page, "play_round_hand_1", "K")  # a King needs its colour
    fill(page, "play_round_hand_2", "7")
    tap_choice(page, "play_round_caller", "Ann")
    tap_choice(page, "play_round_call_type", "Dutch")
    save_button(page).tap()
    summary = page.locator(".dutch-entry-summary")
    expect(summary).to_contain_text("The round was not saved.")
    expect(summary).to_contain_text("Ben: 'K' needs a colour")
    expect(widget(page, "play_round_hand_1").locator(".dutch-entry-error")).to_be_visible()
    assert answers == [200]  # answered "not stored": nothing was written
    assert stored(table, game_id) == ()
    fill(page, "play_round_hand_1", "KS")
    save_button(page).tap()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    assert len(stored(table, game_id)) == 1


def test_without_a_connection_the_round_is_kept_and_sent_once_it_is_back(at_table):
    table, game_id, page = at_table()
    refused: list[str] = []

    def away(route: Route) -> None:
        refused.append(route.request.method)
        route.abort()

    page.route(ROUTE, away)
    fill_round(page, "play_round", ["3", "9", "7"], "Ann")
    save_button(page).tap()
    notice = widget(page, "play_round_notice")
    expect(notice).to_have_text(re.compile(r"^No connection: round 1 is kept on this phone"))
    expect(notice).to_be_in_viewport()
    expect(field(page, "play_round_hand_1")).to_have_value("9")
    assert refused[:1] == ["POST"] and stored(table, game_id) == ()
    # The page runs again (a switch beside the standings): the form still says the same.
    widget(page, "play_keep_awake").get_by_text("Keep the screen on").click()
    wait_until_idle(page)
    expect(notice).to_have_text(re.compile(r"^No connection: round 1 is kept on this phone"))
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    page.unroute(ROUTE)  # the connection is back: the phone sends the round by itself
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible(timeout=40_000)
    expect_standings(page, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 9)])
    assert len(stored(table, game_id)) == 1
    expect_clean_page(page)


def test_a_double_tap_on_save_stores_the_round_once(at_table):
    table, game_id, page = at_table()
    fill_round(page, "play_round", ["3", "9", "7"], "Ann")
    save_button(page).dblclick()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    wait_until_idle(page)
    expect(page.locator(".dutch-entry-summary")).to_be_hidden()
    assert len(stored(table, game_id)) == 1


def test_names_with_dollar_signs_and_markup_show_as_typed(at_table):
    names = ("Jo$&", "<b>Bo</b>", "$$1$")
    table, game_id, page = at_table(names)
    expect(page.get_by_text("Jo$& deals.", exact=True)).to_be_visible()
    expect(widget(page, "play_round_hand_1").get_by_text("<b>Bo</b>", exact=True)).to_be_visible()
    fill_round(page, "play_round", ["3", "9", "7"], "Jo$&")
    save_button(page).tap()
    expect(page.get_by_text("<b>Bo</b> deals.", exact=True)).to_be_visible()
    fill_round(page, "play_round", ["9", "7", "3"], "$$1$")
    save_button(page).tap()
    expect(page.get_by_text("$$1$ deals.", exact=True)).to_be_visible()
    assert len(stored(table, game_id)) == 2
