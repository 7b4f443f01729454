"""Signing in with a right password that does not meet the app's rules (an account made
outside the app): the person chooses a new password before they are signed in."""

from __future__ import annotations

import streamlit as st

from dutch_app.accounts import Account, PasswordChangeRequired
from dutch_app.i18n import _
from dutch_app.ui.client import client_address
from dutch_app.ui.context import accounts
from dutch_app.ui.guard import guarded
from dutch_app.ui.text import md
from dutch_app.ui.widgets import password_change_fields

NEEDED_KEY = "signin_new_password_needed"


def sign_in_or_ask(email: str, password: str) -> Account | None:
    """Sign in; when the password must be replaced first, remember that and return None
    (:func:`replacement_form` then asks for the new one)."""
    try:
        return accounts().sign_in(email, password, client=client_address())
    except PasswordChangeRequired as needed:
        st.session_state[NEEDED_KEY] = needed.message
        return None


def replacement_form() -> Account | None:
    """When a new password is needed: ask for it (with the current one again); the
    account, signed in, once it is set."""
    needed = st.session_state.get(NEEDED_KEY)
    if needed is None:
        return None
    st.warning(md(needed))
    with st.form("signin_replace_form"):
        current, new, again = password_change_fields(
            "signin_replace_current", "signin_replace_new", "signin_replace_again"
        )
        submitted = st.form_submit_button(_("Set the new password and sign in"), type="primary")
    if not submitted:
        return None
    if new != again:
        st.error(_("The two new passwords differ; nothing was changed."))
        return None
    with guarded():
        email = st.session_state.get("signin_email", "")
        account = accounts().replace_weak_password(email, current, new, client=client_address())
        st.session_state.pop(NEEDED_KEY, None)
        return account
    return None
