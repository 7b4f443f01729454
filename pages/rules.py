"""Rules: how Dutch is played and scored, and the house rules on offer."""

import streamlit as st

from dutch_app.i18n import _, document, localized
from dutch_app.ui.routing import ensure_routed
from dutch_core.rules import PRESET_LABELS, PRESETS

ensure_routed()

st.title(_("Rules of Dutch"))
st.markdown(document("rules"))

st.header(_("House rules"))
st.write(
    _(
        "Groups play Dutch in slightly different ways. When you start a game you pick one of "
        "these sets of house rules (or adjust one); the game keeps its rules even if you change "
        "your mind later."
    )
)
for key, rules in PRESETS.items():
    with st.expander(localized(PRESET_LABELS[key]), expanded=key == "classic"):
        for sentence in rules.describe():
            st.markdown(f"- {localized(sentence)}")
