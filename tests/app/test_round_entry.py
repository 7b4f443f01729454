"""Entering a round on the Play page in one pass (AppTest): the preview before saving,
choices made for every round, no half-filled round saved, problems where the eye is,
what the card pad offers, points-mode rules and negative Jokers from set-up to CSV and
back, and what the page makes of anything its browser element sends.

The entry is one element drawn in the browser (``dutch_app/ui/play_entry.py``) that stores
a round one way: through the round route (``dutch_app/web/round_route.py``), whose answer
it draws itself. AppTest runs no JavaScript, so these tests check three things apart (see
``tests/app/apptools.py``): the route's answer to what the element sends, the data the page
draws the element with (what it kept of the entry and its word on it), and what the
database holds. What the script itself does with them (typing, the card pad, the Enter
key, drawing the answers) is tested in Chromium, ``tests/e2e/test_round_entry.py``.
"""

from __future__ import annotations

import asyncio
import csv
import io

import httpx
import pytest
from starlette.applications import Starlette

from dutch_app.round_payload import MAX_TEXT, NO_CALLER
from dutch_app.services import games, rounds
from dutch_app.services.errors import ServiceError
from dutch_app.web.cookie import SESSION_COOKIE
from dutch_app.web.round_route import RoundRoute, round_route_path
from dutch_core import PRESETS, HouseRules
from tests.app.apptools import (
    entry_data,
    make_table,
    messages,
    open_app,
    post_round,
    round_payload,
    save_round,
    send_entry,
)
from tests.app.downloads import download_file, keep_media

PLAY = "pages/play.py"
HISTORY = "pages/history.py"
TYPICAL = ["Q", "4", "5 7", "KS 8 9"]  # Ann calls with 12: Ben is lower, Cleo ties


def start(table, rules=PRESETS["classic"], seats=("Ann", "Ben", "Cleo", "Dan")):
    ids = [table.player_ids[name] for name in seats]
    return table.call(games.start_game, table.group_id, ids, rules)


def draft(at, hands, caller=None, call=None, penalty=""):
    """The entry as typed so far, sent once the typing paused: the page's word on it."""
    send_entry(at, "draft", round_payload(at, hands, caller, call, penalty))
    assert not at.exception, at.exception
    return entry_data(at)["checked"]


def save(at, hands, caller=None, call="dutch", penalty=""):
    """Tap Save: the round route's answer."""
    answer = save_round(at, hands, caller, call, penalty)
    assert not at.exception, at.exception
    return answer


def stored(table, game):
    return table.call(games.get_game, game.id).rounds


def test_the_preview_says_how_many_penalty_cards_are_due_before_saving(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    assert entry_data(at)["checked"] is None  # nothing typed, nothing to say
    checked = draft(at, TYPICAL, "Ann", "dutch")
    preview = checked["preview"]
    assert preview["sentence"] == (
        "Lowest: Ben (4). Ann called Dutch and is beaten (1 player lower, 1 player tied): "
        "Ann draws 3 penalty cards."
    )
    assert preview["columns"] == ["Player", "Hand", "Round", "Game"]
    assert ["Ben", "4", "4", "4"] in preview["rows"]  # the new game totals too
    assert ["Ann (called)", "12", "12 + penalty", "–"] in preview["rows"]
    assert checked["due"] == 3
    assert checked["penaltyLabel"] == "Ann draws 3 penalty cards: enter them"
    assert checked["penaltyTarget"] == "Penalty (3)"
    assert list(checked["problems"]["fields"]) == ["penalty"]  # the cards are still to come
    assert stored(table, game) == ()  # nothing is stored until Save


def test_a_beaten_call_is_saved_with_one_tap_of_save(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    draft(at, TYPICAL, "Ann", "dutch")
    answer = save(at, TYPICAL, "Ann", penalty="Q 3 BK")
    assert answer["outcome"] == "stored"
    assert (answer["number"], answer["dealer"], answer["over"]) == (1, "Ben", False)
    assert answer["line"].startswith("Round 1 saved. Ann called Dutch, was beaten")
    (saved,) = stored(table, game)
    assert [hand.round_score for hand in saved.hands] == [40, 4, 12, 30]
    assert any(b.key and b.key.startswith("play_undo_") for b in at.button)
    # The page, told, forgets the entry it kept and draws the element for the next round.
    data = entry_data(at)
    assert (data["number"], data["dealer"], data["version"]) == (2, "Ben", answer["version"])
    assert data["kept"] is None and data["checked"] is None
    assert data["savers"] == {"1": "Ann"}


def test_save_is_refused_until_the_caller_and_the_call_are_chosen(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    hands = ["3", "10", "7", "25"]
    answer = save(at, hands, None, None)
    assert answer["outcome"] == "invalid"
    assert answer["fields"] == {"caller": "Choose who ended the round."}
    assert answer["first"] == "caller"
    answer = save(at, hands, "Ann", None)
    assert answer["fields"] == {"caller": "Choose how Ann ended the round: Dutch or Auto Dutch."}
    assert answer["first"] == "call_type"
    assert stored(table, game) == ()
    assert save(at, hands, "Ann", "dutch")["outcome"] == "stored"
    assert len(stored(table, game)) == 1


def test_nobody_called_is_offered_only_where_the_rules_allow_it(table):
    start(table)
    at = open_app(table.account, PLAY)
    assert [value for value, _label in entry_data(at)["callers"]] == ["Ann", "Ben", "Cleo", "Dan"]
    other = make_table(table.resources, "eve@example.com", "Eve")
    game = start(other, PRESETS["deck_out"])
    at = open_app(other.account, PLAY)
    assert entry_data(at)["callers"][-1] == [NO_CALLER, "Nobody (the deck ran out)"]
    assert save(at, ["3", "10", "7", "25"], NO_CALLER, None)["outcome"] == "stored"
    (saved,) = stored(other, game)
    assert saved.caller is None


def test_a_player_named_like_the_no_caller_label_stays_a_player(table):
    """The no-caller choice is a value no name can be: its label, sent as the caller, is
    not a name of this game, so it counts as not chosen (nor as nobody called)."""
    game = start(table)
    at = open_app(table.account, PLAY)
    entry = round_payload(at, ["3", "10", "7", "25"], "Nobody (the deck ran out)", "dutch")
    send_entry(at, "draft", entry)
    assert not at.exception, at.exception
    data = entry_data(at)
    assert data["kept"]["caller"] is None
    assert data["checked"]["problems"]["fields"] == {"caller": "Choose who ended the round."}
    answer = post_round(at, table.account, entry)
    assert answer["fields"] == {"caller": "Choose who ended the round."}
    assert stored(table, game) == ()


def test_the_entry_as_typed_is_kept_by_the_page_and_never_stored_until_save(table):
    """The Enter key only moves on to the next field (tested in Chromium); whatever the
    entry holds, however complete, is kept for the preview and stored only by Save. The
    kept entry outlasts a run of the page and the page being left and opened again."""
    game = start(table)
    at = open_app(table.account, PLAY)
    draft(at, ["3", "10", "", ""], "Ann", "dutch")
    checked = draft(at, ["3", "10", "7", "25"], "Ann", "dutch")
    assert checked["problems"] is None  # complete and right: Save would store it
    assert stored(table, game) == ()
    data = entry_data(at)
    assert data["number"] == 1
    kept = data["kept"]
    assert kept["hands"] == ["3", "10", "7", "25"]
    assert (kept["basis"], kept["caller"], kept["call"]) == (1, "Ann", "dutch")
    assert at.get("form") == []  # no form whose Enter key would submit it
    at.run()
    assert entry_data(at)["kept"] == kept
    at.switch_page(HISTORY).run()
    at.switch_page(PLAY).run()
    assert not at.exception, at.exception
    again = entry_data(at)
    assert again["kept"] == kept
    assert (again["checked"]["id"], again["checked"]["seq"]) == (kept["id"], checked["seq"])
    assert stored(table, game) == ()


def test_an_older_draft_of_the_same_entry_is_dropped(table):
    """Drafts of one entry can overtake each other on the way: the page keeps the one
    sent last (the higher ``seq``), and answers for it."""
    start(table)
    at = open_app(table.account, PLAY)
    older = round_payload(at, ["3", "", "", ""], "Ann", "dutch")
    newer = {**older, "seq": older["seq"] + 1, "hands": ["3", "10", "7", "25"]}
    send_entry(at, "draft", newer)
    send_entry(at, "draft", older)
    assert not at.exception, at.exception
    data = entry_data(at)
    assert data["kept"]["hands"] == ["3", "10", "7", "25"]
    assert (data["checked"]["seq"], data["checked"]["problems"]) == (newer["seq"], None)
    # A new entry (another id) is kept whatever its seq.
    fresh = {**older, "id": "other1", "seq": 1, "hands": ["1", "2", "3", "4"]}
    send_entry(at, "draft", fresh)
    data = entry_data(at)
    assert (data["kept"]["id"], data["kept"]["hands"]) == ("other1", ["1", "2", "3", "4"])
    assert data["checked"]["id"] == "other1"


def test_an_empty_hand_is_refused_with_the_players_name(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    answer = save(at, ["3", "", "7", ""], "Ann")
    assert answer["outcome"] == "invalid"
    assert stored(table, game) == ()
    assert answer["fields"]["hand_1"].startswith("Ben: no hand entered")
    assert answer["fields"]["hand_3"].startswith("Dan: no hand entered")
    # The Auto Dutch caller's empty hand, and a hand typed as 0, are fine.
    assert draft(at, ["3", "", "7", "0"], "Ben", "auto_dutch")["due"] == 1  # Dan's 0 ties Ben
    answer = save(at, ["3", "", "7", "0"], "Ben", "auto_dutch", penalty="4")
    assert answer["outcome"] == "stored"
    (saved,) = stored(table, game)
    assert [hand.round_score for hand in saved.hands] == [3, 4, 7, 0]


def test_a_refused_save_lists_every_problem_above_save_and_brings_the_first_into_view(table):
    start(table)
    at = open_app(table.account, PLAY)
    answer = save(at, ["3", "K", "7", ""], None, None)
    assert answer["outcome"] == "invalid"
    assert answer["heading"] == "The round was not saved. Fix these 3 problems first:"
    lines = answer["lines"]
    assert lines[0].startswith("Ben: 'K' needs a colour")
    assert lines[1].startswith("Dan: no hand entered")
    assert lines[2] == "Choose who ended the round."
    assert list(answer["fields"]) == ["hand_1", "hand_3", "caller"]  # in the fields' order
    assert answer["first"] == "hand_1"  # Ben's field, the first faulty one, into view
    assert save(at, ["3", "K", "7", ""], None, None) == answer  # each refusal says it again
    # Fixed fields drop out of the list as they are fixed.
    problems = draft(at, ["3", "KH", "7", "9"])["problems"]
    assert problems["lines"] == ["Choose who ended the round."]
    assert problems["fields"] == {"caller": "Choose who ended the round."}
    assert problems["heading"] == "The round was not saved. Fix this problem first:"
    assert problems["first"] == "caller"


def test_a_service_refusal_is_answered_as_a_sentence_with_nothing_stored(table, monkeypatch):
    game = start(table)
    at = open_app(table.account, PLAY)
    draft(at, ["3", "10", "7", "25"], "Ann", "dutch")

    def refuse(*args, **kwargs):
        raise ServiceError("The round could not be stored: try again.")

    monkeypatch.setattr(rounds, "add_round", refuse)
    answer = save(at, ["3", "10", "7", "25"], "Ann")
    assert answer == {"outcome": "refused", "message": "The round could not be stored: try again."}
    assert stored(table, game) == ()
    assert entry_data(at)["kept"]["hands"] == ["3", "10", "7", "25"]  # the entry stays


def test_a_failure_of_ours_while_storing_is_answered_503_without_a_trace(table, monkeypatch):
    """Not a refusal of the service but a failure (the database away, a bug): it leaves
    ``store_entry`` as an exception, and the route answers 503 with no body, so the element
    keeps the entry and says the round was not saved."""
    game = start(table)
    sent = {
        "game": game.id,
        "round": 1,
        "id": "e1",
        "seq": 1,
        "hands": ["3", "10", "7", "25"],
        "caller": "Ann",
        "call": "dutch",
        "penalty": "",
    }

    def fail(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(rounds, "add_round", fail)
    app = Starlette(routes=RoundRoute(lambda: table.resources).routes())
    token = table.resources.accounts.issue_token(table.account.user_id)

    async def post() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        cookies = {SESSION_COOKIE: token}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://app", cookies=cookies
        ) as http:
            return await http.post(round_route_path(), json=sent)

    response = asyncio.run(post())
    assert response.status_code == 503
    assert response.content == b""
    assert response.headers["cache-control"] == "no-store"
    assert stored(table, game) == ()


def test_the_card_pad_offers_the_decks_cards_and_signs(table):
    start(table)
    at = open_app(table.account, PLAY)
    pad = entry_data(at)["pad"]
    assert [name for _token, name in pad["cards"]][-2:] == ["Red K", "Black K"]
    assert "-" not in pad["digits"]
    other = make_table(table.resources, "eve@example.com", "Eve")
    start(other, HouseRules(jokers=2, joker_value=-2), seats=("Eve", "Ann", "Ben"))
    pad = entry_data(open_app(other.account, PLAY))["pad"]
    assert pad["cards"][-1] == ["JK", "Joker"]
    assert pad["digits"][-1] == "-"  # a hand can add up below zero with this deck


def test_points_mode_rules_never_show_a_penalty_field(table):
    game = start(table, PRESETS["points"])
    at = open_app(table.account, PLAY)
    checked = draft(at, ["12", "4", "12", "30"], "Ann", "dutch")
    assert checked["due"] == 0
    assert checked["penaltyLabel"] == checked["penaltyTarget"] == ""
    assert checked["problems"] is None
    assert "Ann scores 10 penalty points" in checked["preview"]["sentence"]
    assert save(at, ["12", "4", "12", "30"], "Ann")["outcome"] == "stored"
    (saved,) = stored(table, game)
    assert saved.hands[0].round_score == 22


def test_a_penalty_text_from_a_hidden_field_is_not_the_rounds(table):
    """The penalty field shows only while cards are due: a text left in it after a hand
    was corrected is not stored with a round that has none due."""
    game = start(table)
    at = open_app(table.account, PLAY)
    assert draft(at, ["3", "10", "7", "25"], "Ann", "dutch", "Q 3 KC")["problems"] is None
    assert save(at, ["3", "10", "7", "25"], "Ann", penalty="Q 3 KC")["outcome"] == "stored"
    (saved,) = stored(table, game)
    assert saved.penalty_text is None
    assert [hand.round_score for hand in saved.hands] == [3, 10, 7, 25]


def test_negative_jokers_from_set_up_to_totals_and_through_csv(table, monkeypatch):
    media = keep_media(monkeypatch)
    at = open_app(table.account, PLAY)
    for name in ("Ann", "Ben", "Cleo"):
        at.multiselect(key="play_setup_players").select(table.player_ids[name])
    at.selectbox(key="play_setup_rules_preset").select("jokers").run()
    at.number_input(key="play_setup_rules_jokers_jv").set_value(-2)
    at.button(key="play_setup_start").click().run()
    assert not at.exception
    (summary,) = table.call(games.list_games, table.group_id)
    game = table.call(games.get_game, summary.id)
    assert game.rules == HouseRules(jokers=2, joker_value=-2)
    assert any("2 Jokers in the deck, worth -2 each." in c.value for c in at.caption)

    assert entry_data(at)["pad"]["cards"][-1] == ["JK", "Joker"]  # the pad has Jokers now
    assert draft(at, ["JK JK", "3", "KH"])["preview"]["sentence"] == "Lowest: Ann (-4)."
    assert save(at, ["JK JK", "3", "KH"], "Ann")["outcome"] == "stored"
    assert table.call(games.get_game, game.id).totals == {"Ann": -4, "Ben": 3, "Cleo": 0}
    # a typed total below zero, as this deck allows
    assert save(at, ["-2", "JK 5", "4"], "Ann")["outcome"] == "stored"
    assert table.call(games.get_game, game.id).totals == {"Ann": -6, "Ben": 6, "Cleo": 4}
    answer = save(at, ["-5", "3", "1"], "Cleo")  # beyond what the deck can make
    refused = "Ann: a total of -5 is outside what this deck can make (-4 to 338)"
    assert answer["fields"]["hand_0"].startswith(refused)

    at.switch_page(HISTORY).run()
    assert not at.exception
    file = download_file(at, "history_download_game", media)
    rows = list(csv.DictReader(io.StringIO(file.content.decode("utf-8"))))
    assert [(r["player"], r["cards"], r["hand_total"], r["game_total"]) for r in rows] == [
        ("Ann", "JK JK", "-4", "-4"),
        ("Ben", "3", "3", "3"),
        ("Cleo", "KH", "0", "0"),
        ("Ann", "'-2", "-2", "-6"),  # a text cell starting with "-" is kept from formulas
        ("Ben", "JK 5", "3", "6"),
        ("Cleo", "4", "4", "4"),
    ]
    assert '"joker_value":-2' in rows[0]["rules"].replace(" ", "")

    eve = make_table(table.resources, "eve@example.com", "Eve")
    at = open_app(eve.account, HISTORY)
    at.file_uploader(key="history_import_file").upload("rounds.csv", file.content, "text/csv")
    at.run()
    at.button(key="history_import").click().run()
    assert not at.exception
    assert any(text.startswith("Imported 1 game with 2 rounds.") for text in messages(at))
    (imported,) = eve.call(games.list_games, eve.group_id)
    again = eve.call(games.get_game, imported.id)
    assert again.rules == HouseRules(jokers=2, joker_value=-2)
    assert again.totals == {"Ann": -6, "Ben": 6, "Cleo": 4}


def test_a_second_save_of_a_stored_entry_is_stored_once(table):
    """The second tap of a double tap (or a retry whose answer was lost) sends the stored
    entry again for the same round: the route answers with the round as stored, and the
    game holds it once."""
    game = start(table)
    at = open_app(table.account, PLAY)
    before = round_payload(at, ["3", "10", "7", "25"], "Ann", "dutch")
    first = post_round(at, table.account, before)
    again = post_round(at, table.account, before)
    assert first["outcome"] == again["outcome"] == "stored"
    assert again["number"] == first["number"] == 1
    assert len(stored(table, game)) == 1
    send_entry(at, "stored", {"id": before["id"], "number": 1})
    assert not at.exception, at.exception
    data = entry_data(at)
    assert (data["number"], data["kept"], data["checked"]) == (2, None, None)


def test_the_stored_message_forgets_only_the_entry_it_names(table):
    """``stored`` names the entry the route stored: an entry of another id the page kept
    (typed since, in a new form) is not forgotten."""
    start(table)
    at = open_app(table.account, PLAY)
    draft(at, ["3", "10", "7", "25"], "Ann", "dutch")
    kept = entry_data(at)["kept"]
    send_entry(at, "stored", {"id": "another1", "number": 1})
    assert not at.exception, at.exception
    assert entry_data(at)["kept"] == kept
    send_entry(at, "stored", {"id": kept["id"], "number": 1})
    assert entry_data(at)["kept"] is None


def test_a_draft_that_arrives_after_its_entry_was_stored_is_dropped(table):
    """A draft sent just before Save can reach the page after the element said the entry
    was stored: kept again, it would come back into a new form for a round it was saved
    as already."""
    game = start(table)
    at = open_app(table.account, PLAY)
    late = round_payload(at, ["3", "10", "7", "25"], "Ann", "dutch")
    save(at, ["3", "10", "7", "25"], "Ann")
    assert entry_data(at)["kept"] is None
    send_entry(at, "draft", late)
    assert not at.exception, at.exception
    assert entry_data(at)["kept"] is None and entry_data(at)["number"] == 2
    assert len(stored(table, game)) == 1


GOOD = {"id": "e1n1", "basis": 1, "seq": 1, "hands": ["3", "10", "7", "25"]}


@pytest.mark.parametrize(
    "sent",
    [
        None,
        [],
        "3 10 7 25",
        {**GOOD, "hands": ["3", "10", "7"]},
        {**GOOD, "hands": [3, 10, 7, 25]},
        {**GOOD, "hands": ["3", "10", "7", None]},
        {**GOOD, "penalty": 7},
        {**GOOD, "id": "<b>"},
        {**GOOD, "id": 7},
        {**GOOD, "id": "x" * 41},
        {key: value for key, value in GOOD.items() if key != "id"},
        {**GOOD, "basis": True},
        {**GOOD, "basis": "1"},
        {**GOOD, "basis": 2**40},
        {key: value for key, value in GOOD.items() if key != "basis"},
    ],
)
def test_an_entry_of_the_wrong_shape_is_dropped_whole(table, sent):
    game = start(table)
    at = open_app(table.account, PLAY)
    kept = entry_data(at)["kept"]
    for event in ("draft", "stored"):
        send_entry(at, event, sent)
        assert not at.exception, at.exception
        data = entry_data(at)
        assert (data["kept"], data["checked"], data["number"]) == (kept, None, 1)
    assert stored(table, game) == ()
    assert not at.success


def test_a_stored_message_of_the_wrong_shape_forgets_nothing(table):
    start(table)
    at = open_app(table.account, PLAY)
    draft(at, ["3", "10", "7", "25"], "Ann", "dutch")
    kept = entry_data(at)["kept"]
    for odd in (None, "x", {"id": 7, "number": 1}, {"id": "<b>"}, {"number": 1}):
        send_entry(at, "stored", odd)
        assert not at.exception, at.exception
        assert entry_data(at)["kept"] == kept


def test_any_text_is_kept_as_typed_cut_to_a_hands_length_and_checked(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    odd = ["\U0001f0a1", "\u202e25", "3" * 5000, "<b>7</b>"]
    entry = round_payload(at, odd, "Ben\x00", "dutch")  # a caller not on offer: not chosen
    send_entry(at, "draft", entry)
    assert not at.exception, at.exception
    data = entry_data(at)
    assert data["kept"]["hands"] == [odd[0], odd[1], "3" * MAX_TEXT, odd[3]]
    assert data["kept"]["caller"] is None
    expected = {"hand_0", "hand_1", "hand_2", "hand_3", "caller"}
    assert set(data["checked"]["problems"]["fields"]) >= expected
    answer = post_round(at, table.account, entry)
    assert answer["outcome"] == "invalid"
    assert set(answer["fields"]) >= expected
    assert stored(table, game) == ()
