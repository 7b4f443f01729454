"""The round route the Play page's entry stores a round through: who may store, what it
stores (a complete, right round, once), and what it leaves to the page.

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
        "entry": 1,
        "hands": list(HANDS),
        "caller": "A",
        "call": "dutch",
        "penalty": "",
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


def test_a_member_stores_a_complete_round_and_learns_the_next_deal(table):
    answer = post(table, "finn", entry(table))
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "no-store"
    stored = answer.json()
    assert stored["stored"] is True
    assert stored["number"] == 1
    assert stored["dealer"] == "B"  # the deal moved one seat on
    assert stored["over"] is False
    (saved,) = table.rounds()
    assert [hand.round_score for hand in saved.hands] == [3, 9, 7]
    assert saved.entered_by == table.call(games.get_game, table.game_id).rounds[0].entered_by
    assert stored["version"] == table.call(games.game_version, table.game_id)


def test_the_same_round_sent_twice_is_stored_once(table):
    assert post(table, "ann", entry(table)).json()["stored"] is True
    again = post(table, "ann", entry(table))  # a retried request, or a second phone
    assert again.status_code == 200
    assert len(table.rounds()) == 1
    other = post(table, "finn", entry(table, hands=["4", "9", "7"]))
    assert other.json() == {"stored": False}  # round 1 is taken: the page says so
    assert len(table.rounds()) == 1


def test_an_incomplete_or_wrong_round_is_left_to_the_page_with_nothing_written(table):
    for changes in (
        {"hands": ["3", "", "7"]},  # an empty hand (Enter in a half-filled form)
        {"hands": ["3", "K", "7"]},  # a King needs its colour
        {"caller": None},  # nobody chose who ended the round
        {"call": None},  # nor how
        {"caller": NO_CALLER},  # "nobody called" is not a choice under these rules
        {"hands": ["3", "2", "7"]},  # A is beaten: penalty cards are due and missing
        {"hands": ["3", "2", "7"], "penalty": "KX"},  # and they are not cards
    ):
        answer = post(table, "ann", entry(table, **changes))
        assert (answer.status_code, answer.json()) == (200, {"stored": False}), changes
    assert table.rounds() == ()


def test_a_beaten_call_with_its_penalty_cards_is_stored_with_them(table):
    answer = post(table, "ann", entry(table, hands=["3", "2", "7"], penalty="4S KD"))
    assert answer.json()["stored"] is True
    (saved,) = table.rounds()
    assert saved.penalty_text == "4S KD"
    assert [hand.round_score for hand in saved.hands] == [7, 2, 7]


def test_a_penalty_text_left_in_a_hidden_field_is_not_the_rounds(table):
    answer = post(table, "ann", entry(table, penalty="KS KC"))  # no cards are due
    assert answer.json()["stored"] is True
    (saved,) = table.rounds()
    assert saved.penalty_text is None
    assert [hand.round_score for hand in saved.hands] == [3, 9, 7]


def test_a_round_for_a_number_the_game_has_passed_is_refused(table):
    assert post(table, "ann", entry(table, round=2)).json() == {"stored": False}
    assert post(table, "ann", entry(table)).json()["stored"] is True
    assert post(table, "finn", entry(table, hands=["2", "9", "7"])).json() == {"stored": False}
    assert len(table.rounds()) == 1


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
        {"entry": "1"},
        {"tab": "not a tab name!"},
    ):
        assert post(table, "ann", entry(table, **changes)).status_code == 400, changes
    assert table.rounds() == ()


def test_a_body_larger_than_any_entry_is_refused_unread(table):
    big = entry(table, hands=["3", "9", "x" * MAX_BODY])
    assert post(table, "ann", big).status_code == 413
    assert table.rounds() == ()


def test_a_long_text_is_cut_and_checked_like_any_other(table):
    answer = post(table, "ann", entry(table, hands=["3", "9", "7" + " " * (MAX_TEXT * 4)]))
    assert answer.json()["stored"] is True  # the spaces cut off; the hand is still 7
    long_cards = "2C " * (MAX_TEXT // 2)
    assert post(table, "ann", entry(table, 2, hands=["3", "9", long_cards])).json() == {
        "stored": False  # more twos than a deck has: the page says so
    }
    assert len(table.rounds()) == 1


def test_the_saving_tabs_own_change_does_not_wake_its_live_request(table):
    tab = new_tab_name()
    stored = post(table, "ann", entry(table, tab=tab)).json()
    assert table.route.own.of((Watched.GAME, table.game_id), tab) == stored["version"]
    assert table.route.own.of((Watched.GAME, table.game_id), new_tab_name()) is None


def test_the_round_that_ends_the_game_says_so(table):
    rules = HouseRules(end=EndCondition.after_rounds(1))
    seats = [player.id for player in table.call(games.get_game, table.game_id).players]
    short = table.call(
        games.start_game, table.call(games.get_game, table.game_id).group_id, seats, rules
    )
    answer = post(table, "ann", entry(table, game=short.id)).json()
    assert answer["stored"] is True
    assert answer["over"] is True
