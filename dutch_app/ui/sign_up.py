"""Creating an account, and signing in with it, without telling anyone whether the
address already had one."""

from __future__ import annotations

from dutch_app.accounts import Account, AccountError
from dutch_app.i18n import N_, _
from dutch_app.ui.client import client_address
from dutch_app.ui.context import accounts
from dutch_app.ui.flash import flash
from dutch_app.ui.password_rules import sign_in_or_ask
from dutch_app.ui.widgets import reset_on_next_run

SIGN_UP_ANSWER = N_(
    "Thank you. If this address had no account yet, it has one now: sign in on the "
    "Sign in tab with it and the password you just chose. If it already had an account, "
    "sign in with that account's password."
)


def request_account(email: str, password: str, display_name: str) -> Account:
    """Ask for an account, then sign in with the address and password just typed: the
    account signed in, or else a rerun of the page with the same answer whether or not
    the address was free.

    A new address signs in at once. An address that had an account signs in only with
    that account's own password (which its owner may well have typed): signing up tells
    nothing that signing in with the same two would not (see docs/limits.md). When the
    sign-in fails, the answer is the one of old and the address waits on the sign-in form;
    the password is not kept.
    """
    accounts().register(email, password, display_name, client=client_address())
    try:
        signed_in = sign_in_or_ask(email, password)
    except AccountError:
        signed_in = None  # a taken address, a wait or a busy server: the person signs in next
    if signed_in is not None:
        return signed_in
    reset_on_next_run(signin_email=email.strip(), signup_password="")
    flash(_(SIGN_UP_ANSWER), "signin_top")
