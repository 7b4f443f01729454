"""Several people at once: no lost rounds, no silently overwritten corrections.

Each person works in a session (and a connection) of their own, in a thread of
their own, all released at the same moment by a barrier.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dutch_app.services.errors import Conflict
from dutch_app.services.games import get_game, start_game
from dutch_app.services.groups import join_group
from dutch_app.services.players import rename_player
from dutch_app.services.rounds import add_round, edit_round
from dutch_app.services.unit_of_work import ATTEMPTS, perform, writes
from dutch_app.storage.models import Round
from dutch_core import PRESETS
from tests.integration.threads import at_once

PEOPLE = 4
ROUNDS_EACH = 3


@pytest.fixture
def table(session, owner, make_user, group, seated):
    """An open-ended game of the four players, and four members who keep score."""
    scorers = [owner]
    for name in ("Ben", "Cleo", "Dirk"):
        scorers.append(make_user(name))
        perform(session, join_group, scorers[-1], group.invite_code)
    game = perform(
        session, start_game, owner, group.id, [p.id for p in seated], PRESETS["classic_open"]
    )
    return game, scorers


def test_rounds_entered_at_the_same_moment_are_all_kept_with_distinct_numbers(
    engine, session, table, seated
):
    game, scorers = table
    hands = {player.id: "9" for player in seated}

    def enter(scorer: int) -> Callable[[Session], list[int]]:
        def job(own: Session) -> list[int]:
            caller = seated[scorers.index(scorer)].id
            entered = {**hands, caller: str(scorers.index(scorer))}
            return [
                perform(own, add_round, scorer, game.id, entered, caller, "dutch").number
                for _ in range(ROUNDS_EACH)
            ]

        return job

    outcomes = at_once(engine, [enter(scorer) for scorer in scorers])
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    numbers = sorted(n for numbers in outcomes for n in numbers)
    assert numbers == list(range(1, PEOPLE * ROUNDS_EACH + 1))
    view = perform(session, get_game, scorers[0], game.id)
    assert [r.number for r in view.rounds] == numbers
    assert view.version == 1 + PEOPLE * ROUNDS_EACH
    by_caller = {seated[i].name: 0 for i in range(PEOPLE)}
    for stored in view.rounds:
        by_caller[stored.caller] += 1
    assert set(by_caller.values()) == {ROUNDS_EACH}


def test_two_corrections_of_the_same_round_one_wins_the_other_is_told(
    engine, session, table, seated
):
    game, scorers = table
    hands = {p.id: "9" for p in seated} | {seated[0].id: "3"}
    first = perform(session, add_round, scorers[0], game.id, hands, seated[0].id, "dutch")

    def correct(scorer: int, ann: str) -> Callable[[Session], object]:
        def job(own: Session):
            corrected = hands | {seated[0].id: ann}
            return perform(
                own, edit_round, scorer, first.id, first.version, corrected, seated[0].id, "dutch"
            )

        return job

    outcomes = at_once(engine, [correct(scorers[1], "1"), correct(scorers[2], "2")])
    winners = [o for o in outcomes if not isinstance(o, Exception)]
    losers = [o for o in outcomes if isinstance(o, Exception)]
    assert len(winners) == 1 and len(losers) == 1, outcomes
    assert isinstance(losers[0], Conflict)
    assert "changed by someone else" in str(losers[0])
    stored = perform(session, get_game, scorers[0], game.id).rounds[0]
    assert stored.version == 2
    assert stored.hands[0].hand_total == winners[0].hands[0].hand_total


def test_rounds_and_renames_at_the_same_moment_all_land(engine, session, table, seated):
    game, scorers = table
    hands = {player.id: "9" for player in seated} | {seated[0].id: "1"}
    jobs = [
        lambda own: perform(own, add_round, scorers[0], game.id, hands, seated[0].id, "dutch"),
        lambda own: perform(own, rename_player, scorers[1], seated[1].id, "Bob"),
        lambda own: perform(own, add_round, scorers[2], game.id, hands, seated[0].id, "dutch"),
        lambda own: perform(own, rename_player, scorers[3], seated[2].id, "Cyril"),
    ]
    outcomes = at_once(engine, jobs)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    view = perform(session, get_game, scorers[0], game.id)
    assert [p.name for p in view.players] == ["Ann", "Bob", "Cyril", "Dee"]
    assert [r.number for r in view.rounds] == [1, 2]


def first_round(session: Session, game_id: int) -> None:
    """Store a bare round 1 (the retry machinery needs no hands)."""
    session.add(Round(game_id=game_id, number=1, penalty_cards_due=0, version=1))
    session.commit()


def test_a_clash_on_the_round_number_is_retried_from_the_start_by_the_unit_of_work(
    session, owner, table
):
    game, _ = table
    first_round(session, game.id)
    tried = []

    @writes
    def numbering(own: Session, user_id: int) -> int:
        last = own.scalar(select(func.max(Round.number)).where(Round.game_id == game.id))
        # The first attempt takes a number as if read a moment before someone else stored it.
        number = last if not tried else last + 1
        tried.append(number)
        own.add(Round(game_id=game.id, number=number, penalty_cards_due=0, version=1))
        own.flush()
        return number

    assert perform(session, numbering, owner) == 2
    assert tried == [1, 2]
    stored = session.scalars(select(Round.number).where(Round.game_id == game.id)).all()
    assert sorted(stored) == [1, 2]


def test_a_service_called_by_itself_does_not_retry_a_clash(session, owner, table):
    """The retry belongs to the edge: the service alone meets the clash as it is."""
    game, _ = table
    first_round(session, game.id)
    tried = []

    @writes
    def numbering(own: Session, user_id: int) -> int:
        tried.append(1)
        own.add(Round(game_id=game.id, number=1, penalty_cards_due=0, version=1))
        own.flush()
        return 1

    with pytest.raises(IntegrityError):
        numbering(session, owner)
    session.rollback()
    assert tried == [1]


def test_a_clash_that_keeps_happening_ends_in_a_conflict_and_writes_nothing(
    session, owner, table, count_rows
):
    game, _ = table
    first_round(session, game.id)
    before = count_rows()
    attempts = []

    @writes
    def always_clashing(own: Session, user_id: int) -> None:
        attempts.append(1)
        own.add(Round(game_id=game.id, number=1, penalty_cards_due=0, version=1))
        own.flush()

    with pytest.raises(Conflict, match="at the same moment"):
        perform(session, always_clashing, owner)
    assert len(attempts) == ATTEMPTS
    assert count_rows() == before
