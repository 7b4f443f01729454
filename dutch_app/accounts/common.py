"""What both backends do the same way: the ``users`` row, session tokens, signing out."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.accounts.base import (
    Account,
    AccountBackend,
    AccountError,
    AuthFailed,
    EmailTaken,
)
from dutch_app.accounts.ratelimit import admit_sign_up, take_back_sign_up
from dutch_app.accounts.tokens import (
    TokenClaims,
    account_of,
    end_sessions,
    issue_session_token,
    resume_claims,
)
from dutch_app.i18n import _
from dutch_app.services import unit_of_work
from dutch_app.storage.db import WRITE
from dutch_app.storage.models import User

log = logging.getLogger(__name__)
T = TypeVar("T")

SessionFactory = Callable[[], Session]
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def email_taken(address: str) -> EmailTaken:
    """The error for a sign-up with an address that already has an account."""
    return EmailTaken(
        _("Email: {address!r} already has an account; sign in instead.").format(address=address)
    )


def check_address_free(session: Session, address: str) -> None:
    """Raise `EmailTaken` when any account, of either backend, uses ``address``."""
    if session.scalar(select(User.id).where(User.email == address)) is not None:
        raise email_taken(address)


@contextmanager
def writing(sessions: SessionFactory) -> Iterator[Session]:
    """A session in a write transaction (``BEGIN IMMEDIATE`` on SQLite), committed at the end."""
    with sessions() as session, session.begin():
        session.connection(execution_options={WRITE: True})
        yield session


def write_retrying(sessions: SessionFactory, work: Callable[[Session], T]) -> T:
    """``work(session)`` in the services' unit of work for a write, in a session of its own:
    run again from the start when a concurrent transaction took the same key first or the
    database picked this one to give way (as PostgreSQL may do when several sign-ins lock
    the same throttle counters at once)."""
    with sessions() as session:
        return unit_of_work.write(session, work)


class DatabaseBackend(AccountBackend):
    """Shared part of the backends: every account has a row in the project's ``users``."""

    def __init__(
        self,
        sessions: SessionFactory,
        *,
        secret_key: bytes,
        session_days: int = 30,
        clock: Clock = utc_now,
    ) -> None:
        self._sessions = sessions
        self._secret_key = secret_key
        self._session_days = session_days
        self._clock = clock

    def __repr__(self) -> str:
        return f"{type(self).__name__}(session_days={self._session_days})"

    def _user(self, session: Session, user_id: int) -> User:
        """This backend's user ``user_id``, or `AuthFailed` when the account is gone."""
        user = session.get(User, user_id)
        if user is None or user.auth_provider != self.provider:
            raise AuthFailed(_("This account no longer exists."))
        return user

    def issue_token(self, user_id: int, now: datetime | None = None) -> str:
        with self._sessions() as session:
            return issue_session_token(
                session,
                user_id,
                now or self._clock(),
                key=self._secret_key,
                days=self._session_days,
            )

    def _still_valid(self, user: User, claims: TokenClaims) -> bool:
        """A backend's extra say on a token that is authentic, unexpired and not signed out."""
        return True

    def _still_allowed(self, subject: str, claims: TokenClaims) -> bool:
        """A backend's quick say on every check of a session that the database accepts."""
        return True

    def check_session(self, token: str, now: datetime | None = None) -> Account | None:
        with self._sessions() as session:
            resumed = resume_claims(session, token, now or self._clock(), key=self._secret_key)
            if resumed is None or resumed[0].auth_provider != self.provider:
                return None
            user, claims = resumed
            account, subject = account_of(user), user.auth_subject
        return account if self._still_allowed(subject, claims) else None

    def resume(self, token: str, now: datetime | None = None) -> Account | None:
        with self._sessions() as session:
            resumed = resume_claims(session, token, now or self._clock(), key=self._secret_key)
            if resumed is None or resumed[0].auth_provider != self.provider:
                return None
            user, claims = resumed
            return account_of(user) if self._still_valid(user, claims) else None

    def register(
        self, email: str, password: str, display_name: str, *, client: str | None = None
    ) -> None:
        # sign_up does the same slow work (the password hash, or the round trip to
        # Firebase) whether or not the address is taken, so the time tells nothing either.
        with writing(self._sessions) as session:
            counted = admit_sign_up(session, client, self._clock())
        try:
            self.sign_up(email, password, display_name)
        except EmailTaken:
            log.info("sign-up for an address that already has an account")
        except AccountError:
            # Refused input, or a busy server: no account was made, nothing to count.
            with writing(self._sessions) as session:
                take_back_sign_up(session, counted)
            raise

    def _on_sign_out(self, user: User) -> None:
        """A backend's extra work when a person signs out everywhere."""

    def sign_out(self, user_id: int) -> None:
        with writing(self._sessions) as session:
            user = session.get(User, user_id)
            if user is not None:
                end_sessions(session, user_id)
                self._on_sign_out(user)
