"""Accounts kept in the project's own database, passwords hashed with argon2id."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dutch_app.accounts.base import Account, AuthFailed
from dutch_app.accounts.common import (
    Clock,
    DatabaseBackend,
    SessionFactory,
    check_address_free,
    email_taken,
    utc_now,
    writing,
)
from dutch_app.accounts.passwords import PasswordHashes
from dutch_app.accounts.ratelimit import check_allowed, record_attempt
from dutch_app.accounts.removal import remove_user
from dutch_app.accounts.reset import ResetLinks
from dutch_app.accounts.tokens import account_of, end_sessions
from dutch_app.accounts.validation import (
    check_display_name,
    check_email,
    check_password,
)
from dutch_app.storage.models import LocalCredential, User

log = logging.getLogger(__name__)


class LocalBackend(DatabaseBackend):
    """Accounts and argon2id password hashes in the ``users``/``local_credentials`` tables."""

    provider = "local"

    def __init__(
        self,
        sessions: SessionFactory,
        *,
        secret_key: bytes,
        session_days: int = 30,
        clock: Clock = utc_now,
        hashes: PasswordHashes | None = None,
        resets: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(sessions, secret_key=secret_key, session_days=session_days, clock=clock)
        self._hashes = hashes or PasswordHashes()
        self._resets = ResetLinks(sessions, hashes=self._hashes, clock=clock, **(resets or {}))

    def sign_up(self, email: str, password: str, display_name: str) -> Account:
        address = check_email(email)
        name = check_display_name(display_name)
        check_password(password, address)
        password_hash = self._hashes.hash(password)
        now = self._clock()
        try:
            with writing(self._sessions) as session:
                check_address_free(session, address)
                user = User(
                    auth_provider=self.provider,
                    auth_subject=address,
                    email=address,
                    display_name=name,
                    created_at=now,
                    session_epoch=0,
                )
                session.add(user)
                session.flush()
                session.add(
                    LocalCredential(user_id=user.id, password_hash=password_hash, updated_at=now)
                )
                account = account_of(user)
        except IntegrityError:
            raise email_taken(address) from None
        log.info("local account %s created", account.user_id)
        return account

    def _password_ok(self, session: Session, address: str, password: str, now: datetime) -> bool:
        """Check a password under the rate limit and record the attempt; rehash if due."""
        check_allowed(session, address, now)
        credential = session.scalar(
            select(LocalCredential)
            .join(User, User.id == LocalCredential.user_id)
            .where(User.email == address, User.auth_provider == self.provider)
        )
        stored = None if credential is None else credential.password_hash
        ok = self._hashes.matches(stored, password)
        record_attempt(session, address, ok, now)
        if ok and credential is not None and self._hashes.needs_rehash(credential.password_hash):
            credential.password_hash = self._hashes.hash(password)
            credential.updated_at = now
        return ok

    def sign_in(self, email: str, password: str) -> Account:
        address = check_email(email)
        with writing(self._sessions) as session:
            ok = self._password_ok(session, address, password, self._clock())
            user = session.scalar(select(User).where(User.email == address)) if ok else None
            account = None if user is None else account_of(user)
        if account is None:
            log.info("sign-in refused")
            raise AuthFailed()
        return account

    def change_display_name(self, user_id: int, display_name: str) -> Account:
        name = check_display_name(display_name)
        with writing(self._sessions) as session:
            user = self._user(session, user_id)
            user.display_name = name
            return account_of(user)

    def change_password(self, user_id: int, current_password: str, new_password: str) -> Account:
        now = self._clock()
        with writing(self._sessions) as session:
            user = self._user(session, user_id)
            check_password(new_password, user.email)
            ok = self._password_ok(session, user.email, current_password, now)
            if ok:
                credential = session.get(LocalCredential, user_id)
                credential.password_hash = self._hashes.hash(new_password)
                credential.updated_at = now
                end_sessions(session, user_id)
            account = account_of(user)
        if not ok:
            raise AuthFailed("Current password: this is not your password.", "current_password")
        log.info("password changed for user %s", user_id)
        return account

    def delete_account(self, user_id: int, password: str) -> None:
        with writing(self._sessions) as session:
            user = self._user(session, user_id)
            ok = self._password_ok(session, user.email, password or "", self._clock())
            if ok:
                remove_user(session, user)
        if not ok:
            raise AuthFailed("Password: this is not your password.", "password")
        log.info("local account %s deleted", user_id)

    # Password reset by a one-time link: see dutch_app.accounts.reset.

    @property
    def reset_email_available(self) -> bool:
        return self._resets.by_email

    def send_password_reset(self, email: str) -> None:
        self._resets.request(email)

    def reset_link_valid(self, token: str) -> bool:
        return self._resets.is_valid(token)

    def reset_password(self, token: str, new_password: str) -> Account:
        return self._resets.use(token, new_password)
