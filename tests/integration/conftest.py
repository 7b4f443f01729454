"""Fixtures for storage and service tests: every test runs on SQLite and on PostgreSQL.

``engine`` is made the way the app makes it (``get_engine``: migrations to head),
once per database kind and test session; ``session`` empties every table first,
so each test starts from an empty, fully migrated database.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_engine, make_session_factory, upgrade
from dutch_app.storage.models import Base, User

DATABASES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


@pytest.fixture(scope="session", params=DATABASES)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A migrated engine: a SQLite file in a temporary folder, or the test PostgreSQL database."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'dutch.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    made = get_engine(url)
    yield made
    made.dispose()


def empty_database(engine: Engine) -> None:
    """Delete every row of every table (the schema stays)."""
    tables = list(reversed(Base.metadata.sorted_tables))
    with engine.begin() as connection:
        for table in tables:
            connection.execute(delete(table))


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    """A session on an empty database."""
    empty_database(engine)
    with Session(engine, expire_on_commit=False) as opened:
        yield opened


@pytest.fixture
def make_user(session: Session) -> Callable[..., int]:
    """``make_user("Ann") -> user id``: a signed-up person."""

    def make(display_name: str) -> int:
        user = User(
            auth_provider="local",
            auth_subject=f"{display_name.lower()}@example.org",
            email=f"{display_name.lower()}@example.org",
            display_name=display_name,
        )
        session.add(user)
        session.commit()
        return user.id

    return make


@pytest.fixture
def count_rows(engine: Engine) -> Callable[[], dict[str, int]]:
    """``count_rows() -> {table: rows}`` over every table, read in a transaction of its own."""

    def count() -> dict[str, int]:
        with engine.connect() as connection:
            return {
                table.name: connection.scalar(select(func.count()).select_from(table))
                for table in Base.metadata.sorted_tables
            }

    return count


@pytest.fixture
def owner(make_user: Callable[..., int]) -> int:
    """The user who creates the group."""
    return make_user("Olga")


@pytest.fixture
def group(session: Session, owner: int):
    """A group owned by ``owner``."""
    from dutch_app.services.groups import create_group

    return perform(session, create_group, owner, "Friday club")


@pytest.fixture
def seated(session: Session, owner: int, group):
    """Four players of ``group``: Ann, Bo, Cy and Dee (PlayerViews, in that order)."""
    from dutch_app.services.players import add_player

    return [
        perform(session, add_player, owner, group.id, name) for name in ("Ann", "Bo", "Cy", "Dee")
    ]


# --- A fresh database per test, for the account backends (their own sessions) -------------


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, migrated_sqlite, tmp_path) -> Iterator[str]:
    """The URL of a fresh, migrated database of each kind: a copied SQLite file, or a new
    PostgreSQL database copied from a migrated one (a module may narrow it, as
    test_accounts.py does)."""
    if request.param == "postgres":
        yield request.getfixturevalue("migrated_postgres_database")()
        return
    path = tmp_path / "dutch.db"
    shutil.copy(migrated_sqlite, path)
    yield f"sqlite:///{path}"


@pytest.fixture
def sessions(database: str) -> Iterator[sessionmaker[Session]]:
    """A session factory on ``database``, as the app makes one."""
    engine = make_engine(database)
    upgrade(engine)
    yield make_session_factory(engine)
    engine.dispose()
