"""Dutch Scorer: the entry point and only router.

Configures the page, builds the navigation and runs the chosen page inside the
error guard, so no traceback ever reaches the screen.
"""

import logging

import streamlit as st

from dutch_app.ui.guard import guarded

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")

st.set_page_config(page_title="Dutch Scorer", page_icon="🃏", layout="wide")

calculator = st.Page(
    "pages/calculator.py", title="Round calculator", icon=":material/calculate:", default=True
)
rules = st.Page("pages/rules.py", title="Rules", icon=":material/menu_book:")

page = st.navigation({"Dutch Scorer": [calculator], "About": [rules]})
with guarded():
    page.run()
