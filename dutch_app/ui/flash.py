"""A message that survives the rerun after an action, shown where the action was taken.

Pages rerun after a change so that everything on screen is read afresh; the
message saying what happened is kept until the spot it belongs to is drawn again.
"""

from __future__ import annotations

from typing import NoReturn

import streamlit as st

FLASH_KEY = "flash"


def flash(message: str, where: str, *, toast: bool = False) -> NoReturn:
    """Rerun the page and show ``message`` (Markdown, user text escaped) once: at ``where``,
    or with ``toast`` in a toast instead, for an action taken far from that spot (the
    person may have scrolled away from it). Never both: one event, one message."""
    st.session_state[FLASH_KEY] = (where, message, toast)
    st.rerun()


def show_flash(where: str) -> None:
    """Show the kept message if it belongs here (then forget it)."""
    kept = st.session_state.get(FLASH_KEY)
    if kept is not None and kept[0] == where:
        del st.session_state[FLASH_KEY]
        if kept[2]:
            st.toast(kept[1], icon=":material/check_circle:")
        else:
            st.success(kept[1])


def forget_flash() -> None:
    """Drop a message whose spot was not drawn on this run (call at the end of a page)."""
    st.session_state.pop(FLASH_KEY, None)
