"""Signed, expiring session tokens that keep a person signed in across reloads.

A token reads ``v2.<user_id>.<issued_at>.<expires_at>.<signature>`` (times in whole
Unix seconds). The signature is HMAC-SHA256, with the app's secret key, over
everything before it *and the person's session secret* (``users.session_secret``,
32 random bytes kept with the person), base64url without padding. It holds no
password and nothing secret; it is refused once it expires, once its signature does
not match, or once the person's session secret has changed: signing out, changing
the password and deleting the account each give the person a new secret (or take
the row away), which ends every session of that person at once.

The session secret is what binds a token to one person: ids are never reused
either, but even a row that somehow had an old id again would have a secret of
its own, so no token or open tab of one account can ever act as another. Tokens of
the earlier ``v1`` form, signed without the session secret, are refused like any
other unknown text.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from dutch_app.accounts.base import Account
from dutch_app.storage.models import User, random_token, utcnow

VERSION = "v2"
MAX_NUMBER = 2**63 - 1
"""The largest id or time a token may carry (what every database can compare)."""
MAX_TOKEN_LENGTH = 256
"""Longer text is refused before it is even split (a real token has about 80 characters)."""

# ASCII digits only (str.isdigit() accepts other scripts' digits too), written one way only.
_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")
_SIGNATURE = re.compile(r"[A-Za-z0-9_-]{43}")  # 32 bytes, base64url without padding


@dataclass(frozen=True)
class TokenClaims:
    """What a token says about whom and when; trusted only once its signature is checked."""

    user_id: int
    issued_at: int
    expires_at: int


def _payload(claims: TokenClaims) -> str:
    return ".".join([VERSION, *map(str, (claims.user_id, claims.issued_at, claims.expires_at))])


def _signature(key: bytes, payload: str, session_secret: str) -> str:
    message = f"{payload}.{session_secret}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def sign_token(claims: TokenClaims, key: bytes, session_secret: str) -> str:
    """Format ``claims`` and sign them for the person whose session secret is given.

    >>> sign_token(TokenClaims(7, 100, 200), b"k", "s").startswith("v2.7.100.200.")
    True
    """
    payload = _payload(claims)
    return f"{payload}.{_signature(key, payload, session_secret)}"


def parse_token(token: object) -> tuple[TokenClaims, str] | None:
    """The claims and signature of text of a token's form, unchecked; None for anything else.

    Never raises, whatever it is given: only ASCII digits count as digits, and no
    number may exceed :data:`MAX_NUMBER`.

    >>> parse_token("v2.7.100.200." + "A" * 43)[0]
    TokenClaims(user_id=7, issued_at=100, expires_at=200)
    >>> parse_token("v2.\\u0661.100.200." + "A" * 43) is None  # an Arabic-Indic digit
    True
    >>> parse_token("v2." + "9" * 30 + ".100.200." + "A" * 43) is None
    True
    """
    if not isinstance(token, str) or len(token) > MAX_TOKEN_LENGTH:
        return None
    parts = token.strip().split(".")
    if len(parts) != 5 or parts[0] != VERSION or not _SIGNATURE.fullmatch(parts[4]):
        return None
    if not all(_NUMBER.fullmatch(part) for part in parts[1:4]):
        return None
    user_id, issued_at, expires_at = (int(part) for part in parts[1:4])
    if not 1 <= user_id <= MAX_NUMBER or max(issued_at, expires_at) > MAX_NUMBER:
        return None
    return TokenClaims(user_id, issued_at, expires_at), parts[4]


def read_token(token: object, key: bytes, session_secret: str, now: datetime) -> TokenClaims | None:
    """The claims of an authentic, unexpired token of the person with ``session_secret``;
    None for anything else.

    >>> from datetime import UTC
    >>> token = sign_token(TokenClaims(7, 100, 200), b"k", "s")
    >>> read_token(token, b"k", "s", datetime.fromtimestamp(150, UTC))
    TokenClaims(user_id=7, issued_at=100, expires_at=200)
    >>> read_token(token, b"other", "s", datetime.fromtimestamp(150, UTC)) is None
    True
    >>> read_token(token, b"k", "another person", datetime.fromtimestamp(150, UTC)) is None
    True
    >>> read_token(token, b"k", "s", datetime.fromtimestamp(200, UTC)) is None
    True
    """
    parsed = parse_token(token)
    if parsed is None:
        return None
    claims, signature = parsed
    expected = _signature(key, _payload(claims), session_secret)
    if not hmac.compare_digest(signature, expected) or now.timestamp() >= claims.expires_at:
        return None
    return claims


def issue_session_token(
    session: Session, user_id: int, now: datetime | None = None, *, key: bytes, days: int
) -> str:
    """A token for ``user_id`` signed with ``key``, valid for ``days``."""
    user = session.get(User, user_id)
    if user is None:
        raise LookupError(f"No user with id {user_id!r}.")
    moment = now or utcnow()
    expires = moment + timedelta(days=days)
    claims = TokenClaims(user.id, int(moment.timestamp()), int(expires.timestamp()))
    return sign_token(claims, key, user.session_secret)


def account_of(user: User) -> Account:
    """The `Account` view of a ``users`` row."""
    return Account(
        user.id, user.email or "", user.display_name, user.auth_provider, user.is_anonymous
    )


def resume_claims(
    session: Session, token: object, now: datetime, *, key: bytes
) -> tuple[User, TokenClaims] | None:
    """The person's row and the token's claims, or None if the token is forged, expired or
    ended.

    Costs at most one query, by primary key, and none for text that is not a token.
    """
    parsed = parse_token(token)
    if parsed is None:
        return None
    user = session.get(User, parsed[0].user_id)
    if user is None:
        return None
    claims = read_token(token, key, user.session_secret, now)
    return None if claims is None else (user, claims)


def end_sessions(session: Session, user_id: int) -> None:
    """Make every token issued so far for ``user_id`` useless ("sign out everywhere").

    The person gets a new random session secret; the epoch is counted on for the record.
    """
    user = session.get(User, user_id)
    if user is not None:
        user.session_secret = random_token()
        user.session_epoch += 1
