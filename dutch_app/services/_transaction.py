"""How services use the session: one transaction per call, writes retried on a clash.

A writing service runs inside :func:`writing`: its transaction starts with
``BEGIN IMMEDIATE`` on SQLite, and is retried from the start (validation
included) when the database reports that a concurrent transaction took a
unique key first (for instance the next round number) or chose it as a deadlock
victim. A reading service runs inside :func:`reading` and ends its transaction
afterwards, so a long-lived session never holds an old snapshot.

A service called by another service inside its write transaction joins that
transaction instead of opening one of its own, so services compose as plain calls:
the outermost one commits (or rolls back, or retries) the whole.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services.errors import Conflict
from dutch_app.storage.db import WRITE

P = ParamSpec("P")
T = TypeVar("T")

ATTEMPTS = 5
RETRYABLE_SQLSTATES = {
    "23505",  # unique_violation
    "40001",  # serialization_failure
    "40P01",  # deadlock_detected
}
RETRYABLE_SQLITE_ERRORS = {"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"}


def is_retryable(error: DBAPIError) -> bool:
    """Whether ``error`` came from a concurrent transaction rather than from bad data."""
    original = error.orig
    sqlstate = getattr(original, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in RETRYABLE_SQLSTATES
    return getattr(original, "sqlite_errorname", None) in RETRYABLE_SQLITE_ERRORS


IN_WRITE = "dutch_in_write_transaction"
"""Set in ``session.info`` while a writing service's transaction is open."""


def _start(session: Session) -> None:
    # Work the caller left pending belongs to the caller: keep it, then start afresh.
    if session.in_transaction():
        session.commit()


def writing(service: Callable[P, T]) -> Callable[P, T]:
    """Run a service in its own write transaction; commit on success, else roll back."""

    @functools.wraps(service)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        session: Session = args[0]  # type: ignore[assignment]
        if session.info.get(IN_WRITE):
            return service(*args, **kwargs)  # part of the caller's transaction
        _start(session)
        clash: DBAPIError | None = None
        for _attempt in range(ATTEMPTS):
            session.connection(execution_options={WRITE: True})
            session.info[IN_WRITE] = True
            try:
                result = service(*args, **kwargs)
                session.info.pop(IN_WRITE, None)
                session.commit()
                return result
            except DBAPIError as error:
                session.info.pop(IN_WRITE, None)
                session.rollback()
                if not is_retryable(error):
                    raise
                clash = error
            except BaseException:
                session.info.pop(IN_WRITE, None)
                session.rollback()
                raise
        raise Conflict(
            _("Others changed the same data at the same moment; please try again.")
        ) from clash

    return run


def reading(service: Callable[P, T]) -> Callable[P, T]:
    """Run a service in its own read transaction, ended afterwards."""

    @functools.wraps(service)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        session: Session = args[0]  # type: ignore[assignment]
        if session.info.get(IN_WRITE):
            return service(*args, **kwargs)  # reads what the caller's transaction sees
        _start(session)
        try:
            return service(*args, **kwargs)
        finally:
            session.rollback()

    return run
