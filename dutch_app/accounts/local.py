"""Accounts kept in the project's own database, passwords hashed with argon2id."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dutch_app.accounts.base import Account, AuthFailed, HashingBusy
from dutch_app.accounts.common import (
    Clock,
    DatabaseBackend,
    SessionFactory,
    check_address_free,
    email_taken,
    write_retrying,
    writing,
)
from dutch_app.accounts.passwords import PasswordHashes
from dutch_app.accounts.ratelimit import admit_sign_in, settle
from dutch_app.accounts.removal import remove_user
from dutch_app.accounts.reset import ResetLinks
from dutch_app.accounts.tokens import account_of, end_sessions
from dutch_app.accounts.validation import (
    check_display_name,
    check_email,
    check_password,
)
from dutch_app.i18n import _
from dutch_app.storage.models import LocalCredential, User, utcnow

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
        clock: Clock = utcnow,
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
                user = self._add_user(session, address, address, name, created_at=now)
                session.add(
                    LocalCredential(user_id=user.id, password_hash=password_hash, updated_at=now)
                )
                account = account_of(user)
        except IntegrityError:
            raise email_taken(address) from None
        log.info("local account %s created", account.user_id)
        return account

    def _checked_password(self, address: str, password: str, client: str | None) -> int | None:
        """Check a password under the rate limit: the user id when it is right, else None.

        Three short steps, none of them slow while holding the database: count the
        try (one transaction), hash outside any transaction (in a bounded slot), and
        record the outcome (another transaction, only when it was right or never ran).
        """
        now = self._clock()

        def count(session: Session):
            ticket = admit_sign_in(session, address, client, now)
            found = session.execute(
                select(LocalCredential.user_id, LocalCredential.password_hash)
                .join(User, User.id == LocalCredential.user_id)
                .where(User.email == address, User.auth_provider == self.provider)
            ).first()
            return ticket, found

        ticket, found = write_retrying(self._sessions, count)
        user_id, stored = (None, None) if found is None else found
        try:
            ok = self._hashes.matches(stored, password)
            due = ok and stored is not None and self._hashes.needs_rehash(stored)
            fresh = self._hashes.hash(password) if due else None
        except HashingBusy:
            write_retrying(self._sessions, lambda session: settle(session, ticket, now, None))
            raise
        if ok:

            def record(session: Session) -> None:
                settle(session, ticket, now, True)
                if fresh is not None:
                    session.execute(
                        update(LocalCredential)
                        .where(
                            LocalCredential.user_id == user_id,
                            LocalCredential.password_hash == stored,
                        )
                        .values(password_hash=fresh, updated_at=now)
                    )

            write_retrying(self._sessions, record)
        return user_id if ok else None

    def sign_in(self, email: str, password: str, *, client: str | None = None) -> Account:
        address = check_email(email)
        user_id = self._checked_password(address, password, client)
        account = None
        if user_id is not None:
            with self._sessions() as session:
                user = session.get(User, user_id)
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
        with self._sessions() as session:
            address = self._user(session, user_id).email or ""
        check_password(new_password, address)
        if self._checked_password(address, current_password, None) is None:
            raise AuthFailed(_("Current password: this is not your password."), "current_password")
        new_hash = self._hashes.hash(new_password)
        with writing(self._sessions) as session:
            user = self._user(session, user_id)
            credential = session.get(LocalCredential, user_id)
            if credential is None:  # an account without a password signs in elsewhere
                raise AuthFailed(
                    _("Current password: this is not your password."), "current_password"
                )
            credential.password_hash = new_hash
            credential.updated_at = self._clock()
            end_sessions(session, user_id)
            account = account_of(user)
        log.info("password changed for user %s", user_id)
        return account

    def keep_account(self, user_id: int, email: str, password: str) -> Account:
        address = check_email(email)
        check_password(password, address)
        with writing(self._sessions) as session:
            self._anonymous_user(session, user_id)
        password_hash = self._hashes.hash(password)
        now = self._clock()
        try:
            with writing(self._sessions) as session:
                user = self._anonymous_user(session, user_id)
                check_address_free(session, address)
                user.email = user.auth_subject = address
                user.is_anonymous = False
                session.add(
                    LocalCredential(user_id=user.id, password_hash=password_hash, updated_at=now)
                )
                session.flush()
                account = account_of(user)
        except IntegrityError:
            raise email_taken(address) from None
        log.info("anonymous account %s kept with an email address", user_id)
        return account

    def delete_account(self, user_id: int, password: str) -> None:
        with self._sessions() as session:
            user = self._user(session, user_id)
            address, anonymous = user.email, user.is_anonymous
        if not anonymous and self._checked_password(address or "", password or "", None) is None:
            raise AuthFailed(_("Password: this is not your password."), "password")
        write_retrying(
            self._sessions, lambda session: remove_user(session, self._user(session, user_id))
        )
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
