"""Slow down password guessing: a cooling-off time after repeated failed sign-ins.

Five failures for one address within 15 minutes lock that address for 15 minutes
counted from the fifth failure. A successful sign-in starts the count afresh. The
attempts are kept in ``login_attempts`` for a day, then forgotten.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from dutch_app.accounts.base import RateLimited
from dutch_app.storage.models import LoginAttempt

MAX_FAILURES = 5
WINDOW = timedelta(minutes=15)
COOLING_OFF = timedelta(minutes=15)
KEEP_ATTEMPTS = timedelta(days=1)


def as_utc(moment: datetime) -> datetime:
    """The same moment as an aware UTC datetime (SQLite hands back naive ones)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def locked_until(session: Session, email: str, now: datetime) -> datetime | None:
    """When the current lock on ``email`` ends, or None if it may try now."""
    since = now - WINDOW - COOLING_OFF
    rows = session.execute(
        select(LoginAttempt.attempted_at, LoginAttempt.succeeded)
        .where(LoginAttempt.email == email, LoginAttempt.attempted_at >= since)
        .order_by(LoginAttempt.attempted_at)
    ).all()
    failures: list[datetime] = []
    for attempted_at, succeeded in rows:
        failures = [] if succeeded else [*failures, as_utc(attempted_at)]
    until = None
    for first, fifth in zip(failures, failures[MAX_FAILURES - 1 :], strict=False):
        if fifth - first < WINDOW and now < fifth + COOLING_OFF:
            until = fifth + COOLING_OFF
    return until


def check_allowed(session: Session, email: str, now: datetime) -> None:
    """Raise `RateLimited` (with whole minutes left, at least 1) while ``email`` is locked."""
    until = locked_until(session, email, as_utc(now))
    if until is not None:
        raise RateLimited(max(1, math.ceil((until - as_utc(now)).total_seconds() / 60)))


def record_attempt(session: Session, email: str, succeeded: bool, now: datetime) -> None:
    """Remember one sign-in attempt for ``email`` and forget attempts older than a day."""
    now = as_utc(now)
    session.execute(delete(LoginAttempt).where(LoginAttempt.attempted_at < now - KEEP_ATTEMPTS))
    session.add(LoginAttempt(email=email, attempted_at=now, succeeded=succeeded))


def forget_attempts(session: Session, email: str) -> None:
    """Drop every remembered attempt for ``email`` (used when the account is deleted)."""
    session.execute(delete(LoginAttempt).where(LoginAttempt.email == email))
