"""Widget keys of a round entry that belong to the one entry on the form.

Every time an entry starts afresh (emptied after a stored round, or filled with a
round to correct) it gets a new number, and its fields, choices and Save carry it in
their widget keys (``calc_round_hand_0-3``). A message the browser sent before it saw
the new entry still carries the previous entry's values, under the previous entry's
widget ids: Streamlit drops them as values of widgets that no longer exist, so they
can never come back into the new entry (and a tap on the previous entry's Save is
dropped the same way).

Each such widget stands in a container with the lasting name (``calc_round_hand_0``),
which is what the page's CSS hooks, the table script's scrolling and the browser
tests use (``.st-key-calc_round_hand_0``).
"""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st


def entry_number(key: str) -> int:
    """The number of the entry now on the form with key prefix ``key``."""
    return st.session_state.get(f"{key}_entry", 0)


def new_entry(key: str, names: Iterable[str]) -> None:
    """The form starts a new entry: its widgets get new keys (call before drawing them).

    What the session held for the previous entry's ``names`` goes, so entries do not pile
    up in a long game (a field never drawn, such as a penalty field, would otherwise stay).
    """
    for name in names:
        st.session_state.pop(widget_key(key, name), None)
    st.session_state[f"{key}_entry"] = entry_number(key) + 1


def entry_widget_key(key: str, name: str, entry: int) -> str:
    """The widget key of the field ``name`` (``hand_0``, ``caller``, ``penalty``, ``save``)
    in entry number ``entry``."""
    return f"{key}_{name}-{entry}"


def widget_key(key: str, name: str) -> str:
    """The widget key of the field ``name`` in the entry now on the form."""
    return entry_widget_key(key, name, entry_number(key))
