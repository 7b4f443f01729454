"""Privacy: what Dutch Scorer keeps about a person, where, and how to remove it."""

import streamlit as st

from dutch_app.i18n import document
from dutch_app.ui.routing import ensure_routed

ensure_routed()

st.markdown(document("privacy"))
