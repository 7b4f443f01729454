"""Playing without an account: the one-tap start, joining by invite link as a guest, and
keeping the games later with an email and password (or in an account one already has)."""

from __future__ import annotations

import streamlit as st

from dutch_app.accounts import Account
from dutch_app.i18n import _
from dutch_app.services import groups, moving
from dutch_app.ui.client import client_address
from dutch_app.ui.context import (
    accounts,
    call,
    run_service,
    set_active_group,
    start_session,
)
from dutch_app.ui.flash import flash
from dutch_app.ui.guard import guarded
from dutch_app.ui.password_rules import sign_in_or_ask
from dutch_app.ui.text import md


def start_without_account(*, with_group: bool) -> None:
    """Make an anonymous account, sign it in, and (``with_group``) give it a private group
    of its own to play in; then run the app again, signed in (Play opens game set-up)."""
    account = accounts().start_anonymous(_("Guest"), client=client_address())
    start_session(account)
    if with_group:
        set_active_group(call(groups.create_group, _("My games")).id)
    st.rerun()


def play_without_account_button(key: str, *, with_group: bool, label: str) -> None:
    """The button that starts without an account."""
    if st.button(label, key=key, type="primary", icon=":material/bolt:"):
        with guarded():
            start_without_account(with_group=with_group)


def keep_banner(account: Account) -> None:
    """A quiet word after a finished game: an anonymous account can be kept."""
    if not account.anonymous:
        return
    with st.container(border=True):
        st.caption(
            _(
                "You are playing without an account: these games live in this browser only. "
                "Keep your games: add an email and password."
            )
        )
        st.page_link("pages/account.py", label=_("Keep your games"), icon=":material/save:")


def keep_section(account: Account) -> None:
    """The Account page of an anonymous account: keep it with an email and password, or
    bring its games into an account the person already has."""
    st.subheader(_("Keep your games: add an email and password"))
    st.write(
        _(
            "You are playing without an account. Your games are kept in this browser only, "
            "and deleted after 30 days without a visit. Add an email and password to keep "
            "them and play on any device; your groups and games stay as they are."
        )
    )
    with st.form("account_keep_form"):
        email = st.text_input(_("Email"), key="account_keep_email", autocomplete="email")
        password = st.text_input(
            _("Password (at least 10 characters, mixing letters with digits or symbols)"),
            type="password",
            key="account_keep_password",
            autocomplete="new-password",
        )
        kept = st.form_submit_button(_("Keep my games"), type="primary")
    if kept:
        with guarded():
            # A new session: Firebase ends the sessions started before a password was set.
            start_session(accounts().keep_account(account.user_id, email, password))
            flash(
                _("Your account is kept: sign in with {email} from now on.").format(
                    email=md(email.strip())
                ),
                "account_profile",
            )
    with st.expander(_("I already have an account")):
        with st.form("account_bring_form"):
            their_email = st.text_input(_("Email"), key="account_bring_email")
            their_password = st.text_input(
                _("Password"),
                type="password",
                key="account_bring_password",
                autocomplete="current-password",
            )
            bring = st.checkbox(
                _("Move the groups and games of this browser into that account"),
                value=True,
                key="account_bring_groups",
            )
            signed = st.form_submit_button(_("Sign in"))
        if signed:
            with guarded():
                sign_in_elsewhere(account, their_email, their_password, bring=bring)


def sign_in_elsewhere(account: Account, email: str, password: str, *, bring: bool) -> None:
    """Sign in to an existing account from an anonymous one, moving its groups when asked
    (the anonymous account then goes); without moving, it is left to expire."""
    signed_in = sign_in_or_ask(email, password)
    if signed_in is None:
        st.warning(_("Sign in on the sign-in page to choose a new password first."))
        return
    moved = 0
    if bring:
        moved = run_service(moving.move_groups, account.user_id, signed_in.user_id)
        accounts().delete_account(account.user_id, "")
    start_session(signed_in)
    if moved:
        message = _("You are signed in as {name}, with the groups of this browser.")
    else:
        message = _("You are signed in as {name}.")
    flash(message.format(name=md(signed_in.display_name)), "account_profile")
