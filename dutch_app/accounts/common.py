"""What both backends do the same way: the ``users`` row, session tokens, signing out."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from dutch_app.accounts.base import (
    ANONYMOUS_KEPT_FOR,
    Account,
    AccountBackend,
    AccountError,
    AuthFailed,
    EmailTaken,
    NotSupported,
)
from dutch_app.accounts.ratelimit import ANONYMOUS, admit_sign_up
from dutch_app.accounts.removal import remove_user
from dutch_app.accounts.tokens import (
    TokenClaims,
    account_of,
    end_sessions,
    issue_session_token,
    resume_claims,
)
from dutch_app.accounts.validation import check_display_name
from dutch_app.i18n import _
from dutch_app.services import unit_of_work
from dutch_app.storage.db import WRITE
from dutch_app.storage.models import User, as_utc, utcnow
from dutch_app.throttle import take_back

log = logging.getLogger(__name__)
T = TypeVar("T")

SEEN_EVERY = timedelta(days=1)
"""How often an anonymous account's ``last_seen_at`` is written: at most once a day."""

SessionFactory = Callable[[], Session]
Clock = Callable[[], datetime]


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
        clock: Clock = utcnow,
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

    def _still_valid(self, subject: str, claims: TokenClaims) -> bool:
        """A backend's extra say on a token that is authentic, unexpired and not signed out."""
        return True

    def _still_allowed(self, subject: str, claims: TokenClaims) -> bool:
        """A backend's quick say on every check of a session that the database accepts."""
        return True

    def check_session(self, token: str, now: datetime | None = None) -> Account | None:
        return self._resumed(token, now, self._still_allowed)

    def resume(self, token: str, now: datetime | None = None) -> Account | None:
        return self._resumed(token, now, self._still_valid)

    def _resumed(
        self, token: str, now: datetime | None, backend_says: Callable[[str, TokenClaims], bool]
    ) -> Account | None:
        """The account of a token the database accepts and ``backend_says`` still admits."""
        with self._sessions() as session:
            resumed = resume_claims(session, token, now or self._clock(), key=self._secret_key)
            if resumed is None or resumed[0].auth_provider != self.provider:
                return None
            user, claims = resumed
            account, subject, seen = account_of(user), user.auth_subject, user.last_seen_at
        if not backend_says(subject, claims):
            return None
        self._note_seen(account, seen, now)
        return account

    def _note_seen(self, account: Account, seen: datetime | None, now: datetime | None) -> None:
        """Keep an anonymous account's last use, to the day (a write at most once a day)."""
        now = now or self._clock()
        if not account.anonymous or (seen is not None and now - as_utc(seen) < SEEN_EVERY):
            return
        with writing(self._sessions) as session:
            session.execute(update(User).where(User.id == account.user_id).values(last_seen_at=now))

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
                take_back(session, counted)  # no account was made after all
            raise

    # Anonymous accounts: made with one tap, kept with an email and password, removed unused.

    def _new_anonymous_subject(self) -> str:
        """The ``auth_subject`` of a new anonymous account: a random id (Firebase: its uid)."""
        return f"anonymous:{secrets.token_hex(16)}"

    def _forget_anonymous_subject(self, subject: str) -> None:
        """Undo `_new_anonymous_subject` outside the database (Firebase: delete its user)."""

    def start_anonymous(self, display_name: str, *, client: str | None = None) -> Account:
        name = check_display_name(display_name)
        now = self._clock()
        with writing(self._sessions) as session:
            counted = admit_sign_up(session, client, now, ANONYMOUS)
        try:
            subject = self._new_anonymous_subject()
        except AccountError:
            with writing(self._sessions) as session:
                take_back(session, counted)  # no account was made after all
            raise
        with writing(self._sessions) as session:
            user = self._add_user(
                session, subject, None, name, created_at=now, last_seen_at=now, is_anonymous=True
            )
            account = account_of(user)
        log.info("anonymous account %s created", account.user_id)
        return account

    def _add_user(
        self, session: Session, subject: str, email: str | None, name: str, **columns: Any
    ) -> User:
        """A new ``users`` row of this backend, flushed so that it has its id."""
        user = User(
            auth_provider=self.provider,
            auth_subject=subject,
            email=email,
            display_name=name,
            session_epoch=0,
            **columns,
        )
        session.add(user)
        session.flush()
        return user

    def _anonymous_user(self, session: Session, user_id: int) -> User:
        """This backend's anonymous user ``user_id``; `NotSupported` for a normal account."""
        user = self._user(session, user_id)
        if not user.is_anonymous:
            raise NotSupported(_("This account already has an email address."), "email")
        return user

    def remove_unused_anonymous(self, now: datetime | None = None) -> int:
        cutoff = (now or self._clock()) - ANONYMOUS_KEPT_FOR
        unused = (
            User.auth_provider == self.provider,
            User.is_anonymous.is_(True),
            func.coalesce(User.last_seen_at, User.created_at) < cutoff,
        )
        with self._sessions() as session:
            found = session.execute(select(User.id, User.auth_subject).where(*unused)).all()

        def remove(session: Session, user_id: int) -> None:
            # Asked again in the deleting transaction: the person may have come back or
            # kept the account since the look-up.
            user = session.scalar(select(User).where(User.id == user_id, *unused))
            if user is not None:
                remove_user(session, user)

        for user_id, subject in found:
            write_retrying(self._sessions, partial(remove, user_id=user_id))
            self._forget_anonymous_subject(subject)
        if found:
            log.info("%d unused anonymous accounts deleted", len(found))
        return len(found)

    def _on_sign_out(self, user: User) -> None:
        """A backend's extra work when a person signs out everywhere."""

    def sign_out(self, user_id: int) -> None:
        with writing(self._sessions) as session:
            user = session.get(User, user_id)
            if user is not None:
                end_sessions(session, user_id)
                self._on_sign_out(user)
