"""One-time links to choose a new password for a local account.

A link is the app's address with ``?reset=<token>``: the token is 32 random
bytes, and the database keeps only its SHA-256 hash (the token is as strong as
a key, so a fast hash is enough and the link cannot be rebuilt from the
database). A link works once, within 30 minutes; only the newest link of an account
works, and none made before the password last changed. Using it sets the new
password (the sign-up rules apply), ends every session of the account, and
(with SMTP) tells the address that its password was changed.

With SMTP settings, "Forgot your password?" on the sign-in page emails the
link; the page answers the same whether or not the address has an account, and
the mail is sent in the background so the answer takes as long either way.
Without them, the host prints a link with::

    .venv/bin/python -m dutch_app.accounts.reset EMAIL
"""

from __future__ import annotations

import argparse
import logging
import re
import secrets
import sys
import threading
from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any, cast

from sqlalchemy import (
    CursorResult,
    DateTime,
    Select,
    String,
    delete,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session

from dutch_app import throttle
from dutch_app.accounts.base import Account, AccountError
from dutch_app.accounts.common import Clock, SessionFactory, writing
from dutch_app.accounts.mail import changed_message, reset_message, send_mail
from dutch_app.accounts.passwords import PasswordHashes
from dutch_app.accounts.tokens import account_of, end_sessions
from dutch_app.accounts.validation import check_email, check_password
from dutch_app.config import DEFAULT_BASE_URL, SmtpSettings
from dutch_app.i18n import _, ngettext
from dutch_app.storage.models import (
    LocalCredential,
    PasswordReset,
    User,
    as_utc,
    token_hash,
    utcnow,
)

log = logging.getLogger(__name__)

RESET_MINUTES = 30
QUERY_PARAMETER = "reset"
TOKEN_BYTES = 32
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{32,64}")


class ResetLinkInvalid(AccountError):
    """The link is wrong, expired, already used or replaced by a newer one (not told apart)."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "This password-reset link has expired or has already been used. "
                "Ask for a new one on the sign-in page."
            )
        )


class ResetRequestsLimited(AccountError):
    """Too many reset links asked for one address in a short time."""

    field = "email"

    def __init__(self, minutes: int) -> None:
        super().__init__(
            ngettext(
                "Too many reset links were asked for this address. Try again in {count} minute.",
                "Too many reset links were asked for this address. Try again in {count} minutes.",
                minutes,
            ).format(count=minutes)
        )


def reset_link(base_url: str, token: str) -> str:
    """The link a person opens to choose a new password.

    >>> reset_link("https://scores.example.com/", "abc")
    'https://scores.example.com/?reset=abc'
    """
    return f"{base_url.rstrip('/')}/?{QUERY_PARAMETER}={token}"


RESET_REQUESTS = throttle.Rule(
    "reset_address", 5, timedelta(minutes=15), timedelta(hours=4), timedelta(days=1)
)
"""Five links an address, then a wait of 15 minutes that doubles with each further ask."""


def throttle_reset_requests(session: Session, address: str, now: datetime) -> None:
    """Count one reset request for ``address``; `ResetRequestsLimited` when there were too many.

    Reset requests have a counter of their own in the shared limiter, so asking for
    links never slows the address's sign-in.
    """
    key = throttle.Key(RESET_REQUESTS, address, email=address)
    refusal = throttle.admit(session, [key], now)
    if refusal is not None:
        raise ResetRequestsLimited(-(-refusal.seconds // 60))


def create_reset(session: Session, address: str, now: datetime) -> str | None:
    """A new token for the local account of ``address`` (None when no account uses it);
    earlier links of the account and stale rows are dropped.

    The same statements run whether or not the address has an account, so the time a
    request takes does not tell which addresses have one.
    """
    now = as_utc(now)
    account = _local_account(address)
    session.execute(
        delete(PasswordReset).where(
            or_(PasswordReset.user_id.in_(account), PasswordReset.expires_at < now)
        )
    )
    token = secrets.token_urlsafe(TOKEN_BYTES)
    expires = now + timedelta(minutes=RESET_MINUTES)
    made = session.scalar(
        insert(PasswordReset)
        .from_select(
            ["user_id", "token_hash", "created_at", "expires_at"],
            account.add_columns(
                literal(token_hash(token), String),
                literal(now, DateTime(timezone=True)),
                literal(expires, DateTime(timezone=True)),
            ),
        )
        .returning(PasswordReset.id)
    )
    return None if made is None else token


def _usable(token: object, now: datetime):
    """The conditions a row must meet for ``token`` to work now (None: it cannot)."""
    if not isinstance(token, str) or _TOKEN_SHAPE.fullmatch(token) is None:
        return None
    password_set_at = (
        select(LocalCredential.updated_at)
        .where(LocalCredential.user_id == PasswordReset.user_id)
        .scalar_subquery()
    )
    return (
        PasswordReset.token_hash == token_hash(token),
        PasswordReset.used_at.is_(None),
        PasswordReset.expires_at > as_utc(now),
        # A password changed after the link was made voids it.
        PasswordReset.created_at >= password_set_at,
    )


def _local_account(address: str) -> Select[int]:
    """The id of the local account that signs in with ``address`` (no row when none does)."""
    return (
        select(User.id)
        .join(LocalCredential, LocalCredential.user_id == User.id)
        .where(User.email == address, User.auth_provider == "local")
    )


class ResetLinks:
    """Making, mailing and using reset links for the local account store."""

    def __init__(
        self,
        sessions: SessionFactory,
        *,
        base_url: str = DEFAULT_BASE_URL,
        smtp: SmtpSettings | None = None,
        hashes: PasswordHashes | None = None,
        clock: Clock = utcnow,
    ) -> None:
        self._sessions = sessions
        self._base_url = base_url
        self._smtp = smtp or SmtpSettings()
        self._hashes = hashes or PasswordHashes()
        self._clock = clock

    @property
    def by_email(self) -> bool:
        """Whether links are emailed (SMTP is configured)."""
        return self._smtp.configured

    def link_for(self, email: str) -> str | None:
        """A fresh link for the local account of ``email`` (None when there is none)."""
        address = check_email(email)
        with writing(self._sessions) as session:
            token = create_reset(session, address, self._clock())
        return None if token is None else reset_link(self._base_url, token)

    def request(self, email: str) -> None:
        """Email a link to ``email`` if a local account uses it; silent either way."""
        address = check_email(email)
        now = self._clock()
        with writing(self._sessions) as session:
            throttle_reset_requests(session, address, now)
            token = create_reset(session, address, now)
        if token is not None and self.by_email:
            link = reset_link(self._base_url, token)
            self._in_background(reset_message(self._smtp, address, link, RESET_MINUTES))

    def _in_background(self, message: EmailMessage) -> None:
        """Send ``message`` without making the page wait (or answer faster for unknown
        addresses)."""
        threading.Thread(target=self._mail, args=(message,), name="reset-mail", daemon=True).start()

    def _mail(self, message: EmailMessage) -> None:
        try:
            send_mail(self._smtp, message)
        except Exception:  # a mail server's failure must not surface on any page
            log.exception("the password-reset email could not be sent")
        else:
            log.info("password-reset email sent")

    def is_valid(self, token: object) -> bool:
        """Whether ``token`` would still choose a new password now."""
        conditions = _usable(token, self._clock())
        if conditions is None:
            return False
        with self._sessions() as session:
            return session.scalar(select(PasswordReset.id).where(*conditions)) is not None

    def use(self, token: object, new_password: str) -> Account:
        """Set ``new_password`` with the link's token, end every session, and spend the link."""
        now = self._clock()
        conditions = _usable(token, now)
        if conditions is None:
            raise ResetLinkInvalid()
        with self._sessions() as session:
            found = session.execute(
                select(User.id, User.email)
                .join(PasswordReset, PasswordReset.user_id == User.id)
                .where(*conditions)
            ).first()
        if found is None:
            raise ResetLinkInvalid()
        user_id, address = found[0], found[1] or ""  # an anonymous account has no link
        check_password(new_password, address)
        new_hash = self._hashes.hash(new_password)  # slow: before the write lock is taken
        with writing(self._sessions) as session:
            claimed = session.execute(
                update(PasswordReset).where(*conditions).values(used_at=as_utc(now))
            )
            credential = session.get(LocalCredential, user_id)
            if cast(CursorResult[Any], claimed).rowcount != 1 or credential is None:
                raise ResetLinkInvalid()
            credential.password_hash = new_hash
            credential.updated_at = now
            end_sessions(session, user_id)
            account = account_of(session.get_one(User, user_id))
        log.info("password reset for user %s", user_id)
        if self.by_email:
            self._in_background(changed_message(self._smtp, address, self._base_url))
        return account


def main(argv: Sequence[str] | None = None) -> int:
    """Print a one-time reset link for a local account (for the host, without SMTP)."""
    parser = argparse.ArgumentParser(
        prog="python -m dutch_app.accounts.reset",
        description="Print a one-time link to choose a new password for a local account.",
    )
    parser.add_argument("email", help="the address the account signs in with")
    args = parser.parse_args(argv)

    from dutch_app.config import load_settings
    from dutch_app.storage.db import get_engine, make_session_factory

    settings = load_settings()
    if settings.auth_backend != "local":
        print("Accounts are kept by Firebase: it sends the reset emails.", file=sys.stderr)
        return 2
    engine = get_engine(settings.database_url)
    try:
        links = ResetLinks(make_session_factory(engine), base_url=settings.base_url)
        link = links.link_for(args.email)
    except AccountError as error:
        print(error.message, file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    if link is None:
        print(f"No local account uses {args.email.strip()!r}.", file=sys.stderr)
        return 1
    print(link)
    print(
        f"Give this link to the account's owner: it works once, within {RESET_MINUTES} "
        "minutes, and any earlier link of the account no longer works.",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
