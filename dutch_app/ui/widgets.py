"""Resetting widgets after an action.

Streamlit does not send a widget's new value to the browser when its key is
deleted from ``st.session_state``; the browser keeps showing the old text. And a
widget's value cannot be set once the widget is on the page in the current run.
So an action that should empty a field or untick a box asks for it here, and the
router applies the values at the start of the next run, before any widget exists.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dutch_app.i18n import N_, _

PENDING_KEY = "widget_values_for_next_run"


def reset_on_next_run(**values: Any) -> None:
    """Give these widgets (by key) these values at the start of the next run."""
    st.session_state.setdefault(PENDING_KEY, {}).update(values)


def apply_pending_resets() -> None:
    """Called by the router before any page draws its widgets."""
    for key, value in st.session_state.pop(PENDING_KEY, {}).items():
        st.session_state[key] = value


NEW_PASSWORD_FIELD = N_(
    "New password (at least 10 characters, mixing letters with digits or symbols)"
)


def password_change_fields(current_key: str, new_key: str, again_key: str) -> tuple[str, str, str]:
    """The current password, a new one and the new one again, as password fields (inside
    the caller's form); what was typed into each."""
    current = st.text_input(
        _("Current password"), type="password", key=current_key, autocomplete="current-password"
    )
    new = st.text_input(
        _(NEW_PASSWORD_FIELD), type="password", key=new_key, autocomplete="new-password"
    )
    again = st.text_input(
        _("New password again"), type="password", key=again_key, autocomplete="new-password"
    )
    return current, new, again
