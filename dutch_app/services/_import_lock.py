"""One import into a group at a time, and a lock that dies with the process that holds it.

An import holds its group's import lock from before it opens its holding group until it
has shown or undone its games. The lock belongs to the import's database connection (on
PostgreSQL, a session advisory lock) or to a file it keeps open (on SQLite, ``flock`` on
a file next to the database), so the database server or the operating system frees it
when the process dies, however it dies: killed, out of memory, or its server gone. A
holding group whose group's lock is free is therefore what a dead import left: whoever
takes the lock next deletes it, before deciding which of a file's games the group has.

On SQLite every group shares the one lock: its imports write one at a time anyway. An
in-memory database lives and dies with its one process: there is nothing to lock.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from dutch_app.storage.db import in_memory

LOCK_KIND = 0x44757463
"""The first of the two keys of the import locks on PostgreSQL (the second is the group's
id), so that they meet no other advisory lock."""

_TAKE = text("SELECT pg_advisory_lock(:kind, :group_id)")
_TRY = text("SELECT pg_try_advisory_lock(:kind, :group_id)")
_FREE = text("SELECT pg_advisory_unlock(:kind, :group_id)")


@contextmanager
def import_lock(session: Session, group_id: int, *, wait: bool = True) -> Iterator[bool]:
    """Hold the import lock of the group (with ``wait``, once it is free); whether it is
    held. ``session`` is bound to one connection, which holds the lock on PostgreSQL."""
    connection = session.get_bind()
    if not isinstance(connection, Connection):
        raise TypeError(f"the import lock belongs to one connection, not {connection!r}")
    if connection.dialect.name == "postgresql":
        with _advisory_lock(session, connection, group_id, wait) as taken:
            yield taken
    elif connection.dialect.name == "sqlite" and not in_memory(connection.engine.url):
        with _file_lock(connection, wait) as taken:
            yield taken
    else:
        yield True


@contextmanager
def _advisory_lock(
    session: Session, connection: Connection, group_id: int, wait: bool
) -> Iterator[bool]:
    keys = {"kind": LOCK_KIND, "group_id": group_id}
    session.rollback()
    if wait:
        session.execute(_TAKE, keys)
        taken = True
    else:
        taken = bool(session.scalar(_TRY, keys))
    session.commit()  # the lock outlives the transaction that took it
    try:
        yield taken
    finally:
        if taken:
            session.rollback()
            try:
                session.execute(_FREE, keys)
                session.commit()
            except DBAPIError:
                connection.invalidate()  # closing the connection frees its locks


@contextmanager
def _file_lock(connection: Connection, wait: bool) -> Iterator[bool]:
    database = (connection.engine.url.database or "").removeprefix("file:").split("?")[0]
    path = Path(database).expanduser()
    handle = os.open(path.with_name(f"{path.name}-imports.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            taken = False
        else:
            taken = True
        yield taken
    finally:
        os.close(handle)  # closing the file frees the lock
