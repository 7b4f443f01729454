"""Sign in, create an account, or ask for a password-reset email."""

import streamlit as st

from dutch_app.i18n import _
from dutch_app.ui.anonymous import play_without_account_button
from dutch_app.ui.context import start_session
from dutch_app.ui.flash import show_flash
from dutch_app.ui.guard import guarded
from dutch_app.ui.invite_link import invite_waiting
from dutch_app.ui.password_reset import forgot_password
from dutch_app.ui.password_rules import replacement_form, sign_in_or_ask
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.sign_up import request_account

ensure_routed()

st.title("Dutch Scorer")
st.write(
    _(
        "Keep score for Dutch at the table, share the games with your group, and see who calls "
        "Dutch too early. Start a game straight away, or sign in to find your groups."
    )
)

show_flash("signin_top")
if invite_waiting():  # the invite link's group is where a guest plays
    play_without_account_button(
        "signin_join_as_guest", with_group=False, label=_("Join as a guest")
    )
else:
    play_without_account_button(
        "signin_play_now", with_group=True, label=_("Play without an account")
    )
st.caption(
    _(
        "No email needed: the games stay in this browser, and you can keep them later "
        "with an email and password."
    )
)
sign_in_tab, sign_up_tab = st.tabs([_("Sign in"), _("Create an account")])

with sign_in_tab:
    with st.form("signin_form", enter_to_submit=True):
        email = st.text_input(_("Email"), key="signin_email", autocomplete="email")
        password = st.text_input(
            _("Password"), type="password", key="signin_password", autocomplete="current-password"
        )
        submitted = st.form_submit_button(_("Sign in"), type="primary")
    if submitted:
        with guarded():
            signed_in = sign_in_or_ask(email, password)
            if signed_in is not None:
                start_session(signed_in)
                st.rerun()
    replaced = replacement_form()
    if replaced is not None:
        start_session(replaced)
        st.rerun()
    forgot_password()

with sign_up_tab:
    with st.form("signup_form", enter_to_submit=True):
        new_name = st.text_input(_("Display name"), key="signup_name", max_chars=80)
        new_email = st.text_input(_("Email"), key="signup_email", autocomplete="email")
        new_password = st.text_input(
            _("Password (at least 10 characters, mixing letters with digits or symbols)"),
            type="password",
            key="signup_password",
            autocomplete="new-password",
        )
        st.caption(
            _(
                "We keep only your email address and display name, plus the games you enter. "
                "See the Privacy page."
            )
        )
        created = st.form_submit_button(_("Create account"), type="primary")
    if created:
        with guarded():
            start_session(request_account(new_email, new_password, new_name))
            st.rerun()
