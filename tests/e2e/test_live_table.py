"""Two phones at one table on one real server: the game stays live and no round is lost,
doubled or taken back by mistake.

Ann's phone and Finn's phone (390×844, touch) both have the Play page of one game open.
Some tests need Finn's phone to be behind, as a phone is when its screen was locked or its
network slow: :class:`LiveSwitch` holds back the page's own live reruns (the reruns of its live
fragment, which the live component asks for) until it is let go, without touching anything
the person does.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, Route, expect
from streamlit.proto.BackMsg_pb2 import BackMsg

from dutch_app.services import games, groups, rounds
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from tests.conftest import PHONE_VIEWPORT
from tests.e2e.streamlit_ui import (
    PASSWORD,
    StreamTap,
    expect_clean_page,
    expect_standings,
    expect_title,
    field,
    fill,
    fill_round,
    press,
    save_button,
    take_picture,
    tap_choice,
    wait_until_idle,
    widget,
)
from tests.views import get_group

# A test whose promise is a deadline is marked so: it runs on a machine no other browser
# test shares. The others here run with the rest of the browser tests.

NAMES = ("Ann", "Ben", "Cleo")
LIVE_PROMISE_MS = 3_000  # a change shows on every open Play page within 3 s
LIVE = "/_dutch/live?"  # the route open pages wait on


class LiveSwitch(StreamTap):
    """Sits in a page's websocket and, while ``held``, drops the reruns of its live fragment,
    whether the live component or a timer asks (the entry's own fragment reruns, typing and
    Save, go through).

    It counts the reruns the page asks for: ``timed`` (a fragment's timer) and ``fragment``
    (any rerun of the live fragment), held back or not.
    """

    def __init__(self, page: Page) -> None:
        self.held = False
        self.dropped = 0
        self.timed = 0
        self.fragment = 0
        super().__init__(page)

    def page_sent(self, message: str | bytes) -> bool:
        if isinstance(message, bytes):
            rerun = BackMsg.FromString(message).rerun_script
            if rerun.is_auto_rerun or _asked_by_live_component(rerun):
                self.timed += rerun.is_auto_rerun
                self.fragment += 1
                if self.held:
                    self.dropped += 1
                    return False
        return True


def _asked_by_live_component(rerun) -> bool:
    """Whether a rerun is the live component's alone: it fires its trigger (``live_follow``)
    and no other. Streamlit sends the triggers fired in one turn of the page's event loop
    in one message, so the live component's can come with the entry's (an answer of the
    round route and one of the live route arriving together); that message is the
    entry's too, and goes through."""
    triggers = [
        state.id
        for state in rerun.widget_states.widgets
        if (state.WhichOneof("value") or "").endswith("trigger_value")
    ]
    return bool(rerun.fragment_id) and bool(triggers) and all("live_follow" in t for t in triggers)


def phone(page_factory) -> Page:
    return page_factory(*PHONE_VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2)


@pytest.fixture
def table_of_two(app_server, make_table, page_factory):
    """Ann's group with a game of Ann, Ben and Cleo; Finn joined; both phones on Play."""
    stamp = f"{time.monotonic_ns()}"
    ann = make_table("Ann", f"ann{stamp}@example.com", "Card night", list(NAMES))
    finn = ann.accounts.sign_up(f"finn{stamp}@example.com", PASSWORD, "Finn")
    invite = ann.call(get_group, ann.group_id).invite_code
    with ann.sessions() as session:
        perform(session, groups.join_group, finn.user_id, invite)
    seats = [ann.player_ids[name] for name in NAMES]
    game = ann.call(games.start_game, ann.group_id, seats, PRESETS["classic"])
    pages = []
    for user_id in (ann.account.user_id, finn.user_id):
        page = phone(page_factory)
        token = ann.accounts.issue_token(user_id)
        page.context.add_cookies([{"name": "dutch_session", "value": token, "url": app_server.url}])
        pages.append(page)
    switch = LiveSwitch(pages[1])
    for page in pages:  # both phones load at once, as at a table
        page.goto(app_server.url, wait_until="commit")
    for page in pages:
        expect_title(page, "Play")
        expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    return ann, game.id, pages[0], pages[1], switch


def save_on(page: Page) -> None:
    press(save_button(page))


def stored_rounds(ann, game_id: int):
    return ann.call(games.get_game, game_id).rounds


@pytest.mark.deadline
def test_phone_b_sees_a_round_saved_on_phone_a_within_three_seconds(table_of_two):
    _, _, phone_a, phone_b, _ = table_of_two
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    # Nothing is done on phone B: it shows the new round by itself.
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    expect_standings(phone_b, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 9)])
    expect(phone_b.get_by_text("Ben deals.")).to_be_visible()
    expect(phone_b.get_by_role("button", name="Undo round 1 (saved by Ann)")).to_be_visible()
    expect_clean_page(phone_b)


def test_a_stale_form_on_phone_b_cannot_save_the_same_round_again(table_of_two):
    ann, game_id, phone_a, phone_b, switch = table_of_two
    switch.held = True  # phone B falls behind
    fill_round(phone_b, "play_round", ["3", "9", "7"], "Ann")
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    expect(phone_b.get_by_role("heading", name="Round 1")).to_be_visible()  # still behind
    save_on(phone_b)
    # Said next to Save, where the tap was, with the choices it leaves.
    notice = widget(phone_b, "play_round_notice")
    expect(notice).to_have_text(re.compile(r"^Ann just saved round 1\. Save yours as round 2\?"))
    expect(notice).to_be_in_viewport()
    assert len(stored_rounds(ann, game_id)) == 1
    # What Finn typed is still there, and the page now shows the game as it is.
    expect(field(phone_b, "play_round_hand_1")).to_have_value("9")
    expect_standings(phone_b, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 9)])
    press(phone_b.get_by_role("button", name="Discard it"))
    expect(field(phone_b, "play_round_hand_1")).to_have_value("")
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible()
    assert len(stored_rounds(ann, game_id)) == 1
    expect_clean_page(phone_b)


@pytest.mark.deadline
def test_a_round_typed_on_phone_b_survives_a_live_update_and_can_be_saved_as_the_next(
    table_of_two,
):
    ann, game_id, phone_a, phone_b, _ = table_of_two
    fill(phone_b, "play_round_hand_0", "KH 2")
    fill(phone_b, "play_round_hand_1", "4")
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    notice = phone_b.get_by_text("Ann just saved round 1. Save yours as round 2?")
    expect(notice).to_be_visible(timeout=LIVE_PROMISE_MS)
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible()
    wait_until_idle(phone_b)
    expect(field(phone_b, "play_round_hand_0")).to_have_value("KH 2")
    expect(field(phone_b, "play_round_hand_1")).to_have_value("4")
    fill(phone_b, "play_round_hand_2", "8")
    tap_choice(phone_b, "play_round_caller", "Ann")  # chosen for every round, never kept
    tap_choice(phone_b, "play_round_call_type", "Dutch")
    press(phone_b.get_by_role("button", name="Save it as round 2"))  # one tap
    expect(phone_b.get_by_text("Round 2 saved.")).to_be_visible()
    expect(notice).to_have_count(0)
    stored = stored_rounds(ann, game_id)
    assert [r.number for r in stored] == [1, 2]
    assert [h.hand_total for h in stored[1].hands] == [2, 4, 8]
    expect(phone_a.get_by_role("heading", name="Round 3")).to_be_visible(timeout=LIVE_PROMISE_MS)


@pytest.mark.deadline
def test_saving_into_a_game_ended_on_phone_a_says_so_and_loses_nothing(table_of_two):
    ann, game_id, phone_a, phone_b, switch = table_of_two
    ann.call(  # one round played, so the game has a winner
        rounds.add_round,
        game_id,
        {ann.player_ids["Ann"]: "3", ann.player_ids["Ben"]: "9", ann.player_ids["Cleo"]: "7"},
        ann.player_ids["Ann"],
        "dutch",
        for_round=1,
    )
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    switch.held = True
    fill_round(phone_b, "play_round", ["1", "2", "6"], "Ann")
    expect(phone_a.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    press(phone_a.get_by_role("button", name="End this game now"))
    press(phone_a.get_by_role("button", name="End the game", exact=True))
    expect(phone_a.get_by_text("Ann wins with 3 points!")).to_be_visible()
    save_on(phone_b)
    expect(phone_b.get_by_text("This game has ended: Ann won with 3 points.")).to_be_visible()
    expect(field(phone_b, "play_round_hand_1")).to_have_value("2")
    assert len(stored_rounds(ann, game_id)) == 1
    press(phone_b.get_by_role("button", name="Reopen the game and save this round"))
    expect(phone_b.get_by_text("Round 2 saved.")).to_be_visible()
    game = ann.call(games.get_game, game_id)
    assert (game.status, [r.number for r in game.rounds]) == ("active", [1, 2])
    assert [h.hand_total for h in game.rounds[1].hands] == [1, 2, 6]
    expect_clean_page(phone_b)


@pytest.mark.deadline
def test_a_game_ended_on_phone_a_leaves_what_phone_b_typed_in_place(table_of_two):
    _, _, phone_a, phone_b, _ = table_of_two
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    fill(phone_b, "play_round_hand_0", "QH")
    press(phone_a.get_by_role("button", name="End this game now"))
    press(phone_a.get_by_role("button", name="End the game", exact=True))
    expect(phone_a.get_by_text("Ann wins with 3 points!")).to_be_visible()
    ended = phone_b.get_by_text("The game was just ended on another phone.")
    expect(ended).to_be_visible(timeout=LIVE_PROMISE_MS)
    wait_until_idle(phone_b)
    expect(field(phone_b, "play_round_hand_0")).to_have_value("QH")
    press(phone_b.get_by_role("button", name="Show the final result"))
    expect(phone_b.get_by_text("Ann wins with 3 points!")).to_be_visible()
    expect_clean_page(phone_b)


@pytest.mark.deadline
def test_undo_on_a_stale_page_does_not_take_back_the_wrong_round(table_of_two):
    ann, game_id, phone_a, phone_b, switch = table_of_two
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    # The promise is that the change shows within 3 s; the Undo button further down the
    # page comes later in the same run.
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    undo_first = phone_b.get_by_role("button", name="Undo round 1 (saved by Ann)")
    expect(undo_first).to_be_visible()
    switch.held = True
    wait_until_idle(phone_a)
    fill_round(phone_a, "play_round", ["1", "8", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 2 saved.")).to_be_visible()
    assert len(stored_rounds(ann, game_id)) == 2
    press(undo_first)  # phone B still offers round 1, which is no longer the latest
    expect(phone_b.get_by_text("Round 1 is no longer the latest round")).to_be_visible()
    assert [r.number for r in stored_rounds(ann, game_id)] == [1, 2]
    undo_second = phone_b.get_by_role("button", name="Undo round 2 (saved by Ann)")
    expect(undo_second).to_be_visible()
    press(undo_second)
    expect(phone_b.get_by_text("Round 2 was taken back.")).to_be_visible()
    assert [r.number for r in stored_rounds(ann, game_id)] == [1]
    switch.held = False
    expect(phone_a.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    expect_clean_page(phone_b)


@pytest.mark.deadline
def test_the_table_view_follows_the_game_in_large_type(table_of_two, screenshot):
    _, _, phone_a, phone_b, _ = table_of_two
    press(phone_b.get_by_test_id("stMain").get_by_role("link", name="Table view"))
    expect_title(phone_b, "Table view")
    expect(phone_b.get_by_text("Round 1", exact=True)).to_be_visible()
    expect(phone_b.get_by_text("🃏 Ann deals")).to_be_visible()
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    expect(phone_b.get_by_text("🃏 Ben deals")).to_be_visible(timeout=LIVE_PROMISE_MS)
    standings = phone_b.get_by_role("table", name="Standings")
    expect(standings.locator("tr")).to_have_text(["1Ann3", "2Cleo7", "3Ben9"])
    expect(phone_b.get_by_text("Last round (1): Ann called Dutch and was lowest.")).to_be_visible()
    size = standings.evaluate("table => parseFloat(getComputedStyle(table).fontSize)")
    assert size >= 28  # readable from across the table
    expect(widget(phone_b, "play_round_save")).to_have_count(0)  # no entry on the table view
    expect_clean_page(phone_b)
    take_picture(phone_b, screenshot, "table-view", hide_toasts=True)


def test_a_double_tap_on_save_stores_one_round(table_of_two):
    ann, game_id, phone_a, _, _ = table_of_two
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    wait_until_idle(phone_a)
    save = save_button(phone_a)
    save.evaluate("button => { button.click(); button.click(); }")
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    expect(phone_a.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_clean_page(phone_a)
    expect(phone_a.get_by_test_id("stAlertContentError")).to_have_count(0)
    expect(phone_a.get_by_text("already saved")).to_have_count(0)
    assert len(stored_rounds(ann, game_id)) == 1


@pytest.mark.deadline
def test_an_idle_phone_reruns_nothing_until_the_game_moves(table_of_two):
    """Phone B waits on the server's live route: while nothing happens its page runs no
    script at all; phone A's round reruns B's live fragment once."""
    ann, game_id, phone_a, phone_b, switch = table_of_two
    waits = []
    phone_b.on("request", lambda request: waits.append(request.url) if LIVE in request.url else 0)
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_a.get_by_text("Round 1 saved.")).to_be_visible()
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    wait_until_idle(phone_b)
    assert (switch.timed, switch.fragment) == (0, 1)
    # The page waits again, from the version it now shows, and on nothing else: no wait
    # from before lingers to ask for the same rerun again.
    since = f"since={ann.call(games.game_version, game_id)}"
    expect_waiting_since(phone_b, waits, since)
    first = next(number for number, url in enumerate(waits) if since in url)
    phone_b.wait_for_timeout(2_500)  # longer than the component waits before asking again
    assert all(since in url for url in waits[first:]), waits
    assert (switch.timed, switch.fragment) == (0, 1)


def expect_waiting_since(page: Page, waits: list[str], since: str) -> None:
    deadline = time.monotonic() + LIVE_PROMISE_MS / 1000
    while not any(since in url for url in waits):
        assert time.monotonic() < deadline, waits
        page.wait_for_timeout(50)


@pytest.mark.deadline
def test_a_phone_that_cannot_reach_the_live_route_asks_by_itself(table_of_two):
    """When the live route cannot be reached (here the phone's requests to it fail), the
    page falls back to asking every 1.5 s, and still shows every change within 3 s."""
    ann, game_id, _, phone_b, switch = table_of_two
    failed = []

    def unreachable(route: Route) -> None:
        failed.append(route.request.url)
        route.abort("connectionrefused")

    phone_b.route(re.compile(re.escape(LIVE)), unreachable)
    phone_b.reload()  # the page starts over, and its component cannot get through
    expect(phone_b.get_by_role("heading", name="Round 1")).to_be_visible()
    deadline = time.monotonic() + 30
    while switch.timed == 0:  # it gave up on the route and asks by itself
        assert time.monotonic() < deadline, failed
        phone_b.wait_for_timeout(100)
    assert len(failed) >= 3
    for number in (1, 2):
        ann.call(
            rounds.add_round,
            game_id,
            {ann.player_ids["Ann"]: "3", ann.player_ids["Ben"]: "9", ann.player_ids["Cleo"]: "7"},
            ann.player_ids["Ann"],
            "dutch",
            for_round=number,
        )
        heading = phone_b.get_by_role("heading", name=f"Round {number + 1}")
        expect(heading).to_be_visible(timeout=LIVE_PROMISE_MS)
    expect_clean_page(phone_b)


@pytest.mark.deadline
def test_a_form_one_round_behind_saved_with_problems_lists_them_without_an_error(table_of_two):
    """Phone B's form is one round behind (Ann saved round 2 while Finn typed it) and what
    Finn saves is incomplete: the problems are listed, and nothing else happens. (This
    once crashed the page into an error id: the page looked up who saved round 2 among
    the rounds it had read, which after a save tapped on the form was only the latest.)"""
    ann, game_id, phone_a, phone_b, _ = table_of_two
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    expect(phone_b.get_by_role("heading", name="Round 2")).to_be_visible(timeout=LIVE_PROMISE_MS)
    fill(phone_b, "play_round_hand_0", "5")
    wait_until_idle(phone_a)
    fill_round(phone_a, "play_round", ["3", "9", "7"], "Ann")
    save_on(phone_a)
    choice = phone_b.get_by_role("button", name="Save it as round 3")
    expect(choice).to_be_visible(timeout=LIVE_PROMISE_MS)
    expect(phone_b.get_by_text("Ann just saved round 2. Save yours as round 3?")).to_be_visible()
    press(choice)
    summary = phone_b.locator(".dutch-entry-summary")
    expect(summary).to_contain_text("The round was not saved.")
    expect(summary).to_contain_text("Ben: no hand entered")
    expect(field(phone_b, "play_round_hand_0")).to_have_value("5")
    assert len(stored_rounds(ann, game_id)) == 2
    fill(phone_b, "play_round_hand_1", "8")
    fill(phone_b, "play_round_hand_2", "9")
    tap_choice(phone_b, "play_round_caller", "Ann")
    tap_choice(phone_b, "play_round_call_type", "Dutch")
    save_on(phone_b)
    expect(phone_b.get_by_text("Round 3 saved.")).to_be_visible()
    assert [r.number for r in stored_rounds(ann, game_id)] == [1, 2, 3]
    expect_clean_page(phone_b)
