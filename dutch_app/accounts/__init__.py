"""Accounts: sign-up, sign-in, sessions and account deletion behind one interface.

``make_backend`` picks the local store or Firebase from the configuration; the
dashboard keeps the returned backend as a shared resource.
"""

from __future__ import annotations

from dutch_app.accounts.base import (
    Account,
    AccountBackend,
    AccountError,
    AuthFailed,
    EmailTaken,
    HashingBusy,
    InvalidDisplayName,
    InvalidEmail,
    NotSupported,
    PasswordChangeRequired,
    RateLimited,
    ServiceUnavailable,
    WeakPassword,
)
from dutch_app.accounts.common import Clock, SessionFactory
from dutch_app.accounts.tokens import end_sessions, issue_session_token
from dutch_app.config import Settings, load_settings
from dutch_app.storage.models import utcnow

__all__ = [
    "Account",
    "AccountBackend",
    "AccountError",
    "AuthFailed",
    "EmailTaken",
    "HashingBusy",
    "InvalidDisplayName",
    "InvalidEmail",
    "NotSupported",
    "PasswordChangeRequired",
    "RateLimited",
    "ServiceUnavailable",
    "WeakPassword",
    "end_sessions",
    "issue_session_token",
    "make_backend",
]


def make_backend(
    sessions: SessionFactory,
    settings: Settings | None = None,
    clock: Clock = utcnow,
) -> AccountBackend:
    """The configured backend (``auth_backend`` = "local" or "firebase") over ``sessions``."""
    settings = settings or load_settings()
    secret_key, session_days = settings.secret_key.encode(), settings.session_days
    # Imported here so that a local set-up never loads firebase-admin.
    if settings.auth_backend == "firebase":
        from dutch_app.accounts.firebase import FirebaseBackend

        return FirebaseBackend(
            sessions,
            settings.firebase,
            secret_key=secret_key,
            session_days=session_days,
            clock=clock,
            check_every=settings.limits.firebase_check_seconds,
        )
    from dutch_app.accounts.local import LocalBackend
    from dutch_app.accounts.passwords import PasswordHashes

    hashing = settings.limits
    hashes = PasswordHashes(slots=hashing.hashing_slots, wait_seconds=hashing.hashing_wait_seconds)
    resets = {"base_url": settings.base_url, "smtp": settings.smtp}
    return LocalBackend(
        sessions,
        hashes=hashes,
        secret_key=secret_key,
        session_days=session_days,
        clock=clock,
        resets=resets,
    )
