"""Repeated failures wait longer and longer: counters kept in the database, shared by all servers.

A :class:`Rule` says how many failures a key may have before its tries must wait,
and how the wait grows (doubling from ``first_wait`` up to ``longest_wait``). A
try is counted *before* the slow or secret check it guards (a password, an invite
code) and taken back afterwards when it succeeded, so two tries at the same moment
can never both read "four failures so far": each one locks the key's row (the
write transaction on SQLite, ``SELECT ... FOR UPDATE`` on PostgreSQL), and the
second sees the first. A try that must wait is refused without being counted, so
hammering a key does not make its wait any longer.

The callers decide what a key is: the sign-in limiter (`dutch_app.accounts.ratelimit`)
and the invite-code limiter (`dutch_app.services.groups`); :func:`client_key` says which
network a request comes from, for them and for the live route's caps.
"""

from __future__ import annotations

import ipaddress
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from dutch_app.i18n import ngettext
from dutch_app.storage.models import ThrottleCounter, as_utc

CLEAN_UP_CHANCE = 1 / 64
"""How often a counted try also deletes counters whose time is over."""


@dataclass(frozen=True)
class Rule:
    """How one kind of key is throttled.

    >>> rule = Rule("demo", free=3, first_wait=timedelta(seconds=1),
    ...             longest_wait=timedelta(minutes=15), forget_after=timedelta(days=1))
    >>> [rule.wait_after(n).total_seconds() for n in (2, 3, 4, 5, 30)]
    [0.0, 1.0, 2.0, 4.0, 900.0]
    """

    scope: str
    """What the key stands for; at most 16 characters (``signin_pair``)."""
    free: int
    """Failures allowed before the next try has to wait."""
    first_wait: timedelta
    """The wait after the first failure beyond the free ones; it doubles with each further."""
    longest_wait: timedelta
    """The wait stops growing here."""
    forget_after: timedelta
    """A key with no failure for this long starts from nothing again."""

    def wait_after(self, failures: int) -> timedelta:
        """How long the next try waits once ``failures`` tries have failed."""
        if failures < self.free:
            return timedelta()
        doublings = min(failures - self.free, 40)
        return min(self.first_wait * 2**doublings, self.longest_wait)


@dataclass(frozen=True)
class Key:
    """One counter: a rule and what it counts (an address, a client, ...)."""

    rule: Rule
    value: str
    email: str | None = None
    """The address the counter is about, when there is one (forgotten with the account)."""


@dataclass(frozen=True)
class Refusal:
    """Why a try was refused: which rule, and how long until the next try is allowed."""

    scope: str
    wait: timedelta

    @property
    def seconds(self) -> int:
        """The wait in whole seconds, at least 1."""
        return max(1, math.ceil(self.wait.total_seconds()))


def spell_wait(seconds: int) -> str:
    """A wait in words: seconds below a minute, then whole minutes, then whole hours (up).

    >>> [spell_wait(n) for n in (1, 45, 60, 61, 900, 7200, 86400)]
    ['1 second', '45 seconds', '1 minute', '2 minutes', '15 minutes', '2 hours', '24 hours']
    """
    if seconds < 60:
        return ngettext("{count} second", "{count} seconds", seconds).format(count=seconds)
    if seconds < 7200:
        minutes = -(-seconds // 60)
        return ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    hours = -(-seconds // 3600)
    return ngettext("{count} hour", "{count} hours", hours).format(count=hours)


def client_key(ip: str | None, forwarded_for: str | None, trusted_proxies: int) -> str | None:
    """The client's network address: the connection's own, or behind ``trusted_proxies``
    reverse proxies the entry they added to ``X-Forwarded-For`` (entries further left
    come from the client and could be made up). An IPv6 address counts as its /64 network,
    which one person usually holds whole.

    >>> client_key("203.0.113.7", "1.2.3.4", 0)
    '203.0.113.7'
    >>> client_key("10.0.0.2", "6.6.6.6, 198.51.100.9", 1)
    '198.51.100.9'
    >>> client_key("2001:db8::1:2:3:4", None, 0)
    '2001:db8::/64'
    >>> client_key(None, None, 0) is None
    True
    """
    chosen = ip
    if trusted_proxies and forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        if hops:
            chosen = hops[-min(trusted_proxies, len(hops))]
    if not chosen:
        return None
    try:
        parsed = ipaddress.ip_address(chosen.strip().strip("[]"))
    except ValueError:
        return chosen.strip()[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))
    return str(parsed)


def _insert(session: Session) -> postgresql.Insert | sqlite.Insert:
    """An INSERT of a counter in the database's own dialect (for its ON CONFLICT)."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(ThrottleCounter)
    return sqlite.insert(ThrottleCounter)


def _locked_rows(session: Session, keys: Sequence[Key], now: datetime) -> list[ThrottleCounter]:
    """The rows of ``keys`` (made when missing), locked until the transaction ends.

    Rows are made and locked in one fixed order, so two tries sharing keys never
    wait for each other in a circle.
    """
    ordered = sorted({(key.rule.scope, key.value): key for key in keys}.items())
    values = [
        {
            "scope": scope,
            "key": value,
            "email": key.email,
            "failures": 0,
            "blocked_until": None,
            "expires_at": now,
        }
        for (scope, value), key in ordered
    ]
    pairs = [pair for pair, _key in ordered]
    rows: Sequence[ThrottleCounter] = ()
    for _attempt in range(3):  # a row deleted as stale between insert and lock is made again
        session.execute(_insert(session).values(values).on_conflict_do_nothing())
        rows = session.scalars(
            select(ThrottleCounter)
            .where(tuple_(ThrottleCounter.scope, ThrottleCounter.key).in_(pairs))
            .order_by(ThrottleCounter.scope, ThrottleCounter.key)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).all()
        if len(rows) == len(pairs):
            break
    for row in rows:
        if as_utc(row.expires_at) <= now:  # long quiet: start from nothing
            row.failures, row.blocked_until = 0, None
    return list(rows)


def admit(session: Session, keys: Sequence[Key], now: datetime) -> Refusal | None:
    """Count one more try against every key, or refuse it (counting nothing) while one waits.

    Call it in a write transaction of its own and commit before doing the slow check.
    """
    now = as_utc(now)
    rules = {(key.rule.scope, key.value): key.rule for key in keys}
    rows = _locked_rows(session, keys, now)
    waits = [
        Refusal(row.scope, as_utc(row.blocked_until) - now)
        for row in rows
        if row.blocked_until is not None and as_utc(row.blocked_until) > now
    ]
    if not waits:
        for row in rows:
            rule = rules[(row.scope, row.key)]
            row.failures += 1
            wait = rule.wait_after(row.failures)
            row.blocked_until = now + wait if wait else None
            row.expires_at = max(now + rule.forget_after, row.blocked_until or now)
        session.flush()
    if random.random() < CLEAN_UP_CHANCE:  # noqa: S311 - housekeeping, not security
        # Last, once this try holds every lock it needs: it waits for nobody from here on.
        forget_expired(session, now)
    return max(waits, key=lambda refusal: refusal.wait) if waits else None


def lock(session: Session, keys: Sequence[Key], now: datetime) -> None:
    """Lock the rows of ``keys`` (made when missing) in the one fixed order, before a step
    that changes several of them: every transaction then takes its locks in that order
    and none waits for another in a circle."""
    _locked_rows(session, keys, as_utc(now))


def take_back(session: Session, keys: Sequence[Key]) -> None:
    """Uncount a try that `admit` counted but that did not fail (it succeeded, or never ran)."""
    for key in sorted(keys, key=lambda k: (k.rule.scope, k.value)):
        row = session.scalars(
            select(ThrottleCounter)
            .where(ThrottleCounter.scope == key.rule.scope, ThrottleCounter.key == key.value)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()
        if row is None or row.failures == 0:
            continue
        row.failures -= 1
        if not key.rule.wait_after(row.failures):
            row.blocked_until = None
    session.flush()


def clear(session: Session, key: Key) -> None:
    """Forget every failure of ``key`` (a sign-in that succeeds does this for its pair)."""
    session.execute(
        delete(ThrottleCounter).where(
            ThrottleCounter.scope == key.rule.scope, ThrottleCounter.key == key.value
        )
    )


def remember(session: Session, key: Key, now: datetime, lasts: timedelta) -> None:
    """Keep a marker for ``key`` until ``lasts`` from now (e.g. a client known to an address)."""
    expires = as_utc(now) + lasts
    values = {"scope": key.rule.scope, "key": key.value, "email": key.email, "failures": 0}
    session.execute(
        _insert(session)
        .values(**values, blocked_until=None, expires_at=expires)
        .on_conflict_do_update(
            index_elements=[ThrottleCounter.scope, ThrottleCounter.key],
            set_={"expires_at": expires},
        )
    )


def is_remembered(session: Session, key: Key, now: datetime) -> bool:
    """Whether a marker kept by `remember` for ``key`` is still in force."""
    expires = session.scalar(
        select(ThrottleCounter.expires_at).where(
            ThrottleCounter.scope == key.rule.scope, ThrottleCounter.key == key.value
        )
    )
    return expires is not None and as_utc(expires) > as_utc(now)


def forget_email(session: Session, email: str) -> None:
    """Drop every counter about ``email`` (when its account is deleted)."""
    session.execute(delete(ThrottleCounter).where(ThrottleCounter.email == email))


def forget_expired(session: Session, now: datetime) -> int:
    """Delete counters whose time is over (skipping any a try holds right now); how many."""
    stale = (
        select(ThrottleCounter.scope, ThrottleCounter.key)
        .where(ThrottleCounter.expires_at < as_utc(now))
        .limit(500)
        .with_for_update(skip_locked=True)
    )
    result = session.execute(
        delete(ThrottleCounter).where(tuple_(ThrottleCounter.scope, ThrottleCounter.key).in_(stale))
    )
    return cast(CursorResult[Any], result).rowcount or 0  # a DELETE's result has a cursor


__all__ = [
    "Key",
    "Refusal",
    "Rule",
    "admit",
    "clear",
    "forget_email",
    "forget_expired",
    "is_remembered",
    "lock",
    "remember",
    "spell_wait",
    "take_back",
]
