"""Privacy: what Dutch Scorer keeps about a person, where, and how to remove it."""

from pathlib import Path

import streamlit as st

from dutch_app.ui.routing import ensure_routed

ensure_routed()

st.markdown((Path(__file__).parent.parent / "docs" / "privacy.md").read_text(encoding="utf-8"))
