"""Entering a round at the table on a phone (390×844, touch), on a real server.

The round is shown before it is saved, a tied or beaten call takes one Save, nothing is
chosen for the person, the Enter key never saves, problems are listed where the eye is,
the card pad enters a whole round, and a typical round takes the taps and keystrokes the
guide (docs/guide.md) promises.
"""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from playwright.sync_api import Page, Response, expect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from dutch_app.services import games
from dutch_app.web.round_route import round_route_path
from dutch_core import PRESETS, EndCondition, HouseRules
from tests.conftest import PHONE_VIEWPORT
from tests.e2e.streamlit_ui import (
    StreamTap,
    choose,
    download,
    entry_summary,
    expect_clean_page,
    expect_standings,
    expect_title,
    field,
    fill,
    fill_round,
    is_chosen,
    press,
    save_button,
    take_picture,
    tap_choice,
    wait_until_idle,
    widget,
)

pytestmark = pytest.mark.e2e
NAMES = ("Ann", "Ben", "Cleo", "Dan")
TYPICAL_HANDS = ("Q", "4", "5 7", "KS 8 9")  # worked example 3: Ann beaten, 3 penalty cards
TYPICAL_PENALTY = "Q 3 KC"
PAD_TAPS = 17  # the promise of docs/guide.md for the typical round on the card pad
TYPED_TAPS, TYPED_KEYS = 8, 17  # … and typed on the phone's keyboard

COUNTER = """
window.dutchInput = { taps: 0, keys: 0 };
document.addEventListener("touchstart", () => window.dutchInput.taps++, true);
document.addEventListener("keydown", () => window.dutchInput.keys++, true);
"""


@pytest.fixture
def at_table(phone_at_table):
    """A phone on the Play page of a new game of four, counting taps and keystrokes;
    ``at_table(rules)`` returns (the table, the game id, the page)."""
    return lambda rules=PRESETS["classic"]: phone_at_table(
        NAMES, rules, COUNTER, device_scale_factor=2
    )


def stored(table, game_id):
    return table.call(games.get_game, game_id).rounds


def hand_input(page: Page, seat: int):
    return field(page, f"play_round_hand_{seat}")


def in_view(page: Page, locator) -> bool:
    box = locator.bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= page.viewport_size["height"]
    )


def counts(page: Page) -> tuple[int, int]:
    found = page.evaluate("window.dutchInput")
    return found["taps"], found["keys"]


def expect_emptied_form(page: Page) -> None:
    """Wait until the next round's form is what the page shows: one entry (one switch,
    one first field), its first field empty, and the page done with the runs the save
    asked for (the standings)."""
    expect(widget(page, "play_round_pad_on")).to_have_count(1)
    expect(widget(page, "play_round_hand_0").locator("input")).to_have_count(1)
    expect(hand_input(page, 0)).to_have_value("")
    wait_until_idle(page)


def tap(page: Page, locator) -> None:
    """Tap like a thumb, once the page is idle (so the tap acts on what is shown)."""
    wait_until_idle(page)
    locator.tap()


def test_the_preview_says_how_many_penalty_cards_before_one_save_stores_the_round(
    at_table, screenshot
):
    table, game_id, page = at_table()
    fill_round(page, "play_round", TYPICAL_HANDS, "Ann")
    label = widget(page, "play_round_penalty").get_by_text("Ann draws 3 penalty cards: enter them")
    expect(label).to_be_visible()
    preview = widget(page, "play_round_preview")
    expect(preview).to_contain_text("Lowest: Ben (4).")
    expect(preview).to_contain_text(
        "Ann called Dutch and is beaten (1 player lower, 1 player tied)"
    )
    assert stored(table, game_id) == ()
    fill(page, "play_round_penalty", TYPICAL_PENALTY)
    expect(preview).to_contain_text("Ann (called)124040")
    take_picture(page, screenshot, "phone-round-entry", top=widget(page, "play_round_hand_2"))
    press(save_button(page))  # one tap of Save
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    (saved,) = stored(table, game_id)
    assert [hand.round_score for hand in saved.hands] == [40, 4, 12, 30]
    expect_standings(page, [(1, "Ben", 4), (2, "Cleo", 12), (3, "Dan", 30), (4, "Ann", 40)])
    # The next round starts at its first field, in view, with the last round in one line.
    line = widget(page, "play_round_notice")  # said once, next to Save
    expect(line).to_contain_text("Round 1 saved. Ann called Dutch, was beaten")
    expect(page.get_by_role("button", name="Undo round 1 (saved by Ann)")).to_be_visible()
    expect(page.get_by_test_id("stToast")).to_have_count(0)
    expect(hand_input(page, 0)).to_have_value("")
    expect(hand_input(page, 0)).to_be_focused()
    assert in_view(page, hand_input(page, 0))
    assert page.locator("[aria-checked='true']").count() == 0  # nothing chosen for round 2
    expect_clean_page(page)


class RunLog(StreamTap):
    """Sits in a page's websocket and notes each run the page asks for (the fragment it
    names, empty for the whole page) and how each run the server made ended."""

    def __init__(self, page: Page) -> None:
        self.asked: list[str] = []
        self.finished: list[str] = []
        super().__init__(page)

    def page_sent(self, message: str | bytes) -> bool:
        if isinstance(message, bytes):
            back = BackMsg.FromString(message)
            if back.WhichOneof("type") == "rerun_script":
                self.asked.append(back.rerun_script.fragment_id)
        return True

    def server_sent(self, message: str | bytes) -> bool:
        if isinstance(message, bytes):
            forward = ForwardMsg.FromString(message)
            if forward.WhichOneof("type") == "script_finished":
                self.finished.append(ForwardMsg.ScriptFinishedStatus.Name(forward.script_finished))
        return True


def round_route_answers(page: Page) -> list[Response]:
    """Every answer the page gets to a round it sends the round route, from now on."""
    answers: list[Response] = []

    def note(response: Response) -> None:
        if round_route_path() in response.url and response.request.method == "POST":
            answers.append(response)

    page.on("response", note)
    return answers


def test_a_save_reruns_the_game_alone_and_its_standings_follow(at_table):
    """Save stores the round with one request to the round route, and the next round's
    form is there at once; the page then reruns the game's part of it (a fragment), not
    the page around it, for the new standings. The round is stored once."""
    table, game_id, page = at_table()
    log = RunLog(page)
    page.reload()  # on a connection that passes through ``log``
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    fill_round(page, "play_round", ["3", "9", "7", "12"], "Ann")
    wait_until_idle(page)
    answers = round_route_answers(page)
    asked, finished = len(log.asked), len(log.finished)
    tap(page, save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_standings(page, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 9), (4, "Dan", 12)])
    wait_until_idle(page)
    # The entry tells the page of the stored round; a run cut short for the one that
    # follows it ends FINISHED_EARLY_FOR_RERUN. A run of the whole page, asked for by the
    # browser or by the page itself (st.rerun), would finish as FINISHED_SUCCESSFULLY.
    assert log.asked[asked:] and "" not in log.asked[asked:], "a run of the whole page"
    ended = log.finished[finished:]
    assert set(ended) <= {"FINISHED_FRAGMENT_RUN_SUCCESSFULLY", "FINISHED_EARLY_FOR_RERUN"}
    assert ended[-1] == "FINISHED_FRAGMENT_RUN_SUCCESSFULLY"
    assert [(answer.status, answer.json()["outcome"]) for answer in answers] == [(200, "stored")]
    assert len(stored(table, game_id)) == 1
    expect(page.get_by_role("heading", name="Play", exact=True)).to_be_visible()
    expect_clean_page(page)


def test_a_save_tapped_straight_from_a_hand_field_stores_that_hand_once(at_table):
    """The last hand typed and Save tapped at once, before a pause in typing sent the
    entry to the page: the round stored holds that hand, and is stored once. The next
    form is empty, and the saved round's line with Undo and the new standings follow,
    without a run of the whole page."""
    table, game_id, page = at_table()
    log = RunLog(page)
    page.reload()  # on a connection that passes through ``log``
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    tap_choice(page, "play_round_caller", "Ann")
    tap_choice(page, "play_round_call_type", "Dutch")
    for seat, hand in enumerate(["3", "9", "7"]):
        fill(page, f"play_round_hand_{seat}", hand)
    wait_until_idle(page)
    asked = len(log.asked)
    field(page, "play_round_hand_3").fill("12")  # typed, not yet sent
    save_button(page).tap()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_standings(page, [(1, "Ann", 3), (2, "Cleo", 7), (3, "Ben", 9), (4, "Dan", 12)])
    expect(page.get_by_role("button", name="Undo round 1 (saved by Ann)")).to_be_visible()
    wait_until_idle(page)
    assert log.asked[asked:] and "" not in log.asked[asked:], "a run of the whole page"
    assert [hand.round_score for hand in stored(table, game_id)[0].hands] == [3, 9, 7, 12]
    assert len(stored(table, game_id)) == 1
    assert [hand_input(page, seat).input_value() for seat in range(4)] == ["", "", "", ""]
    expect_clean_page(page)


def test_the_round_that_ends_a_game_leaves_its_result_and_a_way_to_the_other_game(
    app_server, make_table, page_factory
):
    """Two tables of one group each play a game. The round that ends one is saved in the
    game's fragment; the page then runs whole, so the picker above tells the rounds played
    and no longer offers the finished game as in progress, the result stays on show, and
    the picker leads on to the game still being played."""
    stamp = time.monotonic_ns()
    table = make_table("Ann", f"ann{stamp}@example.com", "Two tables", list(NAMES))
    ids = table.player_ids
    table.call(games.start_game, table.group_id, [ids["Cleo"], ids["Dan"]], PRESETS["classic"])
    ending = table.call(
        games.start_game,
        table.group_id,
        [ids["Ann"], ids["Ben"]],
        HouseRules(end=EndCondition.score_limit(20)),
    )  # the newest: on show first
    page = page_factory(*PHONE_VIEWPORT, is_mobile=True, has_touch=True)
    page.context.add_cookies([table.session_cookie(app_server.url)])
    page.goto(app_server.url)
    expect_title(page, "Play")
    chosen = widget(page, "play_choose_game").get_by_role("combobox")
    expect(chosen).to_have_value("Ann, Ben — not started yet")
    fill_round(page, "play_round", ["3", "9"], "Ann")
    tap(page, save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(chosen).to_have_value("Ann, Ben — 1 round played")  # the picker tells what is so
    fill_round(page, "play_round", ["3", "25"], "Ann")
    tap(page, save_button(page))
    expect(page.get_by_text("Ann wins with 6 points!")).to_be_visible()
    picker = widget(page, f"play_choose_game_after_{ending.id}")
    expect(picker.get_by_role("combobox")).to_have_value("")  # none chosen: the result stays
    expect(picker.get_by_role("combobox")).to_have_attribute(
        "placeholder", "Go to a game in progress"
    )
    expect(widget(page, "play_choose_game")).to_have_count(0)
    assert len(stored(table, ending.id)) == 2
    choose(page, f"play_choose_game_after_{ending.id}", "Cleo, Dan — not started yet")
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(widget(page, "play_round_caller")).to_contain_text("Cleo")
    expect(page.get_by_text("Ann wins with 6 points!")).to_have_count(0)
    expect_clean_page(page)


def test_save_is_refused_without_a_caller_and_the_summary_is_in_view(at_table):
    table, game_id, page = at_table()
    for seat, hand in enumerate(["3", "K", "7", ""]):
        fill(page, f"play_round_hand_{seat}", hand)
    press(save_button(page))
    summary = entry_summary(page)
    expect(summary).to_contain_text("The round was not saved.")
    expect(summary).to_contain_text("Ben: 'K' needs a colour")
    expect(summary).to_contain_text("Dan: no hand entered")
    expect(summary).to_contain_text("Choose who ended the round.")
    expect(hand_input(page, 1)).to_be_focused()  # the first faulty field, in view
    assert in_view(page, hand_input(page, 1))
    assert stored(table, game_id) == ()
    # Fixed, one problem at a time, the summary follows and then lets the round through.
    fill(page, "play_round_hand_1", "KC")
    fill(page, "play_round_hand_3", "9")
    expect(summary).not_to_contain_text("Dan")
    tap_choice(page, "play_round_caller", "Ann")
    press(save_button(page))
    expect(summary).to_contain_text("Choose how Ann ended the round")
    tap_choice(page, "play_round_call_type", "Dutch")
    press(save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    assert len(stored(table, game_id)) == 1


def test_enter_in_a_hand_field_never_saves(at_table):
    table, game_id, page = at_table()
    tap_choice(page, "play_round_caller", "Ann")
    tap_choice(page, "play_round_call_type", "Dutch")
    for seat, hand in enumerate(["3", "9", "7", "8"]):
        field = hand_input(page, seat)
        field.fill(hand)
        field.press("Enter")
        wait_until_idle(page)
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(widget(page, "play_round_preview")).to_contain_text("Lowest: Ann (3).")
    assert stored(table, game_id) == ()
    # A half-filled round is not saved by Enter either, and its empty hand is named.
    fill(page, "play_round_hand_2", "")
    hand_input(page, 2).press("Enter")
    wait_until_idle(page)
    assert stored(table, game_id) == ()
    press(save_button(page))
    expect(page.get_by_text("Cleo: no hand entered.").first).to_be_visible()
    assert stored(table, game_id) == ()


def test_a_round_entered_entirely_with_the_card_pad(at_table):
    table, game_id, page = at_table()
    tap(page, widget(page, "play_round_pad_on").get_by_text("Card pad"))
    keys = widget(page, "play_round_pad")
    expect(keys).to_be_visible()
    tap_choice(page, "play_round_caller", "Ann")
    tap_choice(page, "play_round_call_type", "Dutch")
    for hand in (["Q"], ["4"], ["5", "7"], ["Black K", "8", "9"]):
        for card in hand:
            tap(page, keys.get_by_role("button", name=card, exact=True))
        tap(page, keys.get_by_role("button", name="Next"))
    expect(field(page, "play_round_penalty")).to_be_visible()
    for card in ("Q", "3", "Black K"):
        tap(page, keys.get_by_role("button", name=card, exact=True))
    expect(field(page, "play_round_penalty")).to_have_value("Q 3 BK")
    assert [hand_input(page, seat).input_value() for seat in range(4)] == [
        "Q",
        "4",  # a single card reads as its number, worth the same
        "5 7",
        "BK 8 9",
    ]
    tap(page, save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    (saved,) = stored(table, game_id)
    assert [hand.round_score for hand in saved.hands] == [40, 4, 12, 30]
    assert (saved.hands[1].cards, saved.hands[1].hand_total) == (None, 4)  # stored as "4"
    expect_clean_page(page)
    # The pad stays on for this phone: after a reload, and in the next round.
    page.reload()
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(widget(page, "play_round_pad")).to_be_visible()
    expect(widget(page, "play_round_pad_on").get_by_role("switch")).to_be_checked()


class HeldAnswers(StreamTap):
    """Sits in a page's websocket and, while ``held``, keeps the server's answers from the
    page (they reach it, in order, on ``release``): what the page sends meanwhile is sent
    from the page as it was. ``events`` lists what the page's elements sent with the runs
    it asked for (the round entry's "draft", "save", "stored"), in order."""

    def __init__(self, page: Page) -> None:
        self.held = False
        self.events: list[str] = []
        self._kept: list[str | bytes] = []
        super().__init__(page)

    def page_sent(self, message: str | bytes) -> bool:
        if isinstance(message, bytes):
            for state in BackMsg.FromString(message).rerun_script.widget_states.widgets:
                if state.WhichOneof("value") == "json_trigger_value":
                    sent = json.loads(state.json_trigger_value)
                    self.events.extend(event["event"] for event in sent)
        return True

    def server_sent(self, message: str | bytes) -> bool:
        if self.held:
            self._kept.append(message)
        return not self.held

    def release(self) -> None:
        self.held = False
        assert self.socket is not None
        for message in self._kept:
            self.socket.send(message)
        self._kept.clear()


def wait_for(page: Page, condition, what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(20)


def test_a_card_tapped_right_after_save_never_brings_the_saved_hands_back(at_table):
    """Round 2's empty form is there as soon as the round route stored round 1, before the
    page's answers: a card-pad tap on it then is sent for the entry the page has not yet
    replaced, and the page's answers (held back here) come after it, with the saved round's
    line above the form. Round 2 gets only the tapped card, in its fields and in the
    preview (drawn from what the server holds), nothing of round 1 comes back, and a
    hurried second Save stores nothing."""
    table, game_id, page = at_table()
    answers = HeldAnswers(page)
    page.reload()  # on a connection that passes through ``answers``
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    tap(page, widget(page, "play_round_pad_on").get_by_text("Card pad"))
    keys = widget(page, "play_round_pad")
    expect(keys).to_be_visible()
    fill_round(page, "play_round", ["3", "10", "7", "25"], "Ann")
    wait_until_idle(page)
    answers.held = True  # nothing the page draws reaches the phone for now
    save_button(page).tap()
    wait_for(page, lambda: len(stored(table, game_id)) == 1, "Save stored round 1")
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()  # drawn by the entry
    wait_for(page, lambda: "stored" in answers.events, "the entry told the page")
    told = len(answers.events)
    keys.get_by_role("button", name="Q", exact=True).tap()
    wait_for(page, lambda: "draft" in answers.events[told:], "the card's tap was sent")
    answers.release()
    expect(widget(page, "play_round_notice")).to_contain_text("Round 1 saved.")
    expect(hand_input(page, 0)).to_have_value("Q")
    wait_until_idle(page)
    assert [hand_input(page, seat).input_value() for seat in range(4)] == ["Q", "", "", ""]
    # What the server holds shows in the preview: round 2's one card, none of round 1.
    preview = widget(page, "play_round_preview")
    expect(preview).not_to_contain_text("25")
    expect(preview).not_to_contain_text("called")
    caller = widget(page, "play_round_caller").get_by_role("radio")
    expect(caller).to_have_count(4)
    assert not any(is_chosen(choice) for choice in caller.all())
    assert [hand.hand_total for hand in stored(table, game_id)[0].hands] == [3, 10, 7, 25]
    press(save_button(page))  # a hurried second Save
    expect(page.get_by_text("Choose who ended the round.").first).to_be_visible()
    assert len(stored(table, game_id)) == 1
    expect_clean_page(page)


def test_points_mode_rules_have_no_penalty_field(at_table):
    table, game_id, page = at_table(PRESETS["points"])
    fill_round(page, "play_round", ["12", "4", "12", "30"], "Ann")
    expect(widget(page, "play_round_preview")).to_contain_text("Ann scores 10 penalty points")
    expect(widget(page, "play_round_penalty")).to_be_hidden()
    press(save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    assert stored(table, game_id)[0].hands[0].round_score == 22


def test_a_typical_round_takes_the_taps_and_keystrokes_the_readme_promises(at_table):
    """Four players, Ann beaten with three penalty cards: on the card pad, then typed."""
    table, game_id, page = at_table()
    tap(page, widget(page, "play_round_pad_on").get_by_text("Card pad"))  # once a session
    keys = widget(page, "play_round_pad")
    expect(keys).to_be_visible()
    before = counts(page)
    tap(page, widget(page, "play_round_caller").get_by_role("radio", name="Ann", exact=True))
    tap(page, widget(page, "play_round_call_type").get_by_role("radio", name="Dutch", exact=True))
    for hand in (["Q"], ["4"], ["5", "7"], ["Black K", "8", "9"]):
        for card in hand:
            tap(page, keys.get_by_role("button", name=card, exact=True))
        tap(page, keys.get_by_role("button", name="Next"))
    for card in ("Q", "3", "Black K"):
        tap(page, keys.get_by_role("button", name=card, exact=True))
    # Save once the last card shows in the preview, as a person taps it: a tap at once can
    # meet the last card's run before it has begun, and the page move under it.
    expect(widget(page, "play_round_preview")).to_contain_text("Ann (called)124040")
    tap(page, save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_emptied_form(page)
    taps, keystrokes = (a - b for a, b in zip(counts(page), before, strict=True))
    assert (taps, keystrokes) == (PAD_TAPS, 0)

    tap(page, widget(page, "play_round_pad_on").get_by_text("Card pad"))  # typing now
    expect(keys).to_be_hidden()
    before = counts(page)
    tap(page, widget(page, "play_round_caller").get_by_role("radio", name="Ann", exact=True))
    tap(page, widget(page, "play_round_call_type").get_by_role("radio", name="Dutch", exact=True))
    for seat, hand in enumerate(TYPICAL_HANDS):
        tap(page, hand_input(page, seat))
        page.keyboard.type(hand)
    penalty = field(page, "play_round_penalty")
    expect(penalty).to_be_visible()  # shown once Dan's hand made the 3 cards due
    tap(page, penalty)
    page.keyboard.type(TYPICAL_PENALTY)
    tap(page, save_button(page))
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    taps, keystrokes = (a - b for a, b in zip(counts(page), before, strict=True))
    assert (taps, keystrokes) == (TYPED_TAPS, TYPED_KEYS)
    assert [[h.round_score for h in r.hands] for r in stored(table, game_id)] == [
        [40, 4, 12, 30],
        [40, 4, 12, 30],
    ]


def test_hand_fields_have_autocorrect_and_autocapitalise_off(at_table):
    _, _, page = at_table()
    field = hand_input(page, 0)
    expect(field).to_have_attribute("autocapitalize", "off")
    expect(field).to_have_attribute("autocorrect", "off")
    expect(field).to_have_attribute("spellcheck", "false")
    expect(field).to_have_attribute("autocomplete", "off")


@pytest.mark.screen  # the headless shell has no screen and refuses every wake lock
def test_the_screen_stays_awake_on_play_until_switched_off_or_left(at_table):
    _, _, page = at_table()
    html = page.locator("html")
    expect(html).to_have_attribute("data-dutch-wake-lock", "held")
    switch = widget(page, "play_keep_awake").get_by_text("Keep the screen on")
    tap(page, switch)
    expect(html).to_have_attribute("data-dutch-wake-lock", "released")
    tap(page, switch)
    expect(html).to_have_attribute("data-dutch-wake-lock", "held")
    # One tap on the page bar leads to History; the lock goes with the Play page.
    tap(page, widget(page, "page_bar").get_by_role("link", name="History"))
    expect_title(page, "History")
    expect(html).to_have_attribute("data-dutch-wake-lock", "released")
    tap(page, widget(page, "page_bar").get_by_role("link", name="Play"))
    expect_title(page, "Play")
    expect(html).to_have_attribute("data-dutch-wake-lock", "held")


def test_negative_jokers_from_set_up_through_totals_and_csv(
    app_server, make_table, page_factory, tmp_path
):
    """Jokers at -2 are set up in the form, tapped on the pad, typed as a total below
    zero, add up in the standings, and go out and back in through the rounds file."""
    stamp = time.monotonic_ns()
    table = make_table("Ann", f"ann{stamp}@example.com", "Joker night", ["Ann", "Ben", "Cleo"])
    page = page_factory(*PHONE_VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.context.add_cookies([table.session_cookie(app_server.url)])
    page.goto(app_server.url)
    expect_title(page, "Play")
    players_box = widget(page, "play_setup_players").locator("input")
    # Ann, the group's one member, is chosen already; the two guests are added.
    expect(widget(page, "play_setup_players")).to_contain_text("Ann")
    for name in ("Ben", "Cleo"):
        wait_until_idle(page)
        players_box.click()
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    choose(page, "play_setup_rules_preset", "Two Jokers worth 0")
    press(page.get_by_text("Adjust these rules"))
    joker_value = widget(page, "play_setup_rules_jokers_jv").locator("input")
    joker_value.fill("-2")
    joker_value.press("Enter")
    wait_until_idle(page)
    press(page.get_by_role("button", name="Start the game"))
    expect(page.get_by_text("2 Jokers in the deck, worth -2 each.")).to_be_visible()

    tap(page, widget(page, "play_round_pad_on").get_by_text("Card pad"))
    keys = widget(page, "play_round_pad")
    for _ in range(2):
        tap(page, keys.get_by_role("button", name="Joker", exact=True))
    expect(hand_input(page, 0)).to_have_value("JK JK")
    fill(page, "play_round_hand_1", "3")
    fill(page, "play_round_hand_2", "KH")
    tap_choice(page, "play_round_caller", "Ann")
    tap_choice(page, "play_round_call_type", "Dutch")
    expect(widget(page, "play_round_preview")).to_contain_text("Lowest: Ann (-4).")
    press(save_button(page))
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    fill_round(page, "play_round", ["-2", "JK 5", "4"], "Ann")  # a typed total below zero
    press(save_button(page))
    expect(page.get_by_role("heading", name="Round 3")).to_be_visible()
    expect_standings(page, [(1, "Ann", -6), (2, "Cleo", 4), (3, "Ben", 6)])

    page.goto(f"{app_server.url}/history")
    expect_title(page, "History")
    rounds_file = download(page, "history_download_rounds", tmp_path / "rounds.csv")
    rows = list(csv.DictReader(io.StringIO(rounds_file.read_text(encoding="utf-8"))))
    assert json.loads(rows[0]["rules"]) == {"jokers": 2, "joker_value": -2}
    assert [(r["player"], r["cards"], r["hand_total"], r["game_total"]) for r in rows] == [
        ("Ann", "JK JK", "-4", "-4"),
        ("Ben", "3", "3", "3"),
        ("Cleo", "KH", "0", "0"),
        ("Ann", "'-2", "-2", "-6"),  # a cell starting with "-" is kept from spreadsheets
        ("Ben", "JK 5", "3", "6"),
        ("Cleo", "4", "4", "4"),
    ]

    eve = make_table("Eve", f"eve{stamp}@example.com", "Import night", [])
    other = page_factory(*PHONE_VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2)
    other.context.add_cookies([eve.session_cookie(app_server.url)])
    other.goto(f"{app_server.url}/history")
    expect_title(other, "History")
    widget(other, "history_import_file").locator("input[type='file']").set_input_files(rounds_file)
    press(other.get_by_role("button", name="Import the file"))
    expect(other.get_by_text("Imported 1 game with 2 rounds.", exact=False)).to_be_visible()
    (imported,) = eve.call(games.list_games, eve.group_id)
    again = eve.call(games.get_game, imported.id)
    assert again.rules == HouseRules(jokers=2, joker_value=-2)
    assert again.totals == {"Ann": -6, "Ben": 6, "Cleo": 4}
