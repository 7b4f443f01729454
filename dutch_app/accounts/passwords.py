"""Argon2id password hashes for the local account store."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError


class PasswordHashes:
    """Hashes and checks passwords; parameters come from the wrapped `PasswordHasher`.

    >>> hashes = PasswordHashes(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    >>> stored = hashes.hash("correct horse 7")
    >>> stored.startswith("$argon2id$"), hashes.matches(stored, "correct horse 7")
    (True, True)
    >>> hashes.matches(stored, "wrong"), hashes.matches(None, "wrong")
    (False, False)
    """

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher()
        self._stand_in: str | None = None

    def __repr__(self) -> str:
        return f"PasswordHashes({self._hasher.time_cost=}, {self._hasher.memory_cost=})"

    def hash(self, password: str) -> str:
        """A new argon2id hash of ``password``."""
        return self._hasher.hash(password)

    def matches(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` fits ``stored``; with no stored hash it takes as long and fails.

        Checking a stand-in hash for unknown addresses keeps the answer time the same,
        so timing does not tell which addresses have an account.
        """
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
