"""Writes made against an old state of a game are refused and store nothing; the poll is cheap.

Several phones at one table save rounds, undo and end the game; every write
from the Play page names the state it was made against, so a phone that has not
caught up yet can never duplicate, lose or undo the wrong round.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from dutch_app.services import games, rounds
from dutch_app.services.errors import Conflict, GameEnded, NotFound, StaleRound, ValidationError
from dutch_app.services.groups import create_group, join_group
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from dutch_core.game import GameStatus
from tests.integration.test_rounds import HISTORY_TABLES, full_scans


@pytest.fixture
def game(session, owner, group, seated):
    """A classic game of Ann, Bo, Cy and Dee, no rounds yet."""
    return perform(
        session, games.start_game, owner, group.id, [p.id for p in seated], PRESETS["classic"]
    )


@pytest.fixture
def friend(session, make_user, owner, group):
    """A second member of the group, on another phone."""
    user = make_user("Finn")
    perform(session, join_group, user, group.invite_code)
    return user


def save(session, user, game, seated, for_round, hands=("3", "9", "9", "9")):
    keyed = {player.id: hand for player, hand in zip(seated, hands, strict=True)}
    return perform(
        session,
        rounds.add_round,
        user,
        game.id,
        keyed,
        seated[0].id,
        "dutch",
        None,
        for_round=for_round,
    )


def test_a_round_for_the_next_number_is_stored(session, owner, game, seated):
    assert save(session, owner, game, seated, 1).number == 1
    assert save(session, owner, game, seated, 2).number == 2
    assert perform(session, games.get_game, owner, game.id).rounds_played == 2


def test_a_stale_round_one_form_cannot_create_round_three(
    session, owner, friend, game, seated, count_rows
):
    save(session, owner, game, seated, 1)
    save(session, owner, game, seated, 2)
    before = count_rows()
    with pytest.raises(StaleRound, match="Round 1 was already saved by Olga") as refused:
        save(session, friend, game, seated, 1, hands=("1", "2", "3", "4"))
    assert (refused.value.next_number, refused.value.latest) == (3, 2)
    assert refused.value.latest_by == "Olga"
    assert "The next round is round 3" in str(refused.value)
    assert count_rows() == before
    assert perform(session, games.get_game, owner, game.id).version == 3


def test_a_double_submission_stores_one_round(session, owner, game, seated, count_rows):
    """The same entry saved twice by the same person (a second tap that reached the server
    after the first was stored) gets the stored round back; nothing more is written."""
    first = save(session, owner, game, seated, 1)
    before = count_rows()
    again = save(session, owner, game, seated, 1)
    assert (again.id, again.number, again.version) == (first.id, 1, first.version)
    assert count_rows() == before
    assert before["rounds"] == 1


def test_a_second_tap_on_the_save_that_ended_the_game_gets_the_stored_round(
    session, owner, game, seated, count_rows
):
    """Not "the game has ended, nothing was saved; reopen it": that would invite storing
    the same round again as the next one."""
    save(session, owner, game, seated, 1, hands=("3", "40", "40", "40"))
    last = save(session, owner, game, seated, 2, hands=("3", "70", "70", "70"))
    assert perform(session, games.get_game, owner, game.id).status is GameStatus.ENDED
    before = count_rows()
    again = save(session, owner, game, seated, 2, hands=("3", "70", "70", "70"))
    assert (again.id, again.number, again.version) == (last.id, 2, last.version)
    assert count_rows() == before


def test_a_save_repeated_after_another_phone_ended_the_game_gets_the_stored_round(
    session, owner, friend, game, seated, count_rows
):
    first = save(session, owner, game, seated, 1)
    perform(session, games.end_game, friend, game.id)
    before = count_rows()
    again = save(session, owner, game, seated, 1)
    assert (again.id, again.number, again.version) == (first.id, 1, first.version)
    assert count_rows() == before
    with pytest.raises(GameEnded):
        save(session, friend, game, seated, 2)


def test_round_1_again_from_another_person_or_with_other_hands_is_refused(
    session, owner, friend, game, seated, count_rows
):
    save(session, owner, game, seated, 1)
    before = count_rows()
    with pytest.raises(StaleRound, match="Round 1 was already saved"):
        save(session, friend, game, seated, 1)
    with pytest.raises(StaleRound, match="Round 1 was already saved"):
        save(session, owner, game, seated, 1, hands=("3", "9", "9", "10"))
    assert count_rows() == before


def test_a_round_for_a_number_taken_back_is_refused(session, owner, friend, game, seated):
    first = save(session, owner, game, seated, 1)
    second = save(session, owner, game, seated, 2)
    perform(session, rounds.undo_round, friend, game.id, second.id, second.version)
    with pytest.raises(StaleRound, match="Round 2 was taken back") as refused:
        save(session, owner, game, seated, 3)
    assert refused.value.next_number == 2
    view = perform(session, games.get_game, owner, game.id)
    assert [r.id for r in view.rounds] == [first.id]


@pytest.mark.parametrize("bad", [0, -3, "2", 1.5, True])
def test_a_round_number_must_be_a_positive_whole_number(session, owner, game, seated, bad):
    with pytest.raises(ValidationError, match="for_round"):
        save(session, owner, game, seated, bad)


def test_a_round_for_an_ended_game_says_who_won_and_stores_nothing(
    session, owner, friend, game, seated, count_rows
):
    save(session, owner, game, seated, 1, hands=("3", "9", "9", "9"))
    perform(session, games.end_game, owner, game.id)
    before = count_rows()
    with pytest.raises(GameEnded, match="Ann won with 3 points") as refused:
        save(session, friend, game, seated, 2)
    assert (refused.value.winners, refused.value.total) == (("Ann",), 3)
    assert count_rows() == before
    perform(session, games.reopen_game, friend, game.id)
    assert save(session, friend, game, seated, 2).number == 2


def test_undo_takes_back_only_the_latest_round_it_names(
    session, owner, friend, game, seated, count_rows
):
    first = save(session, owner, game, seated, 1)
    second = save(session, friend, game, seated, 2)
    before = count_rows()
    with pytest.raises(Conflict, match="Round 1 is no longer the latest round: round 2 was saved"):
        perform(session, rounds.undo_round, owner, game.id, first.id, first.version)
    assert count_rows() == before
    assert perform(session, rounds.undo_round, owner, game.id, second.id, second.version) == 2
    view = perform(session, games.get_game, owner, game.id)
    assert [r.id for r in view.rounds] == [first.id]
    with pytest.raises(Conflict, match="already taken back"):
        perform(session, rounds.undo_round, friend, game.id, second.id, second.version)
    assert [r.id for r in perform(session, games.get_game, owner, game.id).rounds] == [first.id]


def test_undo_of_a_round_corrected_since_is_refused(session, owner, friend, game, seated):
    first = save(session, owner, game, seated, 1)
    keyed = {player.id: "9" for player in seated} | {seated[0].id: "1"}
    perform(
        session, rounds.edit_round, friend, first.id, first.version, keyed, seated[0].id, "dutch"
    )
    with pytest.raises(Conflict, match="corrected on another phone"):
        perform(session, rounds.undo_round, owner, game.id, first.id, first.version)
    assert len(perform(session, games.get_game, owner, game.id).rounds) == 1


def test_undo_names_a_round_of_that_game(session, owner, group, game, seated):
    other = perform(
        session, games.start_game, owner, group.id, [p.id for p in seated], PRESETS["classic"]
    )
    stored = save(session, owner, other, seated, 1)
    with pytest.raises(Conflict, match="already taken back"):
        perform(session, rounds.undo_round, owner, game.id, stored.id, stored.version)
    assert len(perform(session, games.get_game, owner, other.id).rounds) == 1


def test_the_version_changes_with_every_change_to_the_game(session, owner, friend, game, seated):
    seen = [perform(session, games.game_version, friend, game.id)]
    stored = save(session, owner, game, seated, 1)
    seen.append(perform(session, games.game_version, friend, game.id))
    keyed = {player.id: "9" for player in seated} | {seated[0].id: "2"}
    perform(
        session, rounds.edit_round, owner, stored.id, stored.version, keyed, seated[0].id, "dutch"
    )
    seen.append(perform(session, games.game_version, friend, game.id))
    perform(session, games.end_game, owner, game.id)
    seen.append(perform(session, games.game_version, friend, game.id))
    perform(session, games.reopen_game, owner, game.id)
    seen.append(perform(session, games.game_version, friend, game.id))
    latest = perform(session, games.get_game, owner, game.id).rounds[-1]
    perform(session, rounds.undo_round, owner, game.id, latest.id, latest.version)
    seen.append(perform(session, games.game_version, friend, game.id))
    assert len(set(seen)) == len(seen)


def test_a_stranger_cannot_watch_a_game(session, make_user, game):
    stranger = make_user("Zed")
    perform(session, create_group, stranger, "Elsewhere")
    with pytest.raises(NotFound, match=f"No game with id {game.id}"):
        perform(session, games.game_version, stranger, game.id)


def test_one_poll_is_one_indexed_query_that_reads_no_history_and_writes_nothing(
    session, engine, owner, friend, group, game, seated, count_rows
):
    for number in (1, 2, 3):
        save(session, owner, game, seated, number)
    before = count_rows()
    statements = []

    def keep(_conn, _cursor, statement, parameters, _context, executemany):
        statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    try:
        version = perform(session, games.game_version, friend, game.id)
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    assert version == perform(session, games.get_game, owner, game.id).version
    queries = [(s, p) for s, p in statements if s.strip().upper() != "BEGIN"]
    assert len(queries) == 1, statements
    ((statement, parameters),) = queries
    assert statement.lstrip().upper().startswith("SELECT")
    assert "games.version" in statement
    assert set(re.findall(r"\bFROM (\w+)", statement)) == {"games", "memberships"}
    assert not any(re.search(rf"\b{table}\b", statement) for table in HISTORY_TABLES[1:])
    with engine.connect() as connection:
        assert full_scans(connection, statement, parameters) == []
    assert count_rows() == before
    assert not session.in_transaction()
