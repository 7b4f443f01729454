"""The unit of work: whoever calls a service owns its transaction.

Services are plain functions ``fn(session, ...)``: they read and write through the
session they are given and never commit, roll back or retry. The edge (a page's
``call``, a download button, the live route, the account store, the command line,
a benchmark, a test) runs each one with :func:`perform`, which opens one transaction
around the whole call:

- a service marked :func:`writes` runs in a write transaction (``BEGIN IMMEDIATE``
  on SQLite, so two writers queue for the lock instead of failing half-way). It is
  committed when the service returns and rolled back when it raises. When the
  database reports that a concurrent transaction took a unique key first (the next
  round number, say) or chose this one as a deadlock victim, the whole call runs
  again from the start, validation included, up to :data:`ATTEMPTS` times, then
  :class:`~dutch_app.services.errors.Conflict`;
- any other service reads, in a transaction ended afterwards, so a long-lived
  session never holds an old snapshot;
- a service marked :func:`in_steps` is handed the session outside any transaction
  and runs its own steps with :func:`read` and :func:`write`. That is for the few
  use cases whose steps must not share one transaction: a counted try that has to
  stay counted when the step after it fails (joining by invite code, opening a
  shared link), or a file that is read and checked before the write begins (the
  CSV import).

Services compose as plain calls: one service calling another simply runs inside
the caller's transaction, and a failure anywhere rolls the whole back. Opening a
unit of work inside another is refused (:class:`NestedUnitOfWork`), since it would
commit the outer one's work half-way.

Why a marker and not a second entry point (``call`` and ``call_write``): whether a
service writes is a fact about the service, so it is written once, next to its
code, rather than at each of the places that call it (pages, download buttons,
tests, benchmarks), any of which could pick the wrong one. A writing service left
unmarked cannot lose its writes quietly: inside a read transaction, flushing a change
or executing an INSERT, UPDATE or DELETE raises :class:`WriteInRead`. The markers do not
wrap the function: ``writes(f) is f``, and calling a service directly runs exactly
its body, no more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import ORMExecuteState, Session, UOWTransaction

from dutch_app.i18n import _
from dutch_app.services.errors import Conflict
from dutch_app.storage.db import WRITE

P = ParamSpec("P")
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., object])

Service = Callable[Concatenate[Session, P], T]

ATTEMPTS = 5
"""How many times a write that clashed with a concurrent one is run in all."""

RETRYABLE_SQLSTATES = {
    "23505",  # unique_violation
    "40001",  # serialization_failure
    "40P01",  # deadlock_detected
}
RETRYABLE_SQLITE_ERRORS = {"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"}

_OPEN = "dutch_unit_of_work_open"
"""Set in ``session.info`` while a service runs inside a unit of work."""
_READING = "dutch_unit_of_work_reading"
"""Set in ``session.info`` while a service runs inside a read transaction."""
_MARK = "unit_of_work"
"""The function attribute that holds a service's :class:`Transaction` (reads have none)."""


class Transaction(StrEnum):
    """The unit of work :func:`perform` opens for a service."""

    READ = "read"
    """One read transaction, ended afterwards (a service without a marker)."""
    WRITE = "write"
    """One write transaction, committed or rolled back, retried after a clash."""
    STEPS = "steps"
    """None: the service runs its own steps with :func:`read` and :func:`write`."""


class WriteInRead(RuntimeError):
    """A service without the :func:`writes` marker tried to write: mark it."""


class NestedUnitOfWork(RuntimeError):
    """A unit of work was opened inside another one: a service called ``perform`` instead of
    calling the other service directly."""


def writes(service: F) -> F:
    """Mark ``service`` as one that writes: :func:`perform` gives it a write transaction.

    Returns the function itself, unchanged.
    """
    vars(service)[_MARK] = Transaction.WRITE
    return service


def in_steps(service: F) -> F:
    """Mark ``service`` as one that runs its own steps with :func:`read` and :func:`write`.

    Returns the function itself, unchanged.
    """
    vars(service)[_MARK] = Transaction.STEPS
    return service


def transaction_of(service: Callable[..., object]) -> Transaction:
    """The unit of work :func:`perform` opens for ``service``."""
    return Transaction(getattr(service, _MARK, Transaction.READ))


def is_retryable(error: DBAPIError) -> bool:
    """Whether ``error`` came from a concurrent transaction rather than from bad data."""
    original = error.orig
    sqlstate = getattr(original, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in RETRYABLE_SQLSTATES
    return getattr(original, "sqlite_errorname", None) in RETRYABLE_SQLITE_ERRORS


def perform(session: Session, service: Service[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``service(session, *args, **kwargs)`` in the unit of work its marker asks for."""
    kind = transaction_of(service)
    if kind is Transaction.WRITE:
        return write(session, service, *args, **kwargs)
    if kind is Transaction.STEPS:
        _start(session)
        return service(session, *args, **kwargs)
    return read(session, service, *args, **kwargs)


def write(session: Session, service: Service[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``service(...)`` in one write transaction: committed on success, rolled back on any
    error, run again from the start after a clash with a concurrent write."""
    _start(session)
    clash: DBAPIError | None = None
    for _attempt in range(ATTEMPTS):
        session.connection(execution_options={WRITE: True})
        try:
            with _inside(session):
                result = service(session, *args, **kwargs)
            session.commit()
            return result
        except DBAPIError as error:
            session.rollback()
            if not is_retryable(error):
                raise
            clash = error
        except BaseException:
            session.rollback()
            raise
    raise Conflict(
        _("Others changed the same data at the same moment; please try again.")
    ) from clash


def read(session: Session, service: Service[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``service(...)`` in one read transaction, ended afterwards (nothing is kept)."""
    _start(session)
    session.info[_READING] = True
    try:
        with _inside(session):
            return service(session, *args, **kwargs)
    finally:
        session.info.pop(_READING, None)
        session.rollback()


def _refuse_write(session: Session, what: str) -> None:
    raise WriteInRead(
        f"A service running in a read transaction tried to {what}; mark it with @writes."
    )


@event.listens_for(Session, "before_flush")
def _no_flush_while_reading(session: Session, _context: UOWTransaction, _instances: object) -> None:
    if session.info.get(_READING):
        _refuse_write(session, "write changed objects")


@event.listens_for(Session, "do_orm_execute")
def _no_dml_while_reading(state: ORMExecuteState) -> None:
    if state.session.info.get(_READING) and (state.is_insert or state.is_update or state.is_delete):
        _refuse_write(state.session, "execute an INSERT, UPDATE or DELETE")


def _start(session: Session) -> None:
    if session.info.get(_OPEN):
        raise NestedUnitOfWork(
            "A unit of work was opened inside another; call the other service directly."
        )
    # Work the caller did on the session before belongs to the caller: keep it.
    if session.in_transaction():
        session.commit()


@contextmanager
def _inside(session: Session) -> Iterator[None]:
    session.info[_OPEN] = True
    try:
        yield
    finally:
        session.info.pop(_OPEN, None)
