"""Migration 0008 makes every member a player, asking (never linking) where a guest has
their name, and marks demo groups."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert, inspect, select

from dutch_app.services import members, players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import make_engine
from dutch_app.storage.models import Group, Membership, Player, User
from tests.integration.test_migration_totals import migrate

BEFORE = "0007_preferences_and_shares"  # the revision before 0008


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'dutch.db'}"
    return request.getfixturevalue("fresh_postgres_database")()


def test_members_without_a_player_get_one_and_a_namesake_guest_is_only_offered(url):
    from sqlalchemy.orm import Session

    engine = make_engine(url)
    try:
        migrate(engine, BEFORE)
        moment = datetime(2025, 5, 10, 18, tzinfo=UTC)
        with engine.begin() as connection:

            def user(name: str) -> int:
                return connection.scalar(
                    insert(User)
                    .values(
                        auth_provider="local",
                        auth_subject=name,
                        email=f"{name}@x.org",
                        display_name=name,
                    )
                    .returning(User.id)
                )

            olga, sam, olivia, sam_too = user("Olga"), user("Sam"), user("Olivia"), user("sam")
            group = connection.scalar(
                insert(Group)
                .values(name="G", invite_code="code", created_by=olga, data_version=3)
                .returning(Group.id)
            )
            for n, member in enumerate((olga, sam, olivia, sam_too)):
                connection.execute(
                    insert(Membership).values(
                        group_id=group,
                        user_id=member,
                        role="owner" if member == olga else "member",
                        joined_at=moment + timedelta(minutes=n),
                    )
                )
            for name, linked in (("Olga's mum", None), ("OLIVIA", None), ("Sam", sam)):
                connection.execute(
                    insert(Player).values(
                        group_id=group, name=name, name_key=name.casefold(), user_id=linked
                    )
                )
        migrate(engine, "head")
        assert "is_demo" in {c["name"] for c in inspect(engine).get_columns("groups")}
        with Session(engine) as session:
            listed = {
                p.name: p.user_id for p in perform(session, players.list_players, olga, group)
            }
            assert listed == {
                "Olga": olga,  # made for her
                "Olga's mum": None,
                "OLIVIA": None,  # Olivia's namesake: not linked, she is asked
                "Sam": sam,  # had one already
                "sam 2": sam_too,  # "sam" belongs to the other Sam
            }
            offer = perform(session, members.my_player_offer, olivia, group)
            assert offer.match.name == "OLIVIA" and offer.new_name == "Olivia 2"
            assert session.scalar(select(Group.is_demo).where(Group.id == group)) is False
            assert session.scalar(select(Group.data_version).where(Group.id == group)) == 4
        migrate(engine, BEFORE, down=True)
        assert "is_demo" not in {c["name"] for c in inspect(engine).get_columns("groups")}
    finally:
        engine.dispose()
