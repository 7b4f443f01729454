"""Resetting widgets after an action.

Streamlit does not send a widget's new value to the browser when its key is
deleted from ``st.session_state``; the browser keeps showing the old text. And a
widget's value cannot be set once the widget is on the page in the current run.
So an action that should empty a field or untick a box asks for it here, and the
router applies the values at the start of the next run, before any widget exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import streamlit as st

from dutch_app.i18n import N_, _, date_field_format

PENDING_KEY = "widget_values_for_next_run"

LABELLED_FIELD = 68
"""The drawn height in pixels of a widget with its label above a field (4.25rem)."""

LABELLED_SEGMENTS = 60
"""The drawn height in pixels of ``st.segmented_control`` with its label (3.75rem)."""

TABLE_ROW = 35
"""The height in pixels of a row, and of the header, in ``st.dataframe`` (2.1875rem)."""

TABLE_MOST = 400
"""The height in pixels Streamlit gives a table at most before it scrolls (25rem)."""

TABLE_KEY = "table_room_"
"""How the keys of the tables drawn by :func:`shown_table` begin (the page style gives
each the room for its toolbar on a narrow screen; see ``page_css``)."""


def reset_on_next_run(**values: Any) -> None:
    """Give these widgets (by key) these values at the start of the next run."""
    st.session_state.setdefault(PENDING_KEY, {}).update(values)


def apply_pending_resets() -> None:
    """Called by the router before any page draws its widgets."""
    for key, value in st.session_state.pop(PENDING_KEY, {}).items():
        st.session_state[key] = value


def shown_as(labels: Mapping[Any, str]) -> Callable[[Any], str]:
    """A widget's ``format_func`` that shows each option (a key of ``labels``) as its
    label in this run's language.

    The labels are translated here, while the run's language is known: a widget may
    format its options later."""
    return {option: _(label) for option, label in labels.items()}.__getitem__


def labelled_choice(
    widget: Callable[..., Any], label: str, labels: Mapping[Any, str], current: Any, **options: Any
) -> Any:
    """``widget`` (``st.radio``, ``st.selectbox``) offering the keys of ``labels``, shown as
    their labels (:func:`shown_as`), with ``current`` chosen to begin with."""
    choices = list(labels)
    return widget(
        label, choices, index=choices.index(current), format_func=shown_as(labels), **options
    )


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

    The browser also answers with the words, not the option: after a rename, or in a run
    it asked for before the new words reached it (a second tap while the page was
    redrawing), it brings back words no option has any more, which Streamlit would take
    for no pick at all and fall back to the first option. The words each option had in
    earlier runs are kept, so such a run keeps the option the person picked, and sends
    its words again.

    An option that is None (everyone, nobody) stands in the widget as :data:`NOTHING`:
    Streamlit reads None in Session State as no pick at all, and the picker then showed
    its own placeholder ("Choose an option", in English) instead of the option's words.
    """
    shown = [_held(option) for option in options]
    words = _Words(key, shown, {_held(option): text for option, text in labels.items()})
    picked = st.session_state.get(key)
    if picked not in shown and words.known(picked):
        st.session_state[key] = words.option(picked)
        index = None if index is None else 0
    elif picked in shown and words.changed:
        st.session_state[key] = picked
        index = None if index is None else 0
    chosen = st.selectbox(
        label, shown, index=index, format_func=words.of, key=key, **options_of_the_widget
    )
    words.sent()
    return None if chosen is NOTHING else chosen


class _Nothing:
    """The type of :data:`NOTHING`."""

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING = _Nothing()
"""The option None of a :func:`labelled_selectbox`, as the widget holds it."""


def _held(option: Any) -> Any:
    """``option`` as a :func:`labelled_selectbox` widget holds it."""
    return NOTHING if option is None else option


def date_range_field(label: str, *, key: str, **options_of_the_widget: Any) -> Any:
    """A date range picker, empty until a range is picked, writing dates as the person's
    locale does (:func:`~dutch_app.i18n.date_field_format`).

    A range already set through the session state (a season chosen with one tap) is the
    field's value; the empty default is given only where none is set, as Streamlit asks."""
    if key not in st.session_state:
        options_of_the_widget["value"] = ()  # Streamlit takes () though typed not to
    return st.date_input(label, format=date_field_format(), key=key, **options_of_the_widget)


def labelled_multiselect(
    label: str,
    options: Sequence[Any],
    labels: Mapping[Any, str],
    *,
    key: str,
    **options_of_the_widget: Any,
) -> list[Any]:
    """``st.multiselect`` of ``options`` shown as ``labels``, keeping its picks when their
    words change (a player renamed on another phone while a line-up is being chosen), as
    :func:`labelled_selectbox` does: Streamlit would drop a pick the browser names by
    its old words. Its value is set through Session State only (no ``default``)."""
    words = _Words(key, options, labels)
    picked = st.session_state.get(key)
    if picked:
        kept = [value if value in options else words.option(value) for value in picked]
        kept = [value for value in dict.fromkeys(kept) if value in options]
        if kept != list(picked) or words.changed:
            st.session_state[key] = kept
    chosen = st.multiselect(label, options, format_func=words.of, key=key, **options_of_the_widget)
    words.sent()
    return chosen


class _Words:
    """The words of a picker's options in this run and in the runs before it."""

    def __init__(self, key: str, options: Sequence[Any], labels: Mapping[Any, str]) -> None:
        self._labels = labels
        self._wording = [labels[option] for option in options]
        self._options = options
        self._last_key = f"{key}_wording"
        self._earlier_key = f"{key}_earlier_words"
        self._earlier: dict[str, Any] = st.session_state.get(self._earlier_key, {})
        self.changed = self._wording != st.session_state.get(self._last_key)

    def of(self, option: Any) -> str:
        """An option's words. Words stand for themselves (they are what a browser answers
        with); a value left from other options (another group's player) has none, so
        Streamlit finds it among none of the options and starts the picker afresh."""
        if option in self._labels:
            return self._labels[option]
        return option if isinstance(option, str) else ""

    def known(self, value: Any) -> bool:
        """Whether ``value`` is the words an option had in an earlier run."""
        return isinstance(value, str) and self._earlier.get(value) in self._options

    def option(self, value: Any) -> Any:
        """The option that had the words ``value`` in an earlier run (None if none)."""
        return self._earlier.get(value) if self.known(value) else None

    def sent(self) -> None:
        """Called once the widget (and so its words) is on its way to the browser: a run
        cut short before it sends them again on the next."""
        st.session_state[self._last_key] = self._wording
        kept = _EARLIER_WORDS_KEPT + len(self._options)
        earlier = self._earlier if len(self._earlier) <= kept else {}
        st.session_state[self._earlier_key] = {
            **earlier,
            **dict(zip(self._wording, self._options, strict=True)),
        }


_EARLIER_WORDS_KEPT = 200  # past words remembered per picker, beyond its current ones


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


def confirmed(box: str, button: str, refused: str, *, key: str, icon: str) -> bool:
    """A box to tick (keyed ``{key}_confirm``) above a button (keyed ``key``): True when
    the button is pressed with the box ticked; pressed without it, ``refused`` is shown."""
    sure = st.checkbox(box, key=f"{key}_confirm")
    if not st.button(button, key=key, icon=icon):
        return False
    if not sure:
        st.error(refused)
    return sure


def field_room() -> Any:
    """A block of the drawn height of a labelled field (a date range, a select box, a
    multiselect kept to one row), to draw that field in.

    Streamlit shows a widget as a 2.5rem placeholder until the browser has loaded the
    widget's code, then with its label above it, taller: what stood under it moved down
    then (the Stats tabs on a returning visit). A layout block is drawn at once, so the
    field has its full height from the start. The field fills the block exactly; a block
    of fixed height would scroll anything taller."""
    return st.container(height=LABELLED_FIELD, border=False)


def table_height(rows: int) -> int:
    """The height Streamlit gives a table of ``rows`` rows of one line: its header and rows
    within a border of one pixel, at most :data:`TABLE_MOST` (ten rows) before it scrolls."""
    return min((rows + 1) * TABLE_ROW + 2, TABLE_MOST)


def shown_table(frame: Any, name: str) -> None:
    """``frame`` as a table of the page's width and without its index, of its drawn height
    from the moment the page shows it.

    Until the browser has loaded the code that draws tables, Streamlit shows a table as a
    2.5rem placeholder; drawn, it grew to its height and pushed down what stood under it
    (the game picker on History, the buttons under the standings on Play). Given its
    height, the placeholder has it too. The table stands in a block keyed by ``name``,
    drawn at once, by which the page style finds it before it is drawn."""
    with st.container(key=TABLE_KEY + name):
        st.dataframe(frame, hide_index=True, width="stretch", height=table_height(len(frame)))


@contextmanager
def kept_height(height: int, key: str | None = None) -> Iterator[None]:
    """A row at least ``height`` pixels high from the moment the page shows it, for an
    element drawn in it: a widget of its content's width (``st.segmented_control``) or one
    that stretches (the round entry).

    Beside the element, with no gap, the row holds an empty block of that height, drawn at
    once (see :func:`field_room`). The row grows with an element that is taller, and
    nothing in it is cut off (a block of fixed height would cut the focus ring of the
    segments, and scroll a taller element). Streamlit gives every block in a row at least
    1rem of width: room a widget of its content's width leaves free anyway; for one that
    stretches, ``key`` names the block for a style of its own that takes the width back
    (``play_entry.css``)."""
    with st.container(horizontal=True, gap=None):
        yield
        st.container(height=height, width=1, border=False, key=key)
