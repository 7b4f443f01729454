"""Resetting widgets after an action.

Streamlit does not send a widget's new value to the browser when its key is
deleted from ``st.session_state``; the browser keeps showing the old text. And a
widget's value cannot be set once the widget is on the page in the current run.
So an action that should empty a field or untick a box asks for it here, and the
router applies the values at the start of the next run, before any widget exists.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
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


def labelled_selectbox(
    label: str,
    options: Sequence[Any],
    labels: Mapping[Any, str],
    *,
    key: str,
    index: int | None = 0,
    **options_of_the_widget: Any,
) -> Any:
    """``st.selectbox`` of ``options`` shown as ``labels``, whose picked option's label
    in the browser follows a change of its wording ("3 rounds played" after a round).

    Streamlit sends a keyed selectbox's list with every run, but the words of the picked
    option only with its value: the browser keeps showing the words it was first sent.
    So when the wording has changed since the last run, the value is set again (through
    Session State, before the widget, which sends it); ``index`` then has no say, and 0
    (or None, for a picker that can be empty) keeps Streamlit from warning that a default
    was given too.

    The browser also answers with the words, not the option: a run it asked for before
    the new words reached it (a second tap while the page was redrawing) brings back
    words no option has any more, which Streamlit would take for no pick at all and
    fall back to the first option. The words each option had in earlier runs are kept,
    so such a run keeps the option the person picked, and sends its words again.
    """
    wording = [labels[option] for option in options]
    last_wording = f"{key}_wording"
    earlier_words = f"{key}_earlier_words"
    known: dict[str, Any] = st.session_state.get(earlier_words, {})
    picked = st.session_state.get(key)
    if picked not in options and isinstance(picked, str) and known.get(picked) in options:
        st.session_state[key] = known[picked]
        index = None if index is None else 0
    elif picked in options and wording != st.session_state.get(last_wording):
        st.session_state[key] = picked
        index = None if index is None else 0
    chosen = st.selectbox(
        label,
        options,
        index=index,
        format_func=functools.partial(_words_of, labels),
        key=key,
        **options_of_the_widget,
    )
    # Stored once the widget (and so its new words) is on its way to the browser: a run
    # cut short before it must send them again on the next.
    st.session_state[last_wording] = wording
    if len(known) > _EARLIER_WORDS_KEPT + len(options):
        known = {}
    st.session_state[earlier_words] = {**known, **dict(zip(wording, options, strict=True))}
    return chosen


def _words_of(labels: Mapping[Any, str], option: Any) -> str:
    """An option's words; words stand for themselves (what a browser answers with); a
    value left from other options (another group's player) has none, so Streamlit finds
    it among none of the options and starts the picker afresh."""
    if option in labels:
        return labels[option]
    return option if isinstance(option, str) else ""


_EARLIER_WORDS_KEPT = 200  # past labels remembered per picker, beyond its current ones


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
