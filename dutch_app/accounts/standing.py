"""What Firebase last said about each person, trusted for a few minutes.

Firebase alone knows when an account was disabled, deleted or had its refresh tokens
revoked (a password reset by email, "sign out everywhere" in the console). Every open
tab, the live route and the round route check a session on each request, far too often
to ask Firebase each time, so the answer is kept per person and asked again only once
it is older than the check interval: at most one call per person per interval, however
many tabs, requests and threads check at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import FIFOCache

RETRY_SECONDS = 30
"""When Firebase could not be asked, it is asked again after this many seconds."""


@dataclass(frozen=True)
class Standing:
    """Whether Firebase lets a person in, and since when their tokens count.

    >>> Standing(True, 100).admits(issued_at=100), Standing(True, 100).admits(issued_at=99)
    (True, False)
    >>> Standing(False, 0).admits(issued_at=100)
    False
    """

    allowed: bool
    """False when the account is disabled or Firebase no longer knows it."""
    valid_after: int = 0
    """Unix seconds: sessions started before this were revoked."""

    def admits(self, issued_at: int) -> bool:
        """Whether a session started at ``issued_at`` (Unix seconds) may go on."""
        return self.allowed and self.valid_after <= issued_at


UNKNOWN = Standing(True)
"""What a person's standing counts as while Firebase cannot be asked: an outage of
Firebase signs nobody out (the project's database still ends sessions as ever)."""


@dataclass(frozen=True)
class _Entry:
    standing: Standing
    due: float  # when to ask again, in the clock's seconds


class Standings:
    """The last answer of ``ask`` per person, asked again once ``every`` seconds old.

    ``ask(subject)`` returns the person's `Standing`, or None when Firebase could not be
    asked (the last answer then holds, or `UNKNOWN`, for `RETRY_SECONDS`). Safe to use
    from any thread; while one thread asks about a person, the others use the answer
    there is (or `UNKNOWN` for someone never asked about).

    >>> now = [0.0]
    >>> standings = Standings(lambda subject: Standing(True, 5), every=60, clock=lambda: now[0])
    >>> standings.admits("uid", issued_at=9), standings.admits("uid", issued_at=9)
    (True, True)
    >>> standings.asked
    1
    """

    def __init__(
        self,
        ask: Callable[[str], Standing | None],
        every: float,
        clock: Callable[[], float],
        most: int = 100_000,
    ) -> None:
        self._ask = ask
        self._every = every
        self._clock = clock
        self._known: FIFOCache[str, _Entry] = FIFOCache(most)  # an answer kept again is the newest
        self._asking: set[str] = set()
        self._lock = threading.Lock()
        self.asked = 0
        """How many times Firebase was asked (for tests and the operator's curiosity)."""

    def admits(self, subject: str, issued_at: int) -> bool:
        """Whether the session of ``subject`` started at ``issued_at`` may go on."""
        now = self._clock()
        with self._lock:
            entry = self._known.get(subject)
            if entry is not None and (now < entry.due or subject in self._asking):
                return entry.standing.admits(issued_at)
            if subject in self._asking:
                return UNKNOWN.admits(issued_at)
            self._asking.add(subject)
        try:
            found = self.refresh(subject)
        finally:
            with self._lock:
                self._asking.discard(subject)
        if found is None:
            kept = UNKNOWN if entry is None else entry.standing
            self._keep(subject, kept, now + min(RETRY_SECONDS, self._every))
            return kept.admits(issued_at)
        return found.admits(issued_at)

    def refresh(self, subject: str) -> Standing | None:
        """Ask Firebase now and keep the answer; None when it could not be asked."""
        with self._lock:
            self.asked += 1
        found = self._ask(subject)
        if found is not None:
            self._keep(subject, found, self._clock() + self._every)
        return found

    def note(self, subject: str, standing: Standing) -> None:
        """Keep an answer Firebase gave elsewhere (at a sign-in)."""
        self._keep(subject, standing, self._clock() + self._every)

    def _keep(self, subject: str, standing: Standing, due: float) -> None:
        with self._lock:
            self._known[subject] = _Entry(standing, due)
