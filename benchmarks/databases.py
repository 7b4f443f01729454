"""Benchmark databases: built once with the demo generator, kept, and copied for each run.

A built database holds one owner and one group filled by
:func:`dutch_app.services.demo.generate_history` with ``size`` player-round rows.
It is kept between runs, keyed by database kind, size, seed and schema
revision: SQLite files in ``benchmarks/.cache/``, PostgreSQL databases named
``dutch_bench_<size>_s<seed>_<revision>`` on the server of
``DUTCH_TEST_POSTGRES_URL``. A run works on a copy (the SQLite backup API, or
PostgreSQL's ``CREATE DATABASE ... TEMPLATE``), so what the benchmarks write
never changes the kept database.
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from alembic.config import Config
from alembic.script import ScriptDirectory
from psycopg import sql
from sqlalchemy import select
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session

from dutch_app.services import demo, groups, players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import MIGRATIONS_DIR, get_engine
from dutch_app.storage.models import Group, User

CACHE_DIR = Path(__file__).resolve().parent / ".cache"
OWNER_EMAIL = "bench-owner@example.com"
GROUP_NAME = "Benchmark club"
HISTORY_ENDS = datetime(2026, 1, 1, tzinfo=UTC)
PLAYER_NAMES = ("Anna", "Bram", "Chloé", "Daan")


@dataclass(frozen=True)
class BenchDatabase:
    """A database ready for measuring: its URL, the owner and the owner's group."""

    kind: str
    url: str
    owner_id: int
    group_id: int


def schema_revision() -> str:
    """The newest migration's revision id (part of every cache key)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return ScriptDirectory.from_config(config).get_current_head() or "base"


def _owner_and_group(session: Session) -> tuple[int, int]:
    """Make the owner (a local account without a password) and an empty group of theirs."""
    owner = User(
        auth_provider="local",
        auth_subject=OWNER_EMAIL,
        email=OWNER_EMAIL,
        display_name="Bench owner",
    )
    session.add(owner)
    session.commit()
    return owner.id, perform(session, groups.create_group, owner.id, GROUP_NAME).id


def fill(url: str, size: int, seed: int) -> None:
    """Migrate the database at ``url`` and give it the owner, the group and its history."""
    engine = get_engine(url)
    try:
        with Session(engine, expire_on_commit=False) as session:
            owner_id, group_id = _owner_and_group(session)
            if size:
                demo.generate_history(session, group_id, size, seed, end=HISTORY_ENDS)
            else:
                for name in PLAYER_NAMES:
                    perform(session, players.add_player, owner_id, group_id, name)
    finally:
        engine.dispose()


def open_bench(kind: str, url: str) -> BenchDatabase:
    """The owner and group of a database made by :func:`fill`."""
    engine = get_engine(url)
    try:
        with Session(engine) as session:
            owner_id = session.scalar(select(User.id).where(User.email == OWNER_EMAIL))
            group_id = session.scalar(select(Group.id).where(Group.name == GROUP_NAME))
    finally:
        engine.dispose()
    if owner_id is None or group_id is None:
        raise LookupError(f"{url!r} is not a benchmark database.")
    return BenchDatabase(kind, url, owner_id, group_id)


# --- SQLite ----------------------------------------------------------------------------------


def _sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def _sqlite_cached(size: int, seed: int) -> Path:
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    path = CACHE_DIR / f"sqlite-{size}-s{seed}-{schema_revision()}.db"
    if not path.exists():
        building = path.with_suffix(".building")
        for leftover in CACHE_DIR.glob(f"{building.name}*"):
            leftover.unlink()
        fill(_sqlite_url(building), size, seed)
        connection = sqlite3.connect(building)
        try:  # one self-contained file: no write-ahead log beside it
            connection.execute("PRAGMA journal_mode=DELETE")
        finally:
            connection.close()
        building.rename(path)
    return path


def _sqlite_copy(source: Path, target: Path) -> None:
    original, copy = sqlite3.connect(source), sqlite3.connect(target)
    try:
        original.backup(copy)
    finally:
        original.close()
        copy.close()


def _remove_folder(folder: Path) -> None:
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()


@contextmanager
def _sqlite_work(size: int, seed: int) -> Iterator[str]:
    folder = CACHE_DIR / f"work-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    folder.mkdir(parents=True)
    target = folder / "dutch.db"
    try:
        if size:
            _sqlite_copy(_sqlite_cached(size, seed), target)
        else:
            fill(_sqlite_url(target), 0, seed)
        yield _sqlite_url(target)
    finally:
        _remove_folder(folder)


# --- PostgreSQL ------------------------------------------------------------------------------


def _libpq(server: URL, database: str = "postgres") -> str:
    return server.set(drivername="postgresql", database=database).render_as_string(
        hide_password=False
    )


def _admin(server: URL, statement: sql.Composable) -> None:
    with psycopg.connect(_libpq(server), autocommit=True, connect_timeout=10) as connection:
        connection.execute(statement)


def _exists(server: URL, name: str) -> bool:
    with psycopg.connect(_libpq(server), autocommit=True, connect_timeout=10) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        return found.fetchone() is not None


def _drop(server: URL, name: str) -> None:
    _admin(server, sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _work_names(server: URL) -> list[str]:
    with psycopg.connect(_libpq(server), autocommit=True, connect_timeout=10) as connection:
        found = connection.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE 'dutch\\_bench\\_work\\_%'"
        )
        return [name for (name,) in found]


def _postgres_cached(server: URL, size: int, seed: int) -> str:
    name = f"dutch_bench_{size}_s{seed}_{schema_revision()}".lower()
    if not _exists(server, name):
        building = f"{name}_building"
        _drop(server, building)
        _admin(server, sql.SQL("CREATE DATABASE {}").format(sql.Identifier(building)))
        fill(server.set(database=building).render_as_string(hide_password=False), size, seed)
        with psycopg.connect(_libpq(server, building), autocommit=True) as connection:
            connection.execute("VACUUM ANALYZE")  # what autovacuum would do in the background
        rename = sql.SQL("ALTER DATABASE {} RENAME TO {}")
        _admin(server, rename.format(sql.Identifier(building), sql.Identifier(name)))
    return name


@contextmanager
def _postgres_work(server: URL, size: int, seed: int) -> Iterator[str]:
    name = f"dutch_bench_work_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    if size:
        template = _postgres_cached(server, size, seed)
        create = sql.SQL("CREATE DATABASE {} TEMPLATE {}")
        _admin(server, create.format(sql.Identifier(name), sql.Identifier(template)))
    else:
        _admin(server, sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        url = server.set(database=name).render_as_string(hide_password=False)
        if not size:
            fill(url, 0, seed)
        yield url
    finally:
        _drop(server, name)


# --- Both ------------------------------------------------------------------------------------


def postgres_server() -> URL:
    """The PostgreSQL server of ``DUTCH_TEST_POSTGRES_URL`` (``scripts/postgres.sh`` prints it)."""
    raw = os.environ.get("DUTCH_TEST_POSTGRES_URL")
    if not raw:
        raise SystemExit(
            "DUTCH_TEST_POSTGRES_URL is not set: run "
            'export DUTCH_TEST_POSTGRES_URL="$(scripts/postgres.sh)" first (or use make bench).'
        )
    return make_url(raw)


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def remove_leftovers(kinds: list[str]) -> list[str]:
    """Remove working copies left by runs that were killed (their process is gone)."""
    removed = []
    for folder in CACHE_DIR.glob("work-*") if CACHE_DIR.exists() else []:
        pid = folder.name.split("-")[1]
        if pid.isdigit() and not _alive(int(pid)):
            _remove_folder(folder)
            removed.append(str(folder))
    if "postgresql" in kinds:
        server = postgres_server()
        for name in _work_names(server):
            pid = name.split("_")[3]
            if pid.isdigit() and not _alive(int(pid)):
                _drop(server, name)
                removed.append(name)
    return removed


def prepare(kind: str, size: int, seed: int) -> float:
    """Build (or find) the kept database; the seconds it took (about 0 when kept)."""
    began = time.perf_counter()
    if kind == "sqlite":
        _sqlite_cached(size, seed)
    else:
        _postgres_cached(postgres_server(), size, seed)
    return time.perf_counter() - began


@contextmanager
def working_database(kind: str, size: int, seed: int) -> Iterator[BenchDatabase]:
    """A throwaway copy of the kept database of ``size`` rows (size 0: a new, empty one)."""
    if kind == "sqlite":
        work = _sqlite_work(size, seed)
    elif kind == "postgresql":
        work = _postgres_work(postgres_server(), size, seed)
    else:
        raise ValueError(f"Unknown database kind {kind!r}; use 'sqlite' or 'postgresql'.")
    with work as url:
        yield open_bench(kind, url)
