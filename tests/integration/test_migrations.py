"""Migrations: an empty database reaches the newest schema, which matches the models exactly."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.orm import Session

from dutch_app.storage.db import MIGRATIONS_DIR, get_engine, make_engine, migrating, upgrade
from dutch_app.storage.models import Base, Group, Round, User

PROJECT_ROOT = Path(__file__).resolve().parents[2]
HEAD = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_url(request, tmp_path) -> str:
    """The URL of a database with nothing in it yet."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'dutch.db'}"
    return request.getfixturevalue("fresh_postgres_database")()


def differences(engine) -> list:
    with engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), Base.metadata)


def revision(engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_there_is_one_line_of_migrations():
    assert len(ScriptDirectory(str(MIGRATIONS_DIR)).get_heads()) == 1


def test_start_up_migrates_an_empty_database_to_exactly_the_models(empty_url):
    engine = get_engine(empty_url)
    try:
        assert revision(engine) == HEAD
        assert differences(engine) == []
        tables = set(inspect(engine).get_table_names())
        assert {"users", "local_credentials", "throttle_counters", "rounds"} <= tables
        upgrade(engine)  # a second start-up finds nothing to do
        assert revision(engine) == HEAD
    finally:
        engine.dispose()


def test_downgrading_to_nothing_and_back_works(empty_url):
    engine = make_engine(empty_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    try:
        upgrade(engine)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        upgrade(engine)
        assert differences(engine) == []
    finally:
        engine.dispose()


def test_alembic_upgrade_head_from_the_project_root(empty_url):
    finished = subprocess.run(
        [sys.executable, "-m", "alembic", "-x", f"database_url={empty_url}", "upgrade", "head"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    engine = make_engine(empty_url)
    try:
        assert revision(engine) == HEAD
    finally:
        engine.dispose()


def _at_revision(engine, target: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, target)


ROWS_AT_0002 = [
    "INSERT INTO users (id, auth_provider, auth_subject, email, display_name, created_at,"
    " session_epoch) VALUES (1, 'local', 'ann@x.org', 'ann@x.org', 'Ann', :t, 3),"
    " (2, 'local', 'bo@x.org', 'bo@x.org', 'Bo', :t, 0),"
    " (3, 'local', 'cy@x.org', 'cy@x.org', 'Cy', :t, 0)",
    "INSERT INTO local_credentials (user_id, password_hash, updated_at) VALUES (1, 'h1', :t)",
    "INSERT INTO login_attempts (id, email, attempted_at, succeeded)"
    " VALUES (1, 'ann@x.org', :t, true)",
    "INSERT INTO groups (id, name, invite_code, created_at, created_by, data_version)"
    " VALUES (1, 'Club', 'CODE1', :t, 1, 7), (2, 'Other', 'CODE2', :t, 2, 1)",
    "INSERT INTO memberships (group_id, user_id, role, joined_at)"
    " VALUES (1, 1, 'owner', :t), (1, 2, 'member', :t)",
    "INSERT INTO players (id, group_id, name, name_key, user_id, merged_into_id, created_at)"
    " VALUES (1, 1, 'Ann', 'ann', 1, NULL, :t), (2, 1, 'Bo', 'bo', 2, NULL, :t),"
    " (3, 1, 'Old Bo', NULL, NULL, 2, :t)",
    "INSERT INTO games (id, group_id, rules, status, started_at, notes, created_by, version)"
    " VALUES (1, 1, '{}', 'active', :t, 'n', 1, 2)",
    "INSERT INTO game_players (game_id, seat, player_id) VALUES (1, 0, 1), (1, 1, 2)",
    "INSERT INTO rounds (id, game_id, number, caller_player_id, penalty_cards_due, entered_by,"
    " entered_at, version) VALUES (1, 1, 1, 1, 0, 1, :t, 1), (2, 1, 2, 2, 0, 1, :t, 1)",
    "INSERT INTO round_hands (round_id, player_id, seat, cards, hand_total, penalty_points,"
    " round_score, is_caller) VALUES (1, 1, 0, NULL, 3, 0, 3, true),"
    " (1, 2, 1, NULL, 9, 0, 9, false), (2, 1, 0, NULL, 5, 0, 5, false),"
    " (2, 2, 1, NULL, 1, 0, 1, true)",
]


def _snapshot(connection) -> dict[str, list]:
    """The rows of every table that 0002 had and the newest schema still has (sign-in
    attempts were replaced by throttle counters in 0004 and are not carried over), in the
    columns 0002 had."""
    tables = ["users", "local_credentials", "groups", "memberships"]
    tables += ["players", "games", "game_players", "rounds", "round_hands"]
    columns = {
        "users": "id, email, session_epoch",
        "groups": "id, name, data_version",
        "games": "id, group_id, rules, status, started_at, notes, created_by, version",
        "rounds": "id, game_id, number, caller_player_id, penalty_cards_due, entered_by, version",
        "round_hands": "round_id, player_id, seat, cards, hand_total, penalty_points, "
        "round_score, is_caller",
    }
    return {
        table: sorted(
            tuple(row)
            for row in connection.exec_driver_sql(
                f"SELECT {columns.get(table, '*')} FROM {table}"  # noqa: S608
            )
        )
        for table in tables
    }


def test_migrating_a_database_with_data_keeps_it_and_never_reuses_ids(empty_url):
    """A database made at 0002, with rows in every table and the newest user and round
    deleted, keeps every row, reference and index, and hands out only new ids."""
    engine = make_engine(empty_url)
    try:
        _at_revision(engine, "0002")
        with engine.begin() as connection:
            for statement in ROWS_AT_0002:
                connection.execute(text(statement), {"t": datetime(2026, 1, 1, tzinfo=UTC)})
            if connection.dialect.name == "postgresql":  # as if the ids had been handed out
                for table in ("users", "groups", "players", "games", "rounds", "login_attempts"):
                    sql = f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id)"
                    connection.exec_driver_sql(f"{sql} FROM {table}))")
            connection.exec_driver_sql("DELETE FROM users WHERE id = 3")
            before = _snapshot(connection)
        indexes_before = {
            table: sorted(ix["name"] for ix in inspect(engine).get_indexes(table))
            for table in ("games", "memberships")
        }
        upgrade(engine)
        assert revision(engine) == HEAD
        assert differences(engine) == []
        with engine.begin() as connection:
            assert _snapshot(connection) == before
            secrets_ = connection.exec_driver_sql("SELECT session_secret FROM users").scalars()
            keys = connection.exec_driver_sql("SELECT cache_key FROM groups").scalars().all()
            assert all(len(s) == 64 for s in secrets_)
            assert len(set(keys)) == 2 and all(len(k) == 64 for k in keys)
            # The references still hold: deleting the group cascades to its rows.
            assert (
                connection.exec_driver_sql(
                    "SELECT COUNT(*) FROM round_hands WHERE round_id = 2"
                ).scalar()
                == 2
            )
        assert {
            table: sorted(ix["name"] for ix in inspect(engine).get_indexes(table))
            for table in ("games", "memberships")
        } == indexes_before
        assert "login_attempts" not in inspect(engine).get_table_names()
        with Session(engine) as session:
            session.execute(text("DELETE FROM rounds WHERE id = 2"))
            session.commit()
            user = User(auth_provider="local", auth_subject="d@x", email="d@x", display_name="D")
            group = Group(name="New", invite_code="CODE3", data_version=1)
            session.add_all([user, group])
            session.flush()
            new_round = Round(game_id=1, number=2, penalty_cards_due=0, version=1)
            session.add(new_round)
            session.commit()
            # Both databases continue after the highest id seen; PostgreSQL also after 3.
            assert user.id >= 3 and group.id == 3 and new_round.id == 3
            if engine.dialect.name == "postgresql":
                assert user.id == 4
            session.execute(text("DELETE FROM groups WHERE id = 1"))
            session.commit()
            assert session.scalar(text("SELECT COUNT(*) FROM round_hands")) == 0
    finally:
        engine.dispose()


def test_sqlite_tables_are_rebuilt_with_autoincrement_and_their_constraints(tmp_path):
    engine = get_engine(f"sqlite:///{tmp_path / 'dutch.db'}")
    try:
        with engine.connect() as connection:
            sql = dict(connection.exec_driver_sql("SELECT name, sql FROM sqlite_master").all())
        for table in ("users", "password_resets", "groups", "players", "games", "rounds"):
            assert "AUTOINCREMENT" in sql[table], table
        assert "DEFERRABLE INITIALLY DEFERRED" in sql["rounds"]
        assert "REFERENCES players" in sql["players"]
        assert "ON DELETE CASCADE" in sql["rounds"]
    finally:
        engine.dispose()


def test_the_users_rebuild_refuses_to_run_with_foreign_keys_on_rather_than_lose_members(
    tmp_path,
):
    """SQLite's rebuild of ``users`` (0012) on a connection with foreign keys on would delete
    every membership with the old table: it refuses, and nothing is lost."""
    from tests.integration.test_migration_totals import migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'dutch.db'}")
    try:
        migrate(engine, "0011_stopped_imports")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO users (auth_provider, auth_subject, email, display_name, "
                    "created_at, session_epoch, session_secret) VALUES "
                    "('local', 'a', 'a@x.org', 'A', '2025-01-01', 0, 's')"
                )
            )
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS_DIR))
        with pytest.raises(RuntimeError, match="foreign keys"), engine.begin() as connection:
            config.attributes["connection"] = connection  # foreign keys on, as the app's
            command.upgrade(config, "head")
        with engine.connect() as connection:
            assert connection.scalar(text("SELECT count(*) FROM users")) == 1
    finally:
        engine.dispose()


AT_0012 = [
    "INSERT INTO users (id, auth_provider, auth_subject, email, display_name, created_at,"
    " session_epoch, session_secret) VALUES (1, 'local', 'a', 'a@x.org', 'A', :t, 0, 's')",
    "INSERT INTO groups (id, name, invite_code, created_at, created_by, data_version, cache_key,"
    " import_into_id) VALUES (1, 'Club', 'CODE1', :t, 1, 3, 'k1', NULL),"
    " (2, 'import', 'import-2', :t, 1, 0, 'k2', 1)",  # an import stopped half-way
    "INSERT INTO memberships (group_id, user_id, role, joined_at) VALUES (1, 1, 'owner', :t)",
    "INSERT INTO players (id, group_id, name, name_key, created_at)"
    " VALUES (1, 1, 'Ann', 'ann', :t), (2, 2, 'Held', 'held', :t)",
    # Game 1 was played, game 2 came from a finished import (its holding group gone), game 3
    # is held by the stopped import.
    "INSERT INTO games (id, group_id, rules, status, started_at, notes, version, held_by_id)"
    " VALUES (1, 1, '{}', 'active', :t, '', 1, NULL), (2, 1, '{}', 'ended', :t, '', 1, 9),"
    " (3, 1, '{}', 'ended', :t, '', 1, 2)",
    "INSERT INTO game_players (game_id, seat, player_id) VALUES (1, 0, 1), (2, 0, 1),"
    " (3, 0, 1), (3, 1, 2)",
    "INSERT INTO rounds (id, game_id, number, penalty_cards_due, entered_at, version)"
    " VALUES (1, 1, 1, 0, :t, 1), (2, 2, 1, 0, :t, 1), (3, 3, 1, 0, :t, 1)",
    "INSERT INTO round_hands (round_id, player_id, seat, hand_total, penalty_points, game_total,"
    " round_score, is_caller) VALUES (1, 1, 0, 3, 0, 3, 3, false), (2, 1, 0, 4, 0, 4, 4, false),"
    " (3, 1, 0, 5, 0, 5, 5, false), (3, 2, 1, 6, 0, 6, 6, false)",
    "INSERT INTO stopped_imports (user_id, group_id, stopped_at) VALUES (1, 1, :t)",
]


@pytest.mark.parametrize("foreign_keys", ["as the start-up", "on"])
def test_0014_drops_the_import_machinery_and_only_what_a_stopped_import_held(
    empty_url, foreign_keys
):
    """Going to one transaction per import deletes the rows a half-written import held
    (hidden until then) and keeps everything shown; no table is rebuilt, so it loses
    nothing on SQLite even on a connection with foreign keys on. It goes back down too."""
    from tests.integration.test_migration_totals import migrate

    engine = make_engine(empty_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    try:
        migrate(engine, "0013_seasons")
        with engine.begin() as connection:
            for statement in AT_0012:
                connection.execute(text(statement), {"t": datetime(2026, 1, 1, tzinfo=UTC)})
        if foreign_keys == "on":
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "0014_one_transaction_imports")
        else:
            migrate(engine, "0014_one_transaction_imports")

        with engine.connect() as connection:

            def column(sql: str) -> list:
                return connection.exec_driver_sql(sql).scalars().all()

            assert column("SELECT id FROM groups") == [1]
            assert column("SELECT user_id FROM memberships") == [1]
            assert column("SELECT id FROM players") == [1]
            assert column("SELECT id FROM games ORDER BY id") == [1, 2]
            assert column("SELECT game_id FROM game_players ORDER BY game_id") == [1, 2]
            assert column("SELECT id FROM rounds ORDER BY id") == [1, 2]
            assert column("SELECT round_id FROM round_hands ORDER BY round_id") == [1, 2]
        assert "stopped_imports" not in inspect(engine).get_table_names()
        migrate(engine, "0013_seasons", down=True)
        assert "stopped_imports" in inspect(engine).get_table_names()
        migrate(engine, "head")
        assert differences(engine) == []
    finally:
        engine.dispose()
