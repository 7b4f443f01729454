"""``labelled_selectbox`` and ``labelled_multiselect``, the pickers of games and players,
run by Streamlit's AppTest.

The browser answers a select box with the words of the option it shows, so a run that
the browser asked for before the page's new words reached it brings back words that no
option has any more. These tests send such words the way that browser would.
"""

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Multiselect, Selectbox


def _picker_page() -> None:
    import streamlit as st

    from dutch_app.ui.widgets import labelled_selectbox

    rounds = st.session_state.setdefault("rounds", {1: 1, 2: 1})
    labels = {game: f"Game {game} · {played} rounds" for game, played in rounds.items()}
    picked = labelled_selectbox("Game", list(labels), labels, key="game")
    st.markdown(f"picked {picked}")


def _line_up_page() -> None:
    import streamlit as st

    from dutch_app.ui.widgets import labelled_multiselect

    names = st.session_state.setdefault("names", {1: "Ann", 2: "Ben", 3: "Cleo"})
    chosen = labelled_multiselect("Players", list(names), names, key="line_up")
    st.markdown(f"chosen {chosen}")


@contextmanager
def _answering(widget: type, words: Callable[[WidgetState], None]) -> Iterator[None]:
    """While the block runs, each ``widget`` of the page answers as ``words`` sets it."""
    shown = widget._widget_state  # type: ignore[attr-defined]

    def stale(self: object) -> WidgetState:
        state = shown.fget(self)
        words(state)
        return state

    widget._widget_state = property(stale)  # type: ignore[attr-defined]
    try:
        yield
    finally:
        widget._widget_state = shown  # type: ignore[attr-defined]


def browser_still_showing(words: str) -> AbstractContextManager[None]:
    """The next run's select box answers with ``words``, as a browser would whose page
    has not yet been redrawn."""
    return _answering(Selectbox, lambda state: setattr(state, "string_value", words))


def browser_still_listing(*words: str) -> AbstractContextManager[None]:
    """The same for a multiselect: the next run's answer is these words."""
    return _answering(
        Multiselect, lambda state: state.string_array_value.data.__setitem__(slice(None), words)
    )


@pytest.fixture
def page() -> AppTest:
    at = AppTest.from_function(_picker_page, default_timeout=30).run()
    at.selectbox(key="game").select("Game 2 · 1 rounds").run()
    assert at.markdown[0].value == "picked 2"
    return at


def picker(at: AppTest) -> Selectbox:
    return at.selectbox(key="game")


def test_the_picked_option_follows_its_new_words(page):
    page.session_state["rounds"] = {1: 1, 2: 2}
    page.run()
    assert page.markdown[0].value == "picked 2"
    assert picker(page).options[picker(page).index] == "Game 2 · 2 rounds"
    assert not page.exception


def test_a_run_asked_for_before_the_new_words_arrived_keeps_the_pick(page):
    """The round count changes; one run already sent the new words; a second run comes
    from a browser still showing the old: the picked game stays, and its words are sent
    again (without the earlier words the picker fell back to the first game)."""
    page.session_state["rounds"] = {1: 1, 2: 2}
    page.run()
    with browser_still_showing("Game 2 · 1 rounds"):
        page.run()
    assert page.markdown[0].value == "picked 2"
    assert picker(page).value == 2
    assert not page.exception


def test_words_never_shown_fall_back_to_the_first_option(page):
    """Words the picker never had are not taken for any option."""
    with browser_still_showing("Game 9 · 4 rounds"):
        page.run()
    assert page.markdown[0].value == "picked 1"
    assert not page.exception


def test_a_rename_keeps_the_renamed_player_in_a_line_up_being_chosen():
    """Cleo is renamed on another phone while Ann, Cleo are chosen here: the line-up keeps
    her under her new name, through the run that still names her Cleo and the next."""
    at = AppTest.from_function(_line_up_page, default_timeout=30).run()
    at.multiselect(key="line_up").select(1).select(3).run()
    assert at.markdown[0].value == "chosen [1, 3]"
    at.session_state["names"] = {1: "Ann", 2: "Ben", 3: "Clea"}
    at.run()
    with browser_still_listing("Ann", "Cleo"):
        at.run()
    assert at.markdown[0].value == "chosen [1, 3]"
    assert at.multiselect(key="line_up").value == [1, 3]
    assert not at.exception


def test_words_no_player_had_are_left_out_of_a_line_up():
    at = AppTest.from_function(_line_up_page, default_timeout=30).run()
    at.multiselect(key="line_up").select(2).run()
    with browser_still_listing("Ben", "Zed"):
        at.run()
    assert at.markdown[0].value == "chosen [2]"
    assert not at.exception
