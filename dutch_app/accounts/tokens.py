"""Signed, expiring session tokens that keep a person signed in across reloads.

A token reads ``v1.<user_id>.<session_epoch>.<issued_at>.<expires_at>.<signature>``
(times in whole Unix seconds; the signature is HMAC-SHA256 with the app's secret
key over everything before it, base64url without padding). It holds no password
and nothing secret; it is refused once it expires, once its signature does not
match, or once the person's ``session_epoch`` has moved on: signing out, changing
the password and deleting the account all end every session of that person.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from dutch_app.accounts.base import Account
from dutch_app.config import load_settings
from dutch_app.storage.models import User

VERSION = "v1"


@dataclass(frozen=True)
class TokenClaims:
    """What a token says once its signature has been checked."""

    user_id: int
    session_epoch: int
    issued_at: int
    expires_at: int


def _signature(key: bytes, payload: str) -> str:
    digest = hmac.new(key, payload.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def sign_token(claims: TokenClaims, key: bytes) -> str:
    """Format and sign ``claims``.

    >>> sign_token(TokenClaims(7, 0, 100, 200), b"k").startswith("v1.7.0.100.200.")
    True
    """
    fields = (claims.user_id, claims.session_epoch, claims.issued_at, claims.expires_at)
    payload = ".".join([VERSION, *map(str, fields)])
    return f"{payload}.{_signature(key, payload)}"


def read_token(token: str, key: bytes, now: datetime) -> TokenClaims | None:
    """The claims of an authentic, unexpired token; None for anything else.

    >>> token = sign_token(TokenClaims(7, 0, 100, 200), b"k")
    >>> read_token(token, b"k", datetime.fromtimestamp(150, UTC))
    TokenClaims(user_id=7, session_epoch=0, issued_at=100, expires_at=200)
    >>> read_token(token, b"other", datetime.fromtimestamp(150, UTC)) is None
    True
    >>> read_token(token, b"k", datetime.fromtimestamp(200, UTC)) is None
    True
    """
    payload, _, signature = token.strip().rpartition(".")
    parts = payload.split(".")
    if len(parts) != 5 or parts[0] != VERSION or not all(p.isdigit() for p in parts[1:]):
        return None
    if not hmac.compare_digest(signature.encode(), _signature(key, payload).encode()):
        return None
    claims = TokenClaims(*(int(part) for part in parts[1:]))
    if now.timestamp() >= claims.expires_at:
        return None
    return claims


def _now(now: datetime | None) -> datetime:
    return datetime.now(UTC) if now is None else now


def issue_session_token(
    session: Session,
    user_id: int,
    now: datetime | None = None,
    *,
    key: bytes | None = None,
    days: int | None = None,
) -> str:
    """A token for ``user_id`` valid for ``days`` (default: the configured session days)."""
    if key is None or days is None:
        settings = load_settings()
        key = settings.secret_key.encode() if key is None else key
        days = settings.session_days if days is None else days
    user = session.get(User, user_id)
    if user is None:
        raise LookupError(f"No user with id {user_id!r}.")
    moment = _now(now)
    expires = moment + timedelta(days=days)
    claims = TokenClaims(
        user.id, user.session_epoch, int(moment.timestamp()), int(expires.timestamp())
    )
    return sign_token(claims, key)


def account_of(user: User) -> Account:
    """The `Account` view of a ``users`` row."""
    return Account(user.id, user.email, user.display_name, user.auth_provider)


def resume_claims(
    session: Session, token: str, now: datetime | None = None, *, key: bytes | None = None
) -> tuple[Account, TokenClaims] | None:
    """Like `resume_session`, also returning the token's claims."""
    key = load_settings().secret_key.encode() if key is None else key
    claims = read_token(token, key, _now(now))
    if claims is None:
        return None
    user = session.get(User, claims.user_id)
    if user is None or user.session_epoch != claims.session_epoch:
        return None
    return account_of(user), claims


def resume_session(
    session: Session, token: str, now: datetime | None = None, *, key: bytes | None = None
) -> Account | None:
    """The account a token stands for, or None if it is forged, expired or ended."""
    resumed = resume_claims(session, token, now, key=key)
    return None if resumed is None else resumed[0]


def end_sessions(session: Session, user_id: int) -> None:
    """Make every token issued so far for ``user_id`` useless ("sign out everywhere")."""
    user = session.get(User, user_id)
    if user is not None:
        user.session_epoch += 1
