"""What every account backend offers: the `Account` value, the errors, the interface.

The dashboard only ever talks to an `AccountBackend`; whether accounts live in the
project's database or in Firebase Authentication is a matter of configuration.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime, timedelta

from dutch_app.i18n import _
from dutch_app.throttle import spell_wait


@dataclass(frozen=True)
class Account:
    """A signed-in person, as the app sees them. Holds no secret of any kind.

    >>> Account(1, "ann@example.com", "Ann", "local")  # doctest: +NORMALIZE_WHITESPACE
    Account(user_id=1, email='ann@example.com', display_name='Ann', provider='local',
            anonymous=False)
    """

    user_id: int
    """The id of the person's row in the ``users`` table."""
    email: str
    """The address they sign in with, lower-cased ("" for an anonymous account)."""
    display_name: str
    """The name shown to the other members of their groups."""
    provider: str
    """Where the password lives: ``"local"`` or ``"firebase"``."""
    anonymous: bool = False
    """Made with one tap, without an email or password: it lives in this browser's session
    cookie until the person adds an email and password (`AccountBackend.keep_account`)."""


class AccountError(Exception):
    """Base of every error the account backends raise on purpose.

    ``field`` names the form field the message belongs next to (``None`` when the
    message concerns the whole form).
    """

    field: str | None = None

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        if field is not None:
            self.field = field

    @property
    def message(self) -> str:
        """The text to show the person."""
        return str(self.args[0])


class AuthFailed(AccountError):
    """The email or the password is wrong; deliberately does not say which."""

    def __init__(self, message: str | None = None, field: str | None = None) -> None:
        super().__init__(message or _("Email or password is incorrect."), field)


class RateLimited(AccountError):
    """Too many failures lately; the next try has to wait ``seconds``.

    ``template`` says whose failures (this address, this network, everyone) and has
    a ``{wait}`` slot for the wait in words.
    """

    field = "email"

    def __init__(self, template: str, seconds: int) -> None:
        super().__init__(_(template).format(wait=spell_wait(seconds)))
        self.seconds = seconds


class HashingBusy(AccountError):
    """Every password-checking slot of this server is taken; nothing was checked or changed."""

    def __init__(self) -> None:
        super().__init__(_("Signing in is busy right now. Please try again in a moment."))


class WeakPassword(AccountError):
    """The new password is too easy to guess."""

    field = "password"


class PasswordChangeRequired(AccountError):
    """The password is right but does not meet the app's rules (the account was made
    outside the app, e.g. through Firebase's public sign-up): the person chooses a new
    one with `AccountBackend.replace_weak_password` before they are signed in."""

    field = "password"

    def __init__(self, reason: str) -> None:
        super().__init__(
            _(
                "Your password is right, but it does not meet this app's rules: {reason} "
                "Choose a new one to continue."
            ).format(reason=reason)
        )
        self.reason = reason


class InvalidEmail(AccountError):
    """The email address is malformed."""

    field = "email"


class EmailTaken(AccountError):
    """Another account already uses this email address."""

    field = "email"


class InvalidDisplayName(AccountError):
    """The display name is empty, too long, or contains control characters."""

    field = "display_name"


class NotSupported(AccountError):
    """This backend does not offer the requested action (e.g. the app's own reset links)."""


class ServiceUnavailable(AccountError):
    """The sign-in service could not be reached or refused to answer; nothing was changed."""

    def __init__(self) -> None:
        super().__init__(_("Signing in is not possible right now. Please try again later."))


class AccountBackend(ABC):
    """The one interface to accounts, whichever store keeps the passwords.

    Every method opens and commits its own transaction, so that a failed sign-in is
    remembered by the rate limiter even though the call raises.
    """

    provider: str
    """``"local"`` or ``"firebase"``: the value of ``users.auth_provider`` it manages."""
    password_reset_by_email: bool = False
    """True when passwords are changed through a reset email instead of `change_password`."""

    @abstractmethod
    def sign_up(self, email: str, password: str, display_name: str) -> Account:
        """Create an account and return it, signed in. Nothing is stored on error."""

    @abstractmethod
    def sign_in(self, email: str, password: str, *, client: str | None = None) -> Account:
        """Check the password for this address; raise `AuthFailed` or `RateLimited`.

        ``client`` is the network address the try comes from, for the rate limiter.
        """

    @abstractmethod
    def register(
        self, email: str, password: str, display_name: str, *, client: str | None = None
    ) -> None:
        """Make an account unless the address has one, answering the same either way.

        Nothing tells the caller whether the address was free: the person signs in
        next, with the password they chose. Invalid input is still refused.
        """

    @abstractmethod
    def sign_out(self, user_id: int) -> None:
        """End every session of this person (all devices)."""

    @abstractmethod
    def issue_token(self, user_id: int, now: datetime | None = None) -> str:
        """A signed session token that keeps the person signed in across reloads."""

    @abstractmethod
    def resume(self, token: str, now: datetime | None = None) -> Account | None:
        """The account a session token still stands for, or None when it has ended."""

    @abstractmethod
    def check_session(self, token: str, now: datetime | None = None) -> Account | None:
        """Like `resume`, from the project's database: one query by primary key.

        Every open tab asks this on each rerun, so that signing out, changing the
        password or deleting the account elsewhere ends the tab's session at once. An
        outside account store (Firebase) is asked at most once per person every few
        minutes, so an account disabled or revoked there ends within that time.
        """

    @abstractmethod
    def change_display_name(self, user_id: int, display_name: str) -> Account:
        """Give the person a new display name (1 to 80 characters after trimming)."""

    def change_password(self, user_id: int, current_password: str, new_password: str) -> Account:
        """Replace the password; every existing session of the person ends."""
        raise NotSupported(_("Passwords are changed through the reset email."), "password")

    def replace_weak_password(
        self, email: str, current_password: str, new_password: str, *, client: str | None = None
    ) -> Account:
        """After `PasswordChangeRequired`: check the current password, set the new one (which
        must meet the rules) and return the account, signed in."""
        raise NotSupported(_("Every password here already meets the rules."), "password")

    def send_password_reset(self, email: str) -> None:
        """Email the person a link to choose a new password (silent for unknown addresses)."""
        raise NotSupported(_("Change your password in your account settings."), "email")

    @property
    def reset_email_available(self) -> bool:
        """Whether the sign-in page can email a link to choose a new password."""
        return self.password_reset_by_email

    def reset_link_valid(self, token: str) -> bool:
        """Whether a reset link's token (the app's own links) would still work now."""
        return False

    def reset_password(self, token: str, new_password: str) -> Account:
        """Choose a new password with a reset link's token; every session of the person ends."""
        raise NotSupported(_("This link does not work here: ask for a new one by email."), "token")

    @abstractmethod
    def delete_account(self, user_id: int, password: str) -> None:
        """Delete the person and what only they can see; shared game history stays.

        The person confirms with their password; a wrong one deletes nothing. An anonymous
        account has no password: its session is all it takes.
        """

    @abstractmethod
    def start_anonymous(self, display_name: str, *, client: str | None = None) -> Account:
        """Make an anonymous account (no email, no password) and return it, signed in.

        Counted per network (``client``): `RateLimited` when it has made too many lately.
        """

    @abstractmethod
    def keep_account(self, user_id: int, email: str, password: str) -> Account:
        """Turn an anonymous account into a normal one with this email and password, under
        the same rules as sign-up; its groups and games stay. Sessions started before may
        end (Firebase ends them once a password is set): the tab starts a new one."""

    @abstractmethod
    def remove_unused_anonymous(self, now: datetime | None = None) -> int:
        """Delete the anonymous accounts nobody used for `ANONYMOUS_KEPT_FOR`, with the
        groups only they were in; return how many went."""


ANONYMOUS_KEPT_FOR = timedelta(days=30)
"""How long an anonymous account is kept after its person last opened the app."""
