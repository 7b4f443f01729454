"""Asking the browser for what Streamlit's widgets cannot: a field brought into view, the
screen kept awake. The script that does it is :mod:`dutch_app.web.table_script`; this
draws it with the page's wishes in ``data-`` attributes (never user text)."""

from __future__ import annotations

from html import escape

import streamlit as st

from dutch_app.web.table_script import TABLE_SCRIPT


def table_helper(
    *, scroll_to: str | None = None, nonce: object = 0, wake: bool | None = None
) -> None:
    """Draw the table script: bring the widget with key ``scroll_to`` into view, and keep
    the screen awake (``wake`` True) or let it sleep (False). A new ``nonce`` asks for the
    same scroll again."""
    wishes = {"nonce": str(nonce)}
    if scroll_to is not None:
        wishes["scroll"] = scroll_to
    if wake is not None:
        wishes["wake"] = "on" if wake else "off"
    attributes = " ".join(f'data-{name}="{escape(value)}"' for name, value in wishes.items())
    st.html(
        f'<div class="dutch-table-helper" {attributes}></div><script>{TABLE_SCRIPT}</script>',
        unsafe_allow_javascript=True,
    )
