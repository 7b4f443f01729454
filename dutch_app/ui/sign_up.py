"""Creating an account without telling anyone whether the address already had one."""

from __future__ import annotations

from dutch_app.i18n import N_, _
from dutch_app.ui.client import client_address
from dutch_app.ui.context import accounts
from dutch_app.ui.flash import flash
from dutch_app.ui.widgets import reset_on_next_run

SIGN_UP_ANSWER = N_(
    "Thank you. If this address had no account yet, it has one now: sign in on the "
    "Sign in tab with it and the password you just chose. If it already had an account, "
    "sign in with that account's password."
)


def request_account(email: str, password: str, display_name: str) -> None:
    """Ask for an account and answer the same way whether or not the address was free.

    The answer never says which: the person signs in next, as anyone would. The
    address is carried over to the sign-in form; the password is not kept.
    """
    accounts().register(email, password, display_name, client=client_address())
    reset_on_next_run(signin_email=email.strip(), signup_password="")
    flash(_(SIGN_UP_ANSWER), "signin_top")
