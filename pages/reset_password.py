"""Choose a new password, with the one-time link from a reset email or from the host."""

import streamlit as st

from dutch_app.i18n import _
from dutch_app.ui.password_reset import reset_form
from dutch_app.ui.routing import ensure_routed

ensure_routed()

st.title(_("Choose a new password"))
reset_form()
