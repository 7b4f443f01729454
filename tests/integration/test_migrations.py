"""Migrations: an empty database reaches the newest schema, which matches the models exactly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from dutch_app.storage.db import MIGRATIONS_DIR, get_engine, make_engine, upgrade
from dutch_app.storage.models import Base

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
