"""The two ends of a password reset: asking for a link on the sign-in page, and the form
the link opens (``?reset=<token>``) to choose a new password."""

from __future__ import annotations

import streamlit as st

from dutch_app.accounts.reset import QUERY_PARAMETER, RESET_MINUTES, ResetLinkInvalid
from dutch_app.i18n import N_, _
from dutch_app.ui.context import accounts, end_session
from dutch_app.ui.guard import guarded

LINK_KEY = "reset_link_token"
DONE_KEY = "reset_done"
RULES_HINT = N_("at least 10 characters, mixing letters with digits or symbols")


def forgot_password() -> None:
    """ "Forgot your password?" on the sign-in page: the same answer for every address."""
    backend = accounts()
    with st.expander(_("Forgot your password?")):
        if not backend.reset_email_available:
            st.caption(
                _(
                    "Ask the person who runs this app for a link to choose a new password: "
                    "they can make one for your address."
                )
            )
            return
        with st.form("signin_reset_form"):
            email = st.text_input(_("Email"), key="signin_reset_email", autocomplete="email")
            submitted = st.form_submit_button(_("Email me a reset link"))
        if submitted:
            with guarded():
                backend.send_password_reset(email)
                st.success(
                    _(
                        "If an account uses that address, a link to choose a new password is on "
                        "its way. Check your inbox (and the spam folder)."
                    )
                )


def reset_link_opened() -> bool:
    """Whether this tab is choosing a new password with a reset link.

    The token moves from the address into the tab's own state, so it leaves the
    address bar (and the browser's history of it) as soon as the page opens.
    """
    token = st.query_params.get(QUERY_PARAMETER)
    if token is not None:
        del st.query_params[QUERY_PARAMETER]
        st.session_state[LINK_KEY] = token
        st.session_state.pop(DONE_KEY, None)
    return LINK_KEY in st.session_state


def _to_sign_in(label: str) -> None:
    if st.button(label, key="reset_to_sign_in", type="primary", icon=":material/login:"):
        st.session_state.pop(LINK_KEY, None)
        st.session_state.pop(DONE_KEY, None)
        st.rerun()


def reset_form() -> None:
    """The form a reset link opens; after it, the way back to the sign-in page."""
    if st.session_state.get(DONE_KEY):
        st.success(
            _(
                "Your password is changed, and your account is signed out on every device. "
                "Sign in with the new password."
            )
        )
        _to_sign_in(_("Sign in"))
        return
    token = st.session_state.get(LINK_KEY, "")
    if not accounts().reset_link_valid(token):
        st.error(ResetLinkInvalid().message)
        _to_sign_in(_("Go to the sign-in page"))
        return
    st.caption(
        _("This link works once, within {reset_minutes} minutes of asking for it.").format(
            reset_minutes=RESET_MINUTES
        )
    )
    with st.form("reset_form", clear_on_submit=True):
        new = st.text_input(
            _("New password ({rules})").format(rules=_(RULES_HINT)),
            type="password",
            key="reset_new_password",
            autocomplete="new-password",
        )
        again = st.text_input(
            _("New password again"), type="password", key="reset_new_password_again",
            autocomplete="new-password",
        )  # fmt: skip
        submitted = st.form_submit_button(_("Choose this password"), type="primary")
    if not submitted:
        return
    if new != again:
        st.error(_("The two new passwords differ; nothing was changed."))
        return
    with guarded():
        accounts().reset_password(token, new)
        end_session(everywhere=False)  # this tab's session ended with all the others
        st.session_state[LINK_KEY] = ""
        st.session_state[DONE_KEY] = True
        st.rerun()
