"""Sign in, create an account, or ask for a password-reset email."""

import streamlit as st

from dutch_app.i18n import _
from dutch_app.ui.context import start_session
from dutch_app.ui.flash import show_flash
from dutch_app.ui.guard import guarded
from dutch_app.ui.password_reset import forgot_password
from dutch_app.ui.password_rules import replacement_form, sign_in_or_ask
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.sign_up import request_account

ensure_routed()

st.title("Dutch Scorer")
st.write(
    _(
        "Keep score for Dutch at the table, share the games with your group, and see who calls "
        "Dutch too early. Sign in or create an account to start."
    )
)

show_flash("signin_top")
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
