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


def type_round(at, hands, caller="Ann", call="dutch"):
    """Type a round into the entry without saving it (the element sends it as a draft)."""
    send_entry(at, "draft", round_payload(at, hands, caller, call))
    assert not at.exception, at.exception


def save(at, hands, caller="Ann", call="dutch"):
    """Tap Save on the entry holding this round (its whole text travels with the tap)."""
    save_round(at, hands, caller, None if caller == NO_CALLER else call)
    assert not at.exception, at.exception


def typed(at) -> list[str]:
    """The hands in the entry, as the page keeps them."""
    return entry_data(at)["fill"]["hands"]


def deal_line(at) -> str:
    """The line under the entry's heading, as the element writes it."""
    data = entry_data(at)
    return data["texts"]["deals"].replace("{dealer}", data["dealer"])


def button(at, label):
    (found,) = [b for b in at.button if b.label == label]
    return found


def test_a_round_saved_on_another_phone_is_refused_here_and_the_entry_kept(table, friend, game):
    at = open_app(table.account, PLAY)
    type_round(at, ["3", "9", "7"])
    saved_by(table, friend, game, 1)  # Finn saved the same round first
    save(at, ["3", "9", "7"])
    assert any("Round 1 was already saved by Finn on another phone" in m for m in messages(at))
    assert len(table.call(games.get_game, game.id).rounds) == 1
    assert typed(at) == ["3", "9", "7"]
    button(at, "Save it as round 2").click()
    at.run()
    assert [r.number for r in table.call(games.get_game, game.id).rounds] == [1, 2]
    assert typed(at) == ["", "", ""]
    assert entry_data(at)["number"] == 3


def test_a_game_that_moved_on_under_the_form_says_so_and_offers_both_ways(table, friend, game):
    at = open_app(table.account, PLAY)
    type_round(at, ["3", "9", "7"])
    saved_by(table, friend, game, 1)
    at.run()  # what a live update does
    assert entry_data(at)["number"] == 2
    assert any("Round 1 was just saved by Finn on another phone." in m for m in messages(at))
    assert typed(at) == ["3", "9", "7"]  # the entry is drawn again with what was typed
    save(at, ["3", "9", "7"])  # saved without choosing: refused, since it was begun for round 1
    assert any("Round 1 was already saved by Finn" in m for m in messages(at))
    assert len(table.call(games.get_game, game.id).rounds) == 1
    button(at, "Discard it").click()
    at.run()
    assert typed(at) == ["", "", ""]
    assert not any("already saved" in m for m in messages(at))
    save(at, ["1", "9", "7"])
    assert [r.number for r in table.call(games.get_game, game.id).rounds] == [1, 2]


def test_saving_into_a_game_ended_elsewhere_says_who_won_and_can_reopen(table, friend, game):
    saved_by(table, friend, game, 1)
    at = open_app(table.account, PLAY)
    type_round(at, ["2", "9", "7"])
    with table.resources.sessions() as session:
        perform(session, games.end_game, friend.user_id, game.id)
    save(at, ["2", "9", "7"])
    assert any("This game has ended: Ann won with 3 points." in m for m in messages(at))
    assert typed(at) == ["2", "9", "7"]
    assert len(table.call(games.get_game, game.id).rounds) == 1
    button(at, "Reopen the game and save this round").click()
    at.run()
    stored = table.call(games.get_game, game.id)
    assert (stored.status, len(stored.rounds)) == ("active", 2)


def test_everyone_may_undo_the_latest_round_and_sees_whose_it_is(table, friend, game):
    saved_by(table, friend, game, 1)
    at = open_app(table.account, PLAY)
    button(at, "Undo round 1 (saved by Finn)").click()
    at.run()
    assert table.call(games.get_game, game.id).rounds == ()
    assert entry_data(at)["number"] == 1


def test_an_undo_of_a_round_no_longer_the_latest_is_refused(table, friend, game):
    saved_by(table, friend, game, 1)
    at = open_app(table.account, PLAY)
    undo = button(at, "Undo round 1 (saved by Finn)")
    saved_by(table, friend, game, 2, hands=("1", "9", "7"))
    undo.click()
    at.run()
    assert any("Round 1 is no longer the latest round" in m for m in messages(at))
    assert [r.number for r in table.call(games.get_game, game.id).rounds] == [1, 2]


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
    save(at, ["9", "2"], caller="Nobody (the deck ran out)")
    (stored,) = table.call(games.get_game, game.id).rounds
    assert (stored.caller_id, stored.outcome) == (odd, "lowest")
    save(at, ["4", "6"], caller=NO_CALLER)
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
