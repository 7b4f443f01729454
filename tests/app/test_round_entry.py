"""Entering a round on the Play page in one pass (AppTest): the preview before saving,
choices made for every round, no half-filled round saved, problems where the eye is,
what the card pad offers, points-mode rules and negative Jokers from set-up to CSV and
back, and what the page makes of anything its browser element sends.

The entry is one element drawn in the browser (``dutch_app/ui/play_entry.py``); AppTest
runs no JavaScript, so these tests read the data the element is drawn with and send what
its script sends (see ``tests/app/apptools.py``). What the script itself does (typing,
the card pad, the Enter key, the round route) is tested in Chromium,
``tests/e2e/test_round_entry.py``.
"""

from __future__ import annotations

import csv
import io

import pytest

from dutch_app.round_payload import MAX_TEXT, NO_CALLER
from dutch_app.services import games, rounds
from dutch_app.services.errors import ServiceError
from dutch_core import PRESETS, HouseRules
from tests.app.apptools import (
    entry_data,
    make_table,
    messages,
    open_app,
    round_payload,
    save_round,
    send_entry,
    shown,
)
from tests.app.downloads import download_file, keep_media

PLAY = "pages/play.py"
HISTORY = "pages/history.py"
TYPICAL = ["Q", "4", "5 7", "KS 8 9"]  # Ann calls with 12: Ben is lower, Cleo ties


def start(table, rules=PRESETS["classic"], seats=("Ann", "Ben", "Cleo", "Dan")):
    ids = [table.player_ids[name] for name in seats]
    return table.call(games.start_game, table.group_id, ids, rules)


def draft(at, hands, caller=None, call=None, penalty=""):
    """The entry as typed so far, sent once the typing paused."""
    send_entry(at, "draft", round_payload(at, hands, caller, call, penalty))
    assert not at.exception, at.exception
    return entry_data(at)


def save(at, hands, caller=None, call="dutch", penalty=""):
    save_round(at, hands, caller, call, penalty)
    assert not at.exception, at.exception
    return entry_data(at)


def stored(table, game):
    return table.call(games.get_game, game.id).rounds


def summary_lines(data) -> list[str]:
    return [] if data["summary"] is None else data["summary"]["lines"]


def test_the_preview_says_how_many_penalty_cards_are_due_before_saving(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    assert entry_data(at)["due"] == 0
    data = draft(at, TYPICAL, "Ann", "dutch")
    preview = data["preview"]
    assert preview["sentence"] == (
        "Lowest: Ben (4). Ann called Dutch and is beaten (1 player lower, 1 player tied): "
        "Ann draws 3 penalty cards."
    )
    assert preview["columns"] == ["Player", "Hand", "Round", "Game"]
    assert ["Ben", "4", "4", "4"] in preview["rows"]  # the new game totals too
    assert ["Ann (called)", "12", "12 + penalty", "–"] in preview["rows"]
    assert data["due"] == 3
    assert data["penaltyLabel"] == "Ann draws 3 penalty cards: enter them"
    assert data["errors"] == {} and data["summary"] is None  # nothing was saved yet
    assert stored(table, game) == ()  # nothing is stored until Save


def test_a_beaten_call_is_saved_with_one_tap_of_save(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    data = save(at, TYPICAL, "Ann", penalty="Q 3 BK")
    (saved,) = stored(table, game)
    assert [hand.round_score for hand in saved.hands] == [40, 4, 12, 30]
    assert (data["number"], data["basis"], data["dealer"]) == (2, 2, "Ben")
    line = [shown(s.value) for s in at.success]
    assert any(text.startswith("Round 1 saved. Ann called Dutch, was beaten") for text in line)
    assert any(b.key and b.key.startswith("play_undo_") for b in at.button)
    # The next round starts empty and unchosen, with its first field brought into view.
    assert data["fill"] == {"hands": ["", "", "", ""], "caller": None, "call": None, "penalty": ""}
    assert data["entry"] == 2
    assert data["focus"] == 1


def test_save_is_refused_until_the_caller_and_the_call_are_chosen(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    hands = ["3", "10", "7", "25"]
    data = save(at, hands, None, None)
    assert data["errors"] == {"caller": "Choose who ended the round."}
    assert data["firstError"] == "caller"
    data = save(at, hands, "Ann", None)
    assert data["errors"] == {"caller": "Choose how Ann ended the round: Dutch or Auto Dutch."}
    assert data["firstError"] == "call_type"
    assert stored(table, game) == ()
    data = save(at, hands, "Ann", "dutch")
    assert len(stored(table, game)) == 1
    assert data["errors"] == {}


def test_nobody_called_is_offered_only_where_the_rules_allow_it(table):
    start(table)
    at = open_app(table.account, PLAY)
    assert [value for value, _label in entry_data(at)["callers"]] == ["Ann", "Ben", "Cleo", "Dan"]
    other = make_table(table.resources, "eve@example.com", "Eve")
    game = start(other, PRESETS["deck_out"])
    at = open_app(other.account, PLAY)
    assert entry_data(at)["callers"][-1] == [NO_CALLER, "Nobody (the deck ran out)"]
    save(at, ["3", "10", "7", "25"], NO_CALLER, None)
    (saved,) = stored(other, game)
    assert saved.caller is None


def test_a_player_named_like_the_no_caller_label_stays_a_player(table):
    start(table)
    at = open_app(table.account, PLAY)
    entry = round_payload(at, ["3", "10", "7", "25"], "Nobody (the deck ran out)", "dutch")
    send_entry(at, "draft", entry)  # not a name of this game: counts as not chosen
    assert entry_data(at)["fill"]["caller"] is None


def test_the_entry_as_typed_is_never_stored_until_save(table):
    """The Enter key only moves on to the next field (tested in Chromium); whatever the
    entry holds, however complete, is kept for the preview and stored only by Save."""
    game = start(table)
    at = open_app(table.account, PLAY)
    draft(at, ["3", "10", "", ""], "Ann", "dutch")
    data = draft(at, ["3", "10", "7", "25"], "Ann", "dutch")
    assert stored(table, game) == ()
    assert data["number"] == 1
    assert data["fill"]["hands"] == ["3", "10", "7", "25"]
    assert at.get("form") == []  # no form whose Enter key would submit it


def test_an_empty_hand_is_refused_with_the_players_name(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    data = save(at, ["3", "", "7", ""], "Ann")
    assert stored(table, game) == ()
    assert data["errors"]["hand_1"].startswith("Ben: no hand entered")
    assert data["errors"]["hand_3"].startswith("Dan: no hand entered")
    # The Auto Dutch caller's empty hand, and a hand typed as 0, are fine.
    data = draft(at, ["3", "", "7", "0"], "Ben", "auto_dutch")
    assert data["due"] == 1  # Dan's 0 ties Ben's Auto Dutch 0
    save(at, ["3", "", "7", "0"], "Ben", "auto_dutch", penalty="4")
    (saved,) = stored(table, game)
    assert [hand.round_score for hand in saved.hands] == [3, 4, 7, 0]


def test_a_refused_save_lists_every_problem_above_save_and_brings_the_first_into_view(table):
    start(table)
    at = open_app(table.account, PLAY)
    data = save(at, ["3", "K", "7", ""], None, None)
    assert data["summary"]["heading"] == "The round was not saved. Fix these 3 problems first:"
    lines = summary_lines(data)
    assert lines[0].startswith("Ben: 'K' needs a colour")
    assert lines[1].startswith("Dan: no hand entered")
    assert lines[2] == "Choose who ended the round."
    # Ben's field, the first faulty one, is brought into view; each refusal asks again.
    assert (data["firstError"], data["refusal"]) == ("hand_1", 1)
    assert save(at, ["3", "K", "7", ""], None, None)["refusal"] == 2
    # Fixed fields drop out of the list as they are fixed.
    data = draft(at, ["3", "KH", "7", "9"])
    assert summary_lines(data) == ["Choose who ended the round."]
    assert data["errors"] == {"caller": "Choose who ended the round."}


def test_a_service_refusal_is_listed_like_the_entrys_own_problems(table, monkeypatch):
    game = start(table)
    at = open_app(table.account, PLAY)

    def refuse(*args, **kwargs):
        raise ServiceError("The round could not be stored: try again.")

    monkeypatch.setattr(rounds, "add_round", refuse)
    data = save(at, ["3", "10", "7", "25"], "Ann")
    assert data["errors"] == {"round": "The round could not be stored: try again."}
    assert summary_lines(data) == ["The round could not be stored: try again."]
    assert data["firstError"] == "save"
    assert stored(table, game) == ()


def test_a_failure_of_ours_while_saving_shows_an_error_id_and_no_traceback(table, monkeypatch):
    game = start(table)
    at = open_app(table.account, PLAY)

    def fail(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(rounds, "add_round", fail)
    data = save(at, ["3", "10", "7", "25"], "Ann")
    (message,) = summary_lines(data)
    assert message.startswith("Something went wrong on our side (error id ")
    assert "disk" not in message
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
    data = draft(at, ["12", "4", "12", "30"], "Ann", "dutch")
    assert data["due"] == 0 and data["penaltyLabel"] == ""
    assert "Ann scores 10 penalty points" in data["preview"]["sentence"]
    save(at, ["12", "4", "12", "30"], "Ann")
    (saved,) = stored(table, game)
    assert saved.hands[0].round_score == 22


def test_a_penalty_text_from_a_hidden_field_is_not_the_rounds(table):
    """The penalty field shows only while cards are due: a text left in it after a hand
    was corrected is not stored with a round that has none due."""
    game = start(table)
    at = open_app(table.account, PLAY)
    save(at, ["3", "10", "7", "25"], "Ann", penalty="Q 3 KC")
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
    data = draft(at, ["JK JK", "3", "KH"])
    assert data["preview"]["sentence"] == "Lowest: Ann (-4)."
    save(at, ["JK JK", "3", "KH"], "Ann")
    assert table.call(games.get_game, game.id).totals == {"Ann": -4, "Ben": 3, "Cleo": 0}
    save(at, ["-2", "JK 5", "4"], "Ann")  # a typed total below zero, as this deck allows
    assert table.call(games.get_game, game.id).totals == {"Ann": -6, "Ben": 6, "Cleo": 4}
    data = save(at, ["-5", "3", "1"], "Cleo")  # beyond what the deck can make
    refused = "Ann: a total of -5 is outside what this deck can make (-4 to 338)"
    assert data["errors"]["hand_0"].startswith(refused)

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


def test_anything_sent_for_a_stored_entry_is_dropped(table):
    """A draft or a second Save the browser sent before it saw the next round's form
    names the stored entry: round 2's entry stays empty, nothing is stored twice, and no
    problem is shown for it."""
    game = start(table)
    at = open_app(table.account, PLAY)
    before = round_payload(at, ["3", "10", "7", "25"], "Ann", "dutch")
    save(at, ["3", "10", "7", "25"], "Ann")
    send_entry(at, "draft", before)
    send_entry(at, "save", before)  # the second tap of a double tap
    assert not at.exception, at.exception
    data = entry_data(at)
    assert data["fill"] == {"hands": ["", "", "", ""], "caller": None, "call": None, "penalty": ""}
    assert data["errors"] == {} and data["summary"] is None
    assert len(stored(table, game)) == 1


@pytest.mark.parametrize(
    "sent",
    [
        None,
        [],
        "3 10 7 25",
        {"entry": "1", "hands": ["3", "10", "7", "25"]},
        {"entry": 1, "hands": ["3", "10", "7"]},
        {"entry": 1, "hands": [3, 10, 7, 25]},
        {"entry": 1, "hands": ["3", "10", "7", None]},
        {"entry": 1, "hands": ["3", "10", "7", "25"], "penalty": 7},
        {"entry": True, "hands": ["3", "10", "7", "25"]},
        {"entry": 2**40, "hands": ["3", "10", "7", "25"]},
    ],
)
def test_an_entry_of_the_wrong_shape_is_dropped_whole(table, sent):
    game = start(table)
    at = open_app(table.account, PLAY)
    for event in ("draft", "save", "stored"):
        send_entry(at, event, sent)
        assert not at.exception, at.exception
        assert entry_data(at)["fill"]["hands"] == ["", "", "", ""]
    assert stored(table, game) == ()
    assert not at.success


def test_any_text_is_kept_as_typed_cut_to_a_hands_length_and_checked(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    odd = ["\U0001f0a1", "\u202e25", "3" * 5000, "<b>7</b>"]
    data = save(at, odd, "Ben\x00", "dutch")  # a caller that is not on offer: not chosen
    assert data["fill"]["hands"] == [odd[0], odd[1], "3" * MAX_TEXT, odd[3]]
    assert data["fill"]["caller"] is None
    assert set(data["errors"]) >= {"hand_0", "hand_1", "hand_2", "hand_3", "caller"}
    assert stored(table, game) == ()


def test_a_round_the_route_stored_is_noted_once_the_page_finds_it_stored(table):
    """The element stores a round through the round route, then tells the page: the page
    believes it only once it reads the round from the database."""
    game = start(table)
    at = open_app(table.account, PLAY)
    entry = round_payload(at, TYPICAL, "Ann", "dutch", "Q 3 BK")
    send_entry(at, "stored", {**entry, "number": 1})  # nothing was stored: not believed
    assert entry_data(at)["number"] == 1 and entry_data(at)["entry"] == entry["entry"]
    assert not at.success
    ids = [table.player_ids[name] for name in ("Ann", "Ben", "Cleo", "Dan")]
    hands = dict(zip(ids, TYPICAL, strict=True))
    table.call(rounds.add_round, game.id, hands, ids[0], "dutch", "Q 3 BK", for_round=1)
    send_entry(at, "stored", {**entry, "number": 1})
    assert not at.exception, at.exception
    data = entry_data(at)
    assert (data["number"], data["entry"]) == (2, entry["entry"] + 1)
    line = [shown(s.value) for s in at.success]
    assert any(text.startswith("Round 1 saved. Ann called Dutch, was beaten") for text in line)
    assert len(stored(table, game)) == 1


def test_a_stored_round_told_with_other_hands_gets_no_story_of_the_call(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    ids = [table.player_ids[name] for name in ("Ann", "Ben", "Cleo", "Dan")]
    hands = dict(zip(ids, ["3", "10", "7", "25"], strict=True))
    table.call(rounds.add_round, game.id, hands, ids[0], "dutch", for_round=1)
    told = round_payload(at, ["30", "10", "7", "25"], "Ben", "dutch")
    send_entry(at, "stored", {**told, "number": 1})
    assert [shown(s.value) for s in at.success] == ["Round 1 saved."]
