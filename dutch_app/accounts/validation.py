"""Checks on what a person types into the account forms, shared by both backends.

Passwords are never quoted in a message; emails and display names are.
"""

from __future__ import annotations

import re
import unicodedata

from dutch_app.accounts.base import InvalidDisplayName, InvalidEmail, WeakPassword
from dutch_app.i18n import _
from dutch_app.text_input import text_problem

MIN_PASSWORD_LENGTH = 10
MAX_PASSWORD_LENGTH = 256
MAX_DISPLAY_NAME_LENGTH = 80
MAX_EMAIL_LENGTH = 254

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_EMAIL = re.compile(
    r"(?P<local>[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*)"
    rf"@(?P<domain>{_LABEL}(?:\.{_LABEL})*\.[a-z]{{2,63}})"
)

COMMON_PASSWORDS = frozenset(
    {
        "1234567890",
        "12345678910",
        "0123456789",
        "1q2w3e4r5t",
        "abc1234567",
        "abcd123456",
        "iloveyou12",
        "letmein123",
        "password1!",
        "password12",
        "password123",
        "passw0rd123",
        "qwerty1234",
        "qwerty12345",
        "qwertyuiop",
        "welcome123",
        "dutchdutch1",
    }
)


def normalize_email(email: str) -> str:
    """The address as stored: trimmed and lower-cased.

    >>> normalize_email("  Ann@Example.COM ")
    'ann@example.com'
    """
    return email.strip().lower()


def check_email(email: str) -> str:
    """Return the normalized address, or raise `InvalidEmail` naming it.

    >>> check_email("Ann@example.com")
    'ann@example.com'
    >>> check_email("ann@")
    Traceback (most recent call last):
    ...
    dutch_app.accounts.base.InvalidEmail: Email: 'ann@' is not a valid email address.
    """
    address = normalize_email(email)
    if not address:
        raise InvalidEmail(_("Email: please enter your email address."))
    if len(address) > MAX_EMAIL_LENGTH or _EMAIL.fullmatch(address) is None:
        raise InvalidEmail(
            _("Email: {email!r} is not a valid email address.").format(email=email.strip())
        )
    return address


def check_display_name(display_name: object) -> str:
    """Return the display name with its spaces tidied (as player names are), or raise
    `InvalidDisplayName`.

    >>> check_display_name("  Ann   Marie ")
    'Ann Marie'
    """
    name = " ".join(display_name.split()) if isinstance(display_name, str) else ""
    if not name:
        raise InvalidDisplayName(_("Display name: please enter a name."))
    if len(name) > MAX_DISPLAY_NAME_LENGTH:
        raise InvalidDisplayName(
            _("Display name: use at most {most} characters (this one has {length}).").format(
                most=MAX_DISPLAY_NAME_LENGTH, length=len(name)
            )
        )
    problem = text_problem(name, MAX_DISPLAY_NAME_LENGTH)
    if problem is not None:
        raise InvalidDisplayName(_("Display name: {problem}.").format(problem=problem))
    return unicodedata.normalize("NFC", name)


def _character_classes(password: str) -> int:
    """How many of lower case, upper case, digits and other characters the password uses."""
    kinds = {
        "lower" if c.islower() else "upper" if c.isupper() else "digit" if c.isdigit() else "other"
        for c in password
    }
    return len(kinds)


def check_password(password: str, email: str) -> None:
    """Raise `WeakPassword` unless the password is long and varied enough.

    >>> check_password("correct horse 7", "ann@example.com")
    >>> check_password("aaaaaaaaaaaa", "ann@example.com")
    Traceback (most recent call last):
    ...
    dutch_app.accounts.base.WeakPassword: Password: mix at least two kinds of characters \
(lower case, upper case, digits, symbols or spaces).
    """
    if len(password) < MIN_PASSWORD_LENGTH:
        raise WeakPassword(
            _("Password: use at least {least} characters.").format(least=MIN_PASSWORD_LENGTH)
        )
    if len(password) > MAX_PASSWORD_LENGTH:
        raise WeakPassword(
            _("Password: use at most {most} characters.").format(most=MAX_PASSWORD_LENGTH)
        )
    if any(unicodedata.category(char) == "Cs" for char in password):
        # Half of a character cannot be encoded, so it could never be checked again.
        raise WeakPassword(_("Password: it contains half of a character; type it again."))
    if _character_classes(password) < 2:
        raise WeakPassword(
            _(
                "Password: mix at least two kinds of characters "
                "(lower case, upper case, digits, symbols or spaces)."
            )
        )
    folded = password.strip().casefold()
    address = normalize_email(email)
    if folded in (address, address.partition("@")[0]):
        raise WeakPassword(_("Password: must not be your email address."))
    if folded in COMMON_PASSWORDS:
        raise WeakPassword(_("Password: this one is too common; choose another."))
