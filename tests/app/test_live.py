"""The Play page and the table view when other phones change the game (AppTest).

The browser tests in tests/e2e/test_live_table.py drive the same with two real phones;
these check each rule of what the page shows and stores, quickly.
"""

from __future__ import annotations

import pytest

from dutch_app.round_payload import NO_CALLER
from dutch_app.services import games, groups, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from tests.app.apptools import (
    entry_data,
    make_table,
    open_app,
    post_round,
    round_payload,
    save_round,
    send_entry,
)
from tests.app.apptools import messages as raw_messages
from tests.views import get_group

PLAY = "pages/play.py"
TABLE = "pages/table.py"


@pytest.fixture
def friend(table):
    """Finn, a second member of the group."""
    account = table.resources.accounts.sign_up("finn@example.com", "correct horse 43", "Finn")
    invite = table.call(get_group, table.group_id).invite_code
    with table.resources.sessions() as session:
        perform(session, groups.join_group, account.user_id, invite)
    return account


@pytest.fixture
def game(table):
    seats = [table.player_ids[name] for name in ("Ann", "Ben", "Cleo")]
    return table.call(games.start_game, table.group_id, seats, PRESETS["classic"])


def saved_by(table, account, game, number, hands=("3", "9", "7")):
    ids = [table.player_ids[name] for name in ("Ann", "Ben", "Cleo")]
    with table.resources.sessions() as session:
        return perform(
            session,
            rounds.add_round,
            account.user_id,
            game.id,
            dict(zip(ids, hands, strict=True)),
            ids[0],
            "dutch",
            for_round=number,
        )


def messages(at) -> list[str]:
    """The page's messages as a person reads them (Markdown escapes taken out)."""
    return [message.replace("\\", "") for message in raw_messages(at)]


def type_round(at, hands, caller="Ann", call="dutch") -> dict:
    """Type a round into the entry without saving it (the element sends it as a draft);
    the entry as sent."""
    sent = round_payload(at, hands, caller, call)
    send_entry(at, "draft", sent)
    assert not at.exception, at.exception
    return sent


def save(at, hands, caller="Ann", call="dutch") -> dict:
    """Tap Save on the entry holding this round: the round route's answer."""
    answer = save_round(at, hands, caller, None if caller == NO_CALLER else call)
    assert not at.exception, at.exception
    return answer


def save_again(at, account, sent, **changes) -> dict:
    """Tap the button the element offers next to Save after a refusal ("Save it as round
    N", "Reopen the game and save this round"): the entry sent again, so changed; the
    route's answer, and the page told when it stored it."""
    again = {**sent, "seq": sent["seq"] + 1, **changes}
    answer = post_round(at, account, again)
    if answer["outcome"] == "stored":
        send_entry(at, "stored", {"id": again["id"], "number": answer["number"]})
    assert not at.exception, at.exception
    return answer


def typed(at) -> list[str] | None:
    """The hands of the entry the page keeps (None: it keeps none)."""
    kept = entry_data(at)["kept"]
    return None if kept is None else kept["hands"]


def numbers(table, game) -> list[int]:
    return [r.number for r in table.call(games.get_game, game.id).rounds]


def deal_line(at) -> str:
    """The line under the entry's heading, as the element writes it."""
    data = entry_data(at)
    return data["texts"]["deals"].replace("{dealer}", data["dealer"])


def button(at, label):
    (found,) = [b for b in at.button if b.label == label]
    return found


def test_a_round_saved_on_another_phone_first_is_refused_here_and_saved_as_the_next(
    table, friend, game
):
    at = open_app(table.account, PLAY)
    sent = type_round(at, ["3", "9", "7"])
    saved_by(table, friend, game, 1)  # Finn saved the same round first
    answer = save(at, ["3", "9", "7"])
    assert answer == {"outcome": "moved_on", "next": 2, "latest": 1, "by": "Finn"}
    assert numbers(table, game) == [1]
    assert typed(at) == ["3", "9", "7"]  # the entry stays, kept by the page
    assert entry_data(at)["kept"]["basis"] == 1
    # "Save it as round 2"
    answer = save_again(at, table.account, sent, basis=answer["next"])
    assert (answer["outcome"], answer["number"]) == ("stored", 2)
    assert answer["line"].startswith("Round 2 saved.")
    assert numbers(table, game) == [1, 2]
    assert typed(at) is None
    data = entry_data(at)
    assert data["number"] == 3
    assert data["savers"] == {"1": "Finn", "2": "Ann"}


def test_a_game_that_moved_on_under_the_form_is_drawn_with_who_saved_it(table, friend, game):
    """The element finds by itself that its entry was begun for a round now saved (it
    says so, and offers to save it as the next or discard it): the page draws it with the
    round on show and who saved the latest rounds, and keeps the entry as typed."""
    at = open_app(table.account, PLAY)
    sent = type_round(at, ["3", "9", "7"])
    saved_by(table, friend, game, 1)
    at.run()  # what a live update does
    data = entry_data(at)
    assert (data["number"], data["dealer"], data["ended"]) == (2, "Ben", False)
    assert data["savers"] == {"1": "Finn"}  # JSON: round numbers as strings
    assert data["kept"]["basis"] == 1 and typed(at) == ["3", "9", "7"]
    assert data["checked"]["id"] == sent["id"]
    # Saved without choosing: refused, since it was begun for round 1.
    assert save(at, ["3", "9", "7"])["outcome"] == "moved_on"
    assert numbers(table, game) == [1]
    # "Discard it": the element starts an empty entry for the round on show and sends it.
    empty = {**sent, "id": "fresh1", "basis": 2, "seq": 1, "hands": ["", "", ""]}
    empty |= {"caller": None, "call": None}
    send_entry(at, "draft", empty)
    assert not at.exception, at.exception
    assert typed(at) == ["", "", ""] and entry_data(at)["kept"]["basis"] == 2
    answer = save(at, ["1", "9", "7"])
    assert (answer["outcome"], answer["number"]) == ("stored", 2)
    assert numbers(table, game) == [1, 2]


def test_saving_into_a_game_ended_elsewhere_says_who_won_and_can_reopen(table, friend, game):
    saved_by(table, friend, game, 1)
    at = open_app(table.account, PLAY)
    sent = type_round(at, ["2", "9", "7"])
    with table.resources.sessions() as session:
        perform(session, games.end_game, friend.user_id, game.id)
    answer = save(at, ["2", "9", "7"])
    assert answer["outcome"] == "ended"
    assert "This game has ended: Ann won with 3 points." in answer["message"]
    assert numbers(table, game) == [1]
    at.run()  # the element asks the page to run again after such an answer
    assert any("The game was just ended on another phone." in m for m in messages(at))
    assert entry_data(at)["ended"] is True
    assert typed(at) == ["2", "9", "7"]
    # "Reopen the game and save this round"
    answer = save_again(at, table.account, sent, reopen=True)
    assert (answer["outcome"], answer["number"]) == ("stored", 2)
    stored = table.call(games.get_game, game.id)
    assert (stored.status, len(stored.rounds)) == ("active", 2)
    assert entry_data(at)["ended"] is False


def test_everyone_may_undo_the_latest_round_and_sees_whose_it_is(table, friend, game):
    saved_by(table, friend, game, 1)
    at = open_app(table.account, PLAY)
    assert entry_data(at)["here"] is False
    button(at, "Undo round 1 (saved by Finn)").click()
    at.run()
    assert table.call(games.get_game, game.id).rounds == ()
    data = entry_data(at)
    assert data["number"] == 1
    assert data["here"] is True  # taken back here: a typed entry follows to round 1
    at.run()
    assert entry_data(at)["here"] is False  # once


def test_an_undo_of_a_round_no_longer_the_latest_is_refused(table, friend, game):
    saved_by(table, friend, game, 1)
    at = open_app(table.account, PLAY)
    undo = button(at, "Undo round 1 (saved by Finn)")
    saved_by(table, friend, game, 2, hands=("1", "9", "7"))
    undo.click()
    at.run()
    assert any("Round 1 is no longer the latest round" in m for m in messages(at))
    assert numbers(table, game) == [1, 2]
    assert entry_data(at)["here"] is False


def test_the_page_says_whose_deal_it_is(table, friend, game):
    at = open_app(table.account, PLAY)
    assert deal_line(at) == "Ann deals."
    saved_by(table, friend, game, 1)
    at.run()
    assert deal_line(at) == "Ben deals."


def test_a_player_named_like_the_no_caller_choice_is_a_caller(table):
    odd = table.call(players.add_player, table.group_id, "Nobody (the deck ran out)").id
    seats = [table.player_ids["Ann"], odd]
    game = table.call(games.start_game, table.group_id, seats, PRESETS["deck_out"])
    at = open_app(table.account, PLAY)
    nobody = "Nobody (the deck ran out) (no caller)"
    assert entry_data(at)["callers"] == [
        ["Ann", "Ann"],
        ["Nobody (the deck ran out)", "Nobody (the deck ran out)"],
        [NO_CALLER, nobody],
    ]
    assert save(at, ["9", "2"], caller="Nobody (the deck ran out)")["outcome"] == "stored"
    (stored,) = table.call(games.get_game, game.id).rounds
    assert (stored.caller_id, stored.outcome) == (odd, "lowest")
    assert save(at, ["4", "6"], caller=NO_CALLER)["outcome"] == "stored"
    last = table.call(games.get_game, game.id).rounds[-1]
    assert (last.number, last.caller_id, last.outcome) == (2, None, None)


def test_the_table_view_shows_the_game_in_large_type_with_names_as_typed(table):
    evil = table.call(players.add_player, table.group_id, "<b>Eve</b>").id
    seats = [table.player_ids["Ann"], evil]
    game = table.call(games.start_game, table.group_id, seats, PRESETS["classic"])
    ids = {"Ann": table.player_ids["Ann"], "Eve": evil}
    table.call(rounds.add_round, game.id, {ids["Ann"]: "4", evil: "9"}, ids["Ann"], "dutch")
    at = open_app(table.account, TABLE)
    assert not at.exception
    shown = "".join(element.proto.body for element in at.get("html"))
    assert "Round 2" in shown and "🃏 &lt;b&gt;Eve&lt;/b&gt; deals" in shown
    assert "<b>Eve</b>" not in shown
    assert "Last round (1): Ann called Dutch and was lowest." in shown
    assert at.get("form") == []


def test_the_table_view_without_a_game_points_to_play(app_resources):
    someone = make_table(app_resources, "zed@example.com", "Zed")
    at = open_app(someone.account, TABLE)
    assert any("No game is in progress" in m for m in messages(at))


def test_the_table_view_reads_the_latest_round_only(table, game, rounds_read):
    for number in (1, 2, 3):
        saved_by(table, table.account, game, number)
    at = open_app(table.account, TABLE)
    rounds_read.clear()
    at.run()
    assert not at.exception
    assert rounds_read == [1]
    shown = "".join(element.proto.body for element in at.get("html"))
    assert "Round 4" in shown and "Last round (3)" in shown
