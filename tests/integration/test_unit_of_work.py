"""Whoever calls a service owns its transaction: services compose, the edge commits.

Run on SQLite and PostgreSQL, like every integration test.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from dutch_app.services import games, groups, players
from dutch_app.services.errors import NotFound
from dutch_app.services.unit_of_work import (
    NestedUnitOfWork,
    Transaction,
    WriteInRead,
    perform,
    transaction_of,
    writes,
)
from dutch_app.storage.models import Group, Player
from dutch_core import PRESETS
from tests.views import get_group

MISSING = 987_654_321


def player_names(session: Session, group_id: int) -> list[str]:
    return sorted(session.scalars(select(Player.name).where(Player.group_id == group_id)))


def test_a_failure_in_the_second_of_two_services_rolls_back_the_first(
    session, owner, group, seated, count_rows
):
    @writes
    def add_and_seat(own: Session, user_id: int, group_id: int) -> None:
        players.add_player(own, user_id, group_id, "Zed")
        games.start_game(own, user_id, group_id, [seated[0].id, MISSING], PRESETS["classic"])

    before = count_rows()
    with pytest.raises(NotFound):
        perform(session, add_and_seat, owner, group.id)
    assert count_rows() == before
    assert "Zed" not in player_names(session, group.id)


def test_two_services_composed_in_one_unit_are_committed_together(session, owner, group, seated):
    @writes
    def add_and_seat(own: Session, user_id: int, group_id: int) -> int:
        zed = players.add_player(own, user_id, group_id, "Zed")
        return games.start_game(
            own, user_id, group_id, [seated[0].id, zed.id], PRESETS["classic"]
        ).id

    game_id = perform(session, add_and_seat, owner, group.id)
    session.close()  # nothing of this session's is kept: what follows comes from the database
    assert "Zed" in player_names(session, group.id)
    assert [p.name for p in perform(session, games.get_game, owner, game_id).players] == [
        "Ann",
        "Zed",
    ]


def test_a_service_by_itself_never_commits(session, owner, count_rows):
    before = count_rows()
    made = groups.create_group(session, owner, "Never kept")
    assert session.in_transaction()  # still open: only the caller may end it
    session.rollback()
    assert count_rows() == before
    assert session.get(Group, made.id) is None


def test_a_service_run_by_the_unit_of_work_is_committed(session, owner, count_rows):
    before = count_rows()
    made = perform(session, groups.create_group, owner, "Kept")
    assert not session.in_transaction()
    session.rollback()  # too late to undo anything
    assert count_rows()["groups"] == before["groups"] + 1
    assert session.get(Group, made.id) is not None


def test_a_read_ends_its_transaction_and_keeps_nothing(session, owner, group):
    assert [g.name for g in perform(session, groups.list_groups, owner)] == ["Friday club"]
    assert not session.in_transaction()


def test_a_unit_of_work_inside_another_is_refused_and_writes_nothing(
    session, owner, group, count_rows
):
    @writes
    def nested(own: Session, user_id: int, group_id: int) -> None:
        players.add_player(own, user_id, group_id, "Zed")
        perform(own, players.add_player, user_id, group_id, "Yan")

    before = count_rows()
    with pytest.raises(NestedUnitOfWork):
        perform(session, nested, owner, group.id)
    assert count_rows() == before


def test_the_markers_leave_the_function_as_it_is():
    def service(session: Session, user_id: int) -> int:
        return user_id

    assert writes(service) is service
    assert service(None, 7) == 7  # type: ignore[arg-type]
    assert transaction_of(service) is Transaction.WRITE
    assert transaction_of(groups.list_groups) is Transaction.READ
    assert transaction_of(groups.create_group) is Transaction.WRITE
    assert transaction_of(groups.join_group) is Transaction.STEPS
    assert not hasattr(groups.create_group, "__wrapped__")


def test_an_unmarked_service_that_writes_is_refused_loudly_and_stores_nothing(
    session, owner, group, count_rows
):
    """A writing service someone forgot to mark would see its writes rolled back after
    the read transaction; it fails instead, naming the marker to add."""

    def adds_a_player(own: Session, user_id: int, group_id: int) -> None:
        players.add_player(own, user_id, group_id, "Zed")

    def renames_the_group(own: Session, user_id: int, group_id: int) -> None:
        own.get(Group, group_id).name = "Renamed"
        own.flush()

    def updates_with_a_statement(own: Session, user_id: int, group_id: int) -> None:
        own.execute(update(Group).where(Group.id == group_id).values(name="Renamed"))

    before = count_rows()
    for service in (adds_a_player, renames_the_group, updates_with_a_statement):
        with pytest.raises(WriteInRead, match="mark it with @writes"):
            perform(session, service, owner, group.id)
    assert count_rows() == before
    assert perform(session, get_group, owner, group.id).name == group.name
    # Marked, the same service writes.
    perform(session, writes(adds_a_player), owner, group.id)
    assert "Zed" in player_names(session, group.id)
