"""The round route, the one way the Play page's entry stores a round: who may store, what
it stores (a complete, right round, once), and how it answers every outcome (stored,
invalid, moved_on, ended, refused) in the page's language.

The route runs in a real Starlette application (httpx speaks HTTP to it in-process) in
front of a real database (SQLite and PostgreSQL) and the local account store; the browser
tests in tests/e2e/test_round_entry.py save rounds through it from the page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import httpx
import pytest
from sqlalchemy.orm import Session, sessionmaker
from starlette.applications import Starlette

from dutch_app import web
from dutch_app.accounts.local import LocalBackend
from dutch_app.round_payload import MAX_TEXT, NO_CALLER
from dutch_app.services import games
from dutch_app.services.live import Watched
from dutch_app.services.unit_of_work import perform
from dutch_app.web.live import OwnChanges, new_tab_name
from dutch_app.web.round_route import MAX_BODY, RoundRoute, round_route_path
from dutch_core import EndCondition, HouseRules
from dutch_core.game import GameStatus
from tests.integration.test_live_route import people_at_a_table, run

ROUTE = round_route_path("")
HANDS = ["3", "9", "7"]


@dataclass
class Table:
    sessions: sessionmaker[Session]
    accounts: LocalBackend
    app: Starlette
    route: RoundRoute
    owner: int
    game_id: int
    tokens: dict[str, str]

    def call(self, service, *args, **kwargs):
        with self.sessions() as session:
            return perform(session, service, self.owner, *args, **kwargs)

    def rounds(self):
        return self.call(games.get_game, self.game_id).rounds


@pytest.fixture
def table(sessions) -> Table:
    """Ann's game of three (A, B, C) in her group; Finn, a member; Sam, in no group."""
    at = people_at_a_table(sessions)
    route = RoundRoute(lambda: at.resources, own=OwnChanges())
    app = Starlette(routes=web.routes("", round_route=route), middleware=web.middleware())
    return Table(sessions, at.accounts, app, route, at.owner, at.game_id, at.tokens)


def entry(table: Table, number: int = 1, **changes) -> dict:
    """What the page's element sends for round ``number``: A calls Dutch with the lowest."""
    sent = {
        "game": table.game_id,
        "round": number,
        "id": "e1",
        "basis": number,
        "seq": 1,
        "hands": list(HANDS),
        "caller": "A",
        "call": "dutch",
        "penalty": "",
        "lang": "en",
        "reopen": False,
    }
    return {**sent, **changes}


def post(
    table: Table,
    who: str | None,
    body: object,
    *,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    cookies = {} if who is None else {"dutch_session": table.tokens[who]}
    sent_headers = {"content-type": "application/json", **(headers or {})}
    content = raw if raw is not None else json.dumps(body).encode()

    async def one() -> httpx.Response:
        transport = httpx.ASGITransport(app=table.app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://app", cookies=cookies
        ) as http:
            return await http.post(ROUTE, content=content, headers=sent_headers)

    return run(one())


def answered(response: httpx.Response, outcome: str) -> dict:
    """The route's answer, after checking it is the ``outcome`` expected (every outcome is
    an answer of 200 that no cache keeps)."""
    assert response.status_code == 200, response.content
    assert response.headers["cache-control"] == "no-store"
    answer = response.json()
    assert answer["outcome"] == outcome, answer
    return answer


def status(table: Table) -> GameStatus:
    return table.call(games.get_game, table.game_id).status


def test_a_member_stores_a_complete_round_and_learns_the_next_deal(table):
    stored = answered(post(table, "finn", entry(table)), "stored")
    assert stored["number"] == 1
    assert stored["dealer"] == "B"  # the deal moved one seat on
    assert stored["over"] is False
    assert stored["line"].startswith("Round 1 saved. ")  # and how the caller fared
    assert "A called Dutch" in stored["line"]
    (saved,) = table.rounds()
    assert [hand.round_score for hand in saved.hands] == [3, 9, 7]
    assert saved.entered_by == table.call(games.get_game, table.game_id).rounds[0].entered_by
    assert stored["version"] == table.call(games.game_version, table.game_id)


def test_the_same_round_sent_twice_is_stored_once(table):
    first = answered(post(table, "ann", entry(table)), "stored")
    # a retried request whose first answer was lost, or a double tap
    again = answered(post(table, "ann", entry(table)), "stored")
    assert (again["number"], again["dealer"], again["over"]) == (1, "B", False)
    assert again["line"] == first["line"]
    assert again["version"] in (None, first["version"])  # never a version not stored
    assert len(table.rounds()) == 1
    assert table.call(games.game_version, table.game_id) == first["version"]
    other = answered(post(table, "finn", entry(table, hands=["4", "9", "7"])), "moved_on")
    assert (other["next"], other["latest"], other["by"]) == (2, 1, "ann")
    assert len(table.rounds()) == 1


def test_the_same_entry_from_another_person_is_not_taken_for_a_replay(table):
    answered(post(table, "ann", entry(table)), "stored")
    other = answered(post(table, "finn", entry(table)), "moved_on")  # another phone
    assert (other["next"], other["latest"], other["by"]) == (2, 1, "ann")
    assert len(table.rounds()) == 1


@pytest.mark.parametrize(
    ("changes", "slots", "first"),
    [
        ({"hands": ["3", "", "7"]}, {"hand_1"}, "hand_1"),  # Enter in a half-filled form
        ({"hands": ["3", "K", "7"]}, {"hand_1"}, "hand_1"),  # a King needs its colour
        ({"hands": ["", "K", "7"]}, {"hand_0", "hand_1"}, "hand_0"),  # two, in seat order
        ({"caller": None}, {"caller"}, "caller"),  # nobody chose who ended the round
        ({"call": None}, {"caller"}, "call_type"),  # nor how
        ({"caller": NO_CALLER}, {"caller"}, "caller"),  # not a choice under these rules
        ({"hands": ["3", "2", "7"]}, {"penalty"}, "penalty"),  # A beaten: cards due, missing
        ({"hands": ["3", "2", "7"], "penalty": "KX"}, {"penalty"}, "penalty"),  # not cards
    ],
)
def test_an_incomplete_or_wrong_round_is_answered_by_field_with_nothing_written(
    table, changes, slots, first
):
    invalid = answered(post(table, "ann", entry(table, **changes)), "invalid")
    assert set(invalid["fields"]) == slots
    assert invalid["first"] == first
    assert invalid["lines"] == list(invalid["fields"].values())  # in the fields' order
    count = "this problem" if len(slots) == 1 else f"these {len(slots)} problems"
    assert invalid["heading"] == f"The round was not saved. Fix {count} first:"
    assert table.rounds() == ()
    assert table.route.own.of((Watched.GAME, table.game_id), "tab") is None


def test_an_invalid_answer_says_what_is_wrong_with_each_field(table):
    king = answered(post(table, "ann", entry(table, hands=["3", "K", "7"])), "invalid")
    assert king["fields"] == {"hand_1": king["lines"][0]}
    assert king["fields"]["hand_1"].startswith("B: 'K' needs a colour")
    assert king["first"] == "hand_1"
    nobody = answered(post(table, "ann", entry(table, caller=None)), "invalid")
    assert nobody["fields"] == {"caller": "Choose who ended the round."}
    assert nobody["first"] == "caller"
    how = answered(post(table, "ann", entry(table, call=None)), "invalid")
    assert how["fields"] == {"caller": "Choose how A ended the round: Dutch or Auto Dutch."}
    assert how["first"] == "call_type"
    assert table.rounds() == ()


def test_the_answer_is_in_the_language_the_page_speaks(table):
    king = answered(post(table, "ann", entry(table, hands=["3", "K", "7"], lang="nl")), "invalid")
    assert king["heading"] == "De ronde is niet opgeslagen. Los eerst dit probleem op:"
    assert king["fields"]["hand_1"].startswith("B: 'K' heeft een kleur nodig")
    nobody = answered(post(table, "ann", entry(table, caller=None, lang="nl")), "invalid")
    assert nobody["fields"] == {"caller": "Kies wie de ronde beëindigde."}
    both = answered(post(table, "ann", entry(table, hands=["", "K", "7"], lang="nl")), "invalid")
    assert both["heading"] == "De ronde is niet opgeslagen. Los eerst deze 2 problemen op:"
    stored = answered(post(table, "ann", entry(table, lang="nl")), "stored")
    assert stored["line"].startswith("Ronde 1 opgeslagen. ")
    # The next request in English is answered in English: no language is left behind.
    english = answered(post(table, "ann", entry(table, 2, caller=None)), "invalid")
    assert english["fields"] == {"caller": "Choose who ended the round."}


def test_without_a_language_the_browsers_is_used_and_an_unknown_one_is_english(table):
    browser = entry(table, caller=None, locale="nl-NL")
    del browser["lang"]
    assert answered(post(table, "ann", browser), "invalid")["fields"] == {
        "caller": "Kies wie de ronde beëindigde."
    }
    for odd in ({"lang": "xx"}, {"lang": None}, {"lang": 5}, {"locale": ["nl"]}):
        answer = answered(post(table, "ann", entry(table, caller=None, **odd)), "invalid")
        assert answer["fields"] == {"caller": "Choose who ended the round."}, odd
    assert table.rounds() == ()


@pytest.mark.parametrize("lang", [["nl"], {"nl": 1}])
def test_a_language_of_the_wrong_kind_is_not_taken_for_a_database_away(table, lang):
    answer = post(table, "ann", entry(table, lang=lang))
    assert answer.status_code in (200, 400)
    assert len(table.rounds()) == (answer.status_code == 200)


def test_a_beaten_call_with_its_penalty_cards_is_stored_with_them(table):
    answered(post(table, "ann", entry(table, hands=["3", "2", "7"], penalty="4S KD")), "stored")
    (saved,) = table.rounds()
    assert saved.penalty_text == "4S KD"
    assert [hand.round_score for hand in saved.hands] == [7, 2, 7]


def test_a_penalty_text_left_in_a_hidden_field_is_not_the_rounds(table):
    answered(post(table, "ann", entry(table, penalty="KS KC")), "stored")  # no cards are due
    (saved,) = table.rounds()
    assert saved.penalty_text is None
    assert [hand.round_score for hand in saved.hands] == [3, 9, 7]


def test_a_round_for_a_number_the_game_has_passed_is_refused(table):
    ahead = answered(post(table, "ann", entry(table, round=2)), "moved_on")
    assert (ahead["next"], ahead["latest"], ahead["by"]) == (1, 0, None)
    answered(post(table, "ann", entry(table)), "stored")
    behind = answered(post(table, "finn", entry(table, hands=["2", "9", "7"])), "moved_on")
    assert (behind["next"], behind["latest"], behind["by"]) == (2, 1, "ann")
    assert len(table.rounds()) == 1


def test_moved_on_names_who_saved_the_latest_round_and_the_next_number(table):
    answered(post(table, "ann", entry(table)), "stored")
    answered(post(table, "finn", entry(table, 2, hands=["5", "9", "7"])), "stored")
    late = answered(post(table, "ann", entry(table, 2, hands=["1", "9", "7"])), "moved_on")
    assert late == {"outcome": "moved_on", "next": 3, "latest": 2, "by": "finn"}
    # An entry for an older round names who saved that round.
    far = answered(post(table, "finn", entry(table, 1, hands=["1", "9", "7"])), "moved_on")
    assert far == {"outcome": "moved_on", "next": 3, "latest": 2, "by": "ann"}
    ahead = answered(post(table, "ann", entry(table, 5)), "moved_on")  # taken back since
    assert ahead == {"outcome": "moved_on", "next": 3, "latest": 2, "by": "finn"}
    assert len(table.rounds()) == 2
    answered(post(table, "ann", entry(table, 3, hands=["1", "9", "7"])), "stored")
    assert len(table.rounds()) == 3


def test_without_a_session_the_route_answers_401(table):
    assert post(table, None, entry(table)).status_code == 401
    table.tokens["forged"] = table.tokens["ann"][:-2] + "xx"
    assert post(table, "forged", entry(table)).status_code == 401
    assert table.rounds() == ()


def test_a_stranger_and_a_guessed_game_get_the_same_404(table):
    stranger = post(table, "sam", entry(table))
    assert (stranger.status_code, stranger.content) == (404, b"")
    for guess in (table.game_id + 1, 0, 2**31 - 1):
        assert post(table, "ann", entry(table, game=guess)).status_code == 404
    assert table.rounds() == ()


def test_requests_from_elsewhere_or_not_json_are_refused(table):
    cross = post(table, "ann", entry(table), headers={"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403
    form = post(table, "ann", entry(table), headers={"content-type": "text/plain"})
    assert form.status_code == 415
    assert table.rounds() == ()


@pytest.mark.parametrize(
    "raw",
    [
        b"not json",
        b"[]",
        b"null",
        b'{"game": "1", "round": 1}',
        b'{"game": -1, "round": 1}',
        b'{"game": 1e400, "round": 1}',
        b"[" * 100_00 + b"]" * 100_00,
        '{"game": 1, "round": 1, "hands": ["\u0000", "\U0001f0a1", "\u202e"]}'.encode(),
    ],
)
def test_odd_bodies_get_400_and_write_nothing(table, raw):
    raw = raw.replace(b'"game": 1,', f'"game": {table.game_id},'.encode())
    answer = post(table, "ann", None, raw=raw)
    assert answer.status_code in (400, 413)
    assert table.rounds() == ()


def test_an_entry_of_the_wrong_shape_is_refused(table):
    for changes in (
        {"hands": ["3", "9"]},  # a seat short
        {"hands": "3 9 7"},
        {"hands": [3, 9, 7]},
        {"hands": ["3", None, "7"]},
        {"penalty": 5},
        {"penalty": None},
        {"round": True},
        {"round": "1"},
        {"round": -1},
        {"tab": "not a tab name!"},
    ):
        assert post(table, "ann", entry(table, **changes)).status_code == 400, changes
    assert table.rounds() == ()


def test_an_entry_number_is_no_longer_part_of_an_entry(table):
    answered(post(table, "ann", entry(table, entry="1")), "stored")  # an older page's field
    assert len(table.rounds()) == 1


def test_a_body_larger_than_any_entry_is_refused_unread(table):
    big = entry(table, hands=["3", "9", "x" * MAX_BODY])
    assert post(table, "ann", big).status_code == 413
    assert table.rounds() == ()


def test_a_long_text_is_cut_and_checked_like_any_other(table):
    stored = answered(
        post(table, "ann", entry(table, hands=["3", "9", "7" + " " * MAX_TEXT * 4])), "stored"
    )
    assert stored["number"] == 1  # the spaces cut off; the hand is still 7
    long_cards = "2C " * (MAX_TEXT // 2)
    invalid = answered(post(table, "ann", entry(table, 2, hands=["3", "9", long_cards])), "invalid")
    assert set(invalid["fields"]) == {"hand_2"}  # more twos than a deck has
    assert len(table.rounds()) == 1


def test_the_saving_tabs_own_change_does_not_wake_its_live_request(table):
    tab = new_tab_name()
    stored = answered(post(table, "ann", entry(table, tab=tab)), "stored")
    assert table.route.own.of((Watched.GAME, table.game_id), tab) == stored["version"]
    assert table.route.own.of((Watched.GAME, table.game_id), new_tab_name()) is None


def short_game(table: Table) -> int:
    """A game of the same three in Ann's group that ends after its first round."""
    rules = HouseRules(end=EndCondition.after_rounds(1))
    game = table.call(games.get_game, table.game_id)
    seats = [player.id for player in game.players]
    return table.call(games.start_game, game.group_id, seats, rules).id


def test_the_round_that_ends_the_game_says_so(table):
    table.game_id = short_game(table)
    answer = answered(post(table, "ann", entry(table)), "stored")
    assert answer["over"] is True
    assert status(table) is GameStatus.ENDED


def test_a_replay_of_the_round_that_ended_the_game_is_answered_stored_once(table):
    table.game_id = short_game(table)
    first = answered(post(table, "ann", entry(table)), "stored")
    version = table.call(games.game_version, table.game_id)
    again = answered(post(table, "ann", entry(table)), "stored")  # its answer was lost
    assert (again["number"], again["over"], again["dealer"]) == (1, True, "B")
    assert again["line"] == first["line"]
    assert len(table.rounds()) == 1
    assert status(table) is GameStatus.ENDED
    assert table.call(games.game_version, table.game_id) == version  # nothing written


def test_an_ended_game_says_who_won_and_is_reopened_with_the_round(table):
    answered(post(table, "ann", entry(table)), "stored")  # A: 3, B: 9, C: 7
    table.call(games.end_game, table.game_id)
    second = entry(table, 2, hands=["8", "2", "9"], caller="B")
    ended = answered(post(table, "finn", second), "ended")
    assert ended["message"].startswith("This game has ended: A won with 3 points.")
    assert set(ended) == {"outcome", "message", "reopen"} and ended["reopen"] is True
    assert (len(table.rounds()), status(table)) == (1, GameStatus.ENDED)
    dutch = answered(post(table, "finn", {**second, "lang": "nl"}), "ended")
    assert dutch["message"].startswith("Dit spel is afgelopen: A won met 3 punten.")
    stored = answered(post(table, "finn", {**second, "reopen": True}), "stored")
    assert (stored["number"], stored["over"], stored["dealer"]) == (2, False, "C")
    assert status(table) is GameStatus.ACTIVE
    assert [hand.round_score for hand in table.rounds()[1].hands] == [8, 2, 9]
    assert stored["version"] == table.call(games.game_version, table.game_id)


def test_a_refused_reopen_leaves_the_game_ended_with_nothing_written(table):
    answered(post(table, "ann", entry(table)), "stored")
    table.call(games.end_game, table.game_id)
    version = table.call(games.game_version, table.game_id)
    tab = new_tab_name()
    for number in (1, 3):  # saved already, or taken back since: a stale round number
        stale = entry(table, number, hands=["8", "2", "9"], caller="B", reopen=True, tab=tab)
        moved = answered(post(table, "finn", stale), "moved_on")
        assert (moved["next"], moved["latest"], moved["by"]) == (2, 1, "ann")
    nobody = entry(table, 2, caller=None, reopen=True)  # not an entry to store either
    answered(post(table, "finn", nobody), "invalid")
    assert status(table) is GameStatus.ENDED
    assert len(table.rounds()) == 1
    assert table.call(games.game_version, table.game_id) == version
    assert table.route.own.of((Watched.GAME, table.game_id), tab) is None


def test_a_game_past_its_end_is_not_reopened_by_a_round(table):
    table.game_id = short_game(table)
    answered(post(table, "ann", entry(table)), "stored")
    version = table.call(games.game_version, table.game_id)
    second = entry(table, 2, hands=["8", "2", "9"], caller="B")
    ended = answered(post(table, "ann", second), "ended")
    assert ended["message"] == (
        "This game has ended: A won with 3 points. Nothing was saved; start a new game to play on."
    )
    assert ended["reopen"] is False  # the element offers no reopening that cannot take it
    refused = answered(post(table, "ann", {**second, "reopen": True}), "refused")
    assert "start a new game" in refused["message"]
    assert status(table) is GameStatus.ENDED
    assert len(table.rounds()) == 1
    assert table.call(games.game_version, table.game_id) == version


def test_a_round_kept_on_a_phone_for_another_account_is_not_stored(table):
    """Ann's round, kept on a phone where Finn has signed in since, reaches the route with
    Finn's cookie: it is not his to save, and nothing is written."""
    answer = answered(post(table, "finn", entry(table, account=table.owner)), "other_account")
    assert answer == {"outcome": "other_account"}
    assert table.rounds() == ()
    stored = answered(post(table, "ann", entry(table, account=table.owner)), "stored")
    assert stored["number"] == 1
