"""Accounts kept by Firebase Authentication; the project's database keeps a ``users`` row.

The password checks go through the Identity Toolkit REST API (what a browser would do
with the web API key); the server side uses firebase-admin to verify the ID token
(revocation included), rename, revoke and delete users. The local row holds only the
email address and the display name, with ``auth_subject`` = the Firebase uid.

Each check of a session also asks whether Firebase still lets the person in (not
disabled, not deleted, no revocation since the session began), at most once per person
every ``check_every`` seconds (:mod:`dutch_app.accounts.standing`). When Firebase says
no for the account as a whole, the app's own sessions of the person end as well.
"""

from __future__ import annotations

import logging

from firebase_admin import auth
from firebase_admin.exceptions import FirebaseError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dutch_app.accounts import validation
from dutch_app.accounts.base import (
    Account,
    AuthFailed,
    EmailTaken,
    InvalidDisplayName,
    InvalidEmail,
    PasswordChangeRequired,
    ServiceUnavailable,
    WeakPassword,
)
from dutch_app.accounts.common import (
    Clock,
    DatabaseBackend,
    SessionFactory,
    check_address_free,
    email_taken,
    write_retrying,
    writing,
)
from dutch_app.accounts.firebase_app import check_settings, firebase_app
from dutch_app.accounts.firebase_rest import FirebaseRestError, IdentityToolkit, SignedIn
from dutch_app.accounts.ratelimit import admit_sign_in, settle
from dutch_app.accounts.removal import remove_user
from dutch_app.accounts.standing import Standing, Standings
from dutch_app.accounts.tokens import TokenClaims, account_of, end_sessions
from dutch_app.config import FirebaseSettings
from dutch_app.i18n import _
from dutch_app.storage.models import User, utcnow

log = logging.getLogger(__name__)

CHECK_EVERY = 180
"""Seconds an answer of Firebase about a person is trusted (``limits.firebase_check_seconds``)."""

WRONG_CREDENTIALS = frozenset(
    {"EMAIL_NOT_FOUND", "INVALID_PASSWORD", "INVALID_LOGIN_CREDENTIALS", "USER_DISABLED"}
)


class FirebaseBackend(DatabaseBackend):
    """Passwords, password resets and revocation handled by Firebase Authentication."""

    provider = "firebase"
    password_reset_by_email = True

    def __init__(
        self,
        sessions: SessionFactory,
        settings: FirebaseSettings,
        *,
        secret_key: bytes,
        session_days: int = 30,
        clock: Clock = utcnow,
        rest: IdentityToolkit | None = None,
        check_every: float = CHECK_EVERY,
    ) -> None:
        super().__init__(sessions, secret_key=secret_key, session_days=session_days, clock=clock)
        check_settings(settings)
        self._app = firebase_app(settings)
        self._standings = Standings(
            self._standing_in_firebase, check_every, lambda: self._clock().timestamp()
        )
        # The emulator wants some API key, but any will do.
        api_key = settings.api_key or ("emulator-api-key" if settings.auth_emulator_host else "")
        self._rest = rest or IdentityToolkit(api_key, settings.auth_emulator_host or None)

    def _verified_uid(self, signed: SignedIn) -> str:
        """Check the ID token on the server side, revocation included."""
        try:
            claims = auth.verify_id_token(
                signed.id_token, app=self._app, check_revoked=True, clock_skew_seconds=10
            )
        except (auth.RevokedIdTokenError, auth.UserDisabledError, auth.InvalidIdTokenError):
            log.warning("Firebase refused a fresh ID token")
            raise AuthFailed() from None
        except FirebaseError as error:
            raise ServiceUnavailable() from error
        if claims["uid"] != signed.uid:
            raise AuthFailed()
        return claims["uid"]

    def _keep_user(self, session: Session, uid: str, address: str, name: str) -> User:
        """Create or update the local row of Firebase user ``uid`` (email and name only).

        An empty ``name`` keeps the name we have (or, for a new row, the part of the
        address before the @).
        """
        user = session.scalar(
            select(User).where(User.auth_provider == self.provider, User.auth_subject == uid)
        )
        name = usable_display_name(name)
        if user is None:
            check_address_free(session, address)
            name = name or stand_in_name(address)
            user = self._add_user(session, uid, address, name, created_at=self._clock())
        else:
            user.email = address
            user.display_name = name or user.display_name
        return user

    def sign_up(self, email: str, password: str, display_name: str) -> Account:
        address = validation.check_email(email)
        name = validation.check_display_name(display_name)
        validation.check_password(password, address)
        # No look-up of our own first: Firebase answers a taken address in the same
        # round trip as a free one, so the answer time tells nothing.
        try:
            signed = self._rest.sign_up(address, password, name)
        except FirebaseRestError as error:
            raise self._translate(error, address) from None
        uid = self._verified_uid(signed)
        try:
            with writing(self._sessions) as session:
                account = account_of(self._keep_user(session, uid, address, name))
        except (IntegrityError, EmailTaken):
            self._forget_firebase_user(uid)
            raise email_taken(address) from None
        log.info("Firebase account %s created", account.user_id)
        return account

    def _forget_firebase_user(self, uid: str) -> None:
        """Undo a Firebase sign-up whose local row could not be made."""
        try:
            auth.delete_user(uid, app=self._app)
        except FirebaseError as error:
            log.warning("Firebase user left behind after a failed sign-up: %s", error.code)

    @staticmethod
    def _translate(error: FirebaseRestError, address: str) -> Exception:
        if error.code == "EMAIL_EXISTS":
            return email_taken(address)
        if error.code == "INVALID_EMAIL":
            return InvalidEmail(
                _("Email: {email!r} is not a valid email address.").format(email=address)
            )
        if error.code == "WEAK_PASSWORD":
            return WeakPassword(_("Password: Firebase considers this password too weak."))
        log.warning("Firebase sign-up failed with %s", error.code)
        return ServiceUnavailable()

    def _password_check(
        self, address: str, password: str, client: str | None = None
    ) -> SignedIn | None:
        """Ask Firebase whether the password fits, under our rate limit.

        The try is counted in one short transaction before Firebase is asked (so
        parallel guesses are counted exactly), and its outcome recorded in another.
        """
        now = self._clock()
        ticket = write_retrying(
            self._sessions, lambda session: admit_sign_in(session, address, client, now)
        )
        try:
            signed = self._rest.sign_in(address, password)
        except FirebaseRestError as error:
            if error.code not in WRONG_CREDENTIALS:
                log.warning("Firebase sign-in failed with %s", error.code)
                write_retrying(self._sessions, lambda session: settle(session, ticket, now, None))
                raise ServiceUnavailable() from None
            return None
        write_retrying(self._sessions, lambda session: settle(session, ticket, now, True))
        return signed

    def sign_in(self, email: str, password: str, *, client: str | None = None) -> Account:
        address = validation.check_email(email)
        signed = self._password_check(address, password, client)
        if signed is None:
            raise AuthFailed()
        uid = self._verified_uid(signed)
        require_app_password_rules(password, address)
        try:
            record = auth.get_user(uid, app=self._app)
        except FirebaseError as error:
            raise ServiceUnavailable() from error
        self._standings.note(uid, standing_of(record))
        address = validation.normalize_email(record.email or address)
        with writing(self._sessions) as session:
            return account_of(self._keep_user(session, uid, address, record.display_name or ""))

    def replace_weak_password(
        self, email: str, current_password: str, new_password: str, *, client: str | None = None
    ) -> Account:
        address = validation.check_email(email)
        validation.check_password(new_password, address)
        signed = self._password_check(address, current_password, client)
        if signed is None:
            raise AuthFailed(_("Current password: this is not your password."), "current_password")
        uid = self._verified_uid(signed)
        try:
            auth.update_user(uid, password=new_password, app=self._app)
        except FirebaseError as error:
            raise ServiceUnavailable() from error
        log.info("Firebase password of %s replaced to meet the rules", uid)
        return self.sign_in(address, new_password, client=client)

    @property
    def firebase_look_ups(self) -> int:
        """How many times this backend asked Firebase about a person's standing."""
        return self._standings.asked

    def _standing_in_firebase(self, uid: str) -> Standing | None:
        """What Firebase says about ``uid`` now; None when it could not be asked."""
        try:
            record = auth.get_user(uid, app=self._app)
        except auth.UserNotFoundError:
            return Standing(allowed=False)
        except FirebaseError as error:
            log.warning("Firebase user look-up failed: %s", error.code)
            return None
        return standing_of(record)

    def _still_valid(self, subject: str, claims: TokenClaims) -> bool:
        """Firebase must still know the user, enabled, with no revocation since the token
        (asked now: a page load; refused when Firebase cannot be asked)."""
        standing = self._standings.refresh(subject)
        return standing is not None and standing.admits(claims.issued_at)

    def _still_allowed(self, subject: str, claims: TokenClaims) -> bool:
        if self._standings.admits(subject, claims.issued_at):
            return True
        if not self._standings.admits(subject, MAX_TIME):  # disabled or deleted in Firebase
            self._end_app_sessions(subject)
        return False

    def _end_app_sessions(self, uid: str) -> None:
        """End the person's sessions in the app too, so every server refuses them at once."""
        with writing(self._sessions) as session:
            user_id = session.scalar(
                select(User.id).where(User.auth_provider == self.provider, User.auth_subject == uid)
            )
            if user_id is not None:
                end_sessions(session, user_id)
                log.info("Firebase refused account %s: its sessions ended", user_id)

    def _on_sign_out(self, user: User) -> None:
        try:
            auth.revoke_refresh_tokens(user.auth_subject, app=self._app)
        except FirebaseError as error:
            log.warning("Firebase could not revoke tokens: %s", error.code)

    def change_display_name(self, user_id: int, display_name: str) -> Account:
        name = validation.check_display_name(display_name)
        with writing(self._sessions) as session:
            user = self._user(session, user_id)
            try:
                auth.update_user(user.auth_subject, display_name=name, app=self._app)
            except FirebaseError as error:
                raise ServiceUnavailable() from error
            user.display_name = name
            return account_of(user)

    def send_password_reset(self, email: str) -> None:
        address = validation.check_email(email)
        try:
            self._rest.send_password_reset(address)
        except FirebaseRestError as error:
            if error.code != "EMAIL_NOT_FOUND":
                log.warning("Firebase reset email failed with %s", error.code)
                raise ServiceUnavailable() from None

    # Anonymous accounts: Firebase's own anonymous users, linked to a password to keep them.

    def _new_anonymous_subject(self) -> str:
        try:
            signed = self._rest.sign_up_anonymous()
        except FirebaseRestError as error:
            log.warning("Firebase anonymous sign-up failed with %s", error.code)
            raise ServiceUnavailable() from None
        return self._verified_uid(signed)

    def _forget_anonymous_subject(self, subject: str) -> None:
        try:
            auth.delete_user(subject, app=self._app)
        except auth.UserNotFoundError:
            pass
        except FirebaseError as error:
            log.warning("Firebase kept an unused anonymous user: %s", error.code)

    def keep_account(self, user_id: int, email: str, password: str) -> Account:
        address = validation.check_email(email)
        validation.check_password(password, address)
        with writing(self._sessions) as session:
            user = self._anonymous_user(session, user_id)
            uid, name = user.auth_subject, user.display_name
            check_address_free(session, address)
        try:
            # The server speaks for the anonymous user: a custom token of its uid buys an
            # ID token, with which the email credential is linked to that same user.
            custom = auth.create_custom_token(uid, app=self._app).decode()
            id_token = self._rest.sign_in_with_custom_token(custom)
            linked = self._rest.link_password(id_token, address, password, name)
        except FirebaseRestError as error:
            raise self._translate(error, address) from None
        except FirebaseError as error:
            raise ServiceUnavailable() from error
        if self._verified_uid(linked) != uid:
            raise ServiceUnavailable()
        try:
            with writing(self._sessions) as session:
                user = self._anonymous_user(session, user_id)
                check_address_free(session, address)
                user.email = address
                user.is_anonymous = False
                session.flush()
                account = account_of(user)
        except IntegrityError:
            raise email_taken(address) from None
        log.info("anonymous Firebase account %s kept with an email address", user_id)
        return account

    def delete_account(self, user_id: int, password: str) -> None:
        with self._sessions() as session:
            user = self._user(session, user_id)
            address, anonymous = user.email or "", user.is_anonymous
        if not anonymous and (not password or self._password_check(address, password) is None):
            raise AuthFailed(_("Password: this is not your password."), "password")

        def remove(session: Session) -> None:
            # Firebase's user goes last, so a refusal there leaves the account whole; a
            # retried attempt finds it gone already.
            user = self._user(session, user_id)
            uid = user.auth_subject
            remove_user(session, user)
            session.flush()
            try:
                auth.delete_user(uid, app=self._app)
            except auth.UserNotFoundError:
                log.info("Firebase user of account %s was already gone", user_id)
            except FirebaseError as error:
                raise ServiceUnavailable() from error

        write_retrying(self._sessions, remove)
        log.info("Firebase account %s deleted", user_id)


# Accounts can be made straight through Firebase's public sign-up endpoint with the web
# API key, skipping this app's rules; the app applies them when such an account signs in.


MAX_TIME = 2**63 - 1
"""A session start later than any revocation: what a standing says about the account itself."""


def standing_of(record: auth.UserRecord) -> Standing:
    """The `Standing` a Firebase user record gives (its revocation time in whole seconds)."""
    valid_after_ms = record.tokens_valid_after_timestamp or 0
    return Standing(not record.disabled, valid_after_ms // 1000)


def require_app_password_rules(password: str, address: str) -> None:
    """Raise `PasswordChangeRequired` when a right password does not meet the app's rules."""
    try:
        validation.check_password(password, address)
    except WeakPassword as weak:
        raise PasswordChangeRequired(weak.message.split(": ", 1)[-1]) from None


def usable_display_name(name: str) -> str:
    r"""A display name from Firebase when it meets the app's rules, else "" (not usable).

    >>> usable_display_name("  Ann   Marie "), usable_display_name("Ann\x00")
    ('Ann Marie', '')
    """
    try:
        return validation.check_display_name(name)
    except InvalidDisplayName:
        return ""


def stand_in_name(address: str) -> str:
    r"""The name a new account gets when Firebase holds none the app can use: the part of
    the address before the @, or "Player" when even that is not usable.

    >>> stand_in_name("ann.b@example.com"), stand_in_name("\u202e@example.com")
    ('ann.b', 'Player')
    """
    local = address.partition("@")[0][: validation.MAX_DISPLAY_NAME_LENGTH]
    return usable_display_name(local) or "Player"
