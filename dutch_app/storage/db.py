"""The database engine, sessions and start-up migrations.

SQLite gets write-ahead logging, a 30 s busy timeout and enforced foreign keys.
Transactions that write start with ``BEGIN IMMEDIATE`` on SQLite (see
:data:`WRITE` and :func:`begin_writing`), so two writers queue for the lock instead
of failing half-way;
on PostgreSQL writers lock the rows they change (``SELECT ... FOR UPDATE``).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

#: Execution option that marks a session's transaction as a writing one.
WRITE = "dutch_write"

BUSY_TIMEOUT_MS = 30_000


def in_memory(url: str | URL) -> bool:
    """Whether ``url`` names a SQLite database in the memory of the process that opens it
    (``sqlite://``, ``:memory:``, or a ``mode=memory`` URI): no other process can see it.

    The one test of it: the engine gives such a database one shared connection.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return False
    database = parsed.database or ""
    return (
        database in ("", ":memory:")
        or parsed.query.get("mode") == "memory"
        or "mode=memory" in database
    )


def make_engine(url: str) -> Engine:
    """An engine for ``url``; for a SQLite file, its folder is created first. An in-memory
    SQLite database (:func:`in_memory`) is one connection shared by all threads (for
    tests and trials): each new connection to it would otherwise start empty."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)
    database = parsed.database or ""
    connect_args = {"timeout": BUSY_TIMEOUT_MS / 1000}
    if in_memory(parsed):
        connect_args["check_same_thread"] = False
        engine = create_engine(parsed, connect_args=connect_args, poolclass=StaticPool)
        _configure_sqlite(engine)
        return engine
    if not database.startswith("file:"):
        _private_file(Path(database).expanduser().resolve())
    engine = create_engine(parsed, connect_args=connect_args)
    _configure_sqlite(engine)
    return engine


def _private_file(path: Path) -> None:
    """Make the database file (and its folder, when new) readable by the owner only.

    The file holds email addresses, password hashes and every game: a new folder is
    made 700 and the file 600 before SQLite opens it (an existing file readable by
    others is made 600 too); its -wal and -shm files are created by SQLite with the
    same mode as the database.
    """
    folder = path.parent
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    with suppress(OSError):  # a file of another owner is left as it is
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Let SQLAlchemy's begin event, not the driver, decide how a transaction starts.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        if connection.get_execution_options().get(WRITE, False):
            begin_writing(connection.connection.driver_connection)  # type: ignore[arg-type]
        else:
            connection.exec_driver_sql("BEGIN")


WRITE_LOCK_POLL_S = 0.0005
"""How often a writer waiting for SQLite's write lock tries again."""


def begin_writing(driver: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``, trying again every half millisecond while another writer holds
    the lock (for up to the busy timeout).

    SQLite's own busy handler sleeps 1, 2, 5, 10, 15, 20, 25 ms and longer between tries
    (up to 100 ms), so a writer that arrives during another's transaction (a large import's,
    say) wakes up well after the lock is free. Trying often saves a round as soon as it is.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    driver.execute("PRAGMA busy_timeout=0")
    try:
        while True:
            try:
                driver.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorname != "SQLITE_BUSY" or time.monotonic() > deadline:
                    raise
            time.sleep(WRITE_LOCK_POLL_S)
    finally:
        driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in one transaction, for schema migrations.

    On SQLite, foreign keys are switched off for it (a migration that rebuilds a
    parent table would otherwise cascade the drop to its children) and every
    reference is checked before the transaction commits; they are on again after.
    """
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        driver = connection.connection.driver_connection if sqlite else None
        if driver is not None:  # outside a transaction, where SQLite honours it
            driver.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                yield connection
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"The migration left broken references: {broken[:5]}")
        finally:
            if driver is not None:
                driver.execute("PRAGMA foreign_keys=ON")


def upgrade(engine: Engine) -> None:
    """Bring the database schema to the newest migration."""
    # Loaded here: only the start-up migrates.
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def get_engine(url: str | None = None) -> Engine:
    """The engine the app uses: made for ``url`` (default: the configured one) and migrated.

    Call it once at start-up (the app keeps the result as a shared resource).
    """
    if url is None:
        from dutch_app.config import database_url

        url = database_url()
    engine = make_engine(url)
    upgrade(engine)
    return engine


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """A session factory; objects stay readable after commit (views are built from them)."""
    return sessionmaker(engine, expire_on_commit=False)
