"""Argon2id password hashes for the local account store, a few at a time per process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from dutch_app.accounts.base import HashingBusy


class PasswordHashes:
    """Hashes and checks passwords; parameters come from the wrapped `PasswordHasher`.

    At most ``slots`` hashes run at once in one process; a caller that finds them all
    taken for ``wait_seconds`` gets `HashingBusy` instead of queueing without end, so
    a flood of sign-ins cannot starve the server of CPU and memory (each argon2id
    check takes 64 MiB by default).

    >>> hashes = PasswordHashes(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    >>> stored = hashes.hash("correct horse 7")
    >>> stored.startswith("$argon2id$"), hashes.matches(stored, "correct horse 7")
    (True, True)
    >>> hashes.matches(stored, "wrong"), hashes.matches(None, "wrong")
    (False, False)
    """

    def __init__(
        self, hasher: PasswordHasher | None = None, slots: int = 1, wait_seconds: float = 5.0
    ) -> None:
        self._hasher = hasher or PasswordHasher()
        self._stand_in: str | None = None
        self._slots = threading.BoundedSemaphore(slots)
        self._wait_seconds = wait_seconds

    def __repr__(self) -> str:
        return f"PasswordHashes({self._hasher.time_cost=}, {self._hasher.memory_cost=})"

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the hashing slots (`HashingBusy` when none frees up in time)."""
        if not self._slots.acquire(timeout=self._wait_seconds):
            raise HashingBusy()
        try:
            yield
        finally:
            self._slots.release()

    def hash(self, password: str) -> str:
        """A new argon2id hash of ``password``."""
        with self.slot():
            return self._hasher.hash(password)

    def matches(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` fits ``stored``; with no stored hash it takes as long and fails.

        Checking a stand-in hash for unknown addresses keeps the answer time the same,
        so timing does not tell which addresses have an account.
        """
        with self.slot():
            if stored is None:
                if self._stand_in is None:
                    self._stand_in = self._hasher.hash("no account has this password")
                stored, password = self._stand_in, password + "\0"
            try:
                return self._hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

    def needs_rehash(self, stored: str) -> bool:
        """True when ``stored`` was made with other parameters than the current ones."""
        return self._hasher.check_needs_rehash(stored)
