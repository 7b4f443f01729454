"""A second page for "Save, then the next round's form": the round entry as Streamlit's
widgets, and nothing else (how the Play page's entry was built before it was drawn in the
browser; the calculator and History's corrections still use such widgets).

The entry is more than four text fields: it needs the caller and the
kind of call as tap targets (pills, a segmented control), a switch for the card pad, and
every entry's widgets new (each entry's keys carry its number, so that a message sent
before the browser saw the emptied form can never fill or save it; see
``dutch_app/ui/entry_keys.py``). This page draws exactly those, laid out as the entry lays
them out (the hands two to a row, each in its own box), in a fragment that Save reruns; it
reads no database and draws no standings. The round-entry benchmark times it beside the
bare four-field form, so the report says what the widgets themselves cost.

    streamlit run benchmarks/bare_entry.py
"""

import streamlit as st

PLAYERS = ("Ann", "Ben", "Cleo", "Dan")
CALLS = ("Dutch", "Auto Dutch (no cards left)")


def _next_round() -> None:
    st.session_state["widgets_round"] = st.session_state.get("widgets_round", 1) + 1


@st.fragment
def entry() -> None:
    number = st.session_state.get("widgets_round", 1)
    st.subheader(f"Round {number}")
    for start in range(0, len(PLAYERS), 2):
        row = st.columns(2)
        for seat in (start, start + 1):
            with row[seat - start], st.container(key=f"widgets_hand_{seat}"):
                st.text_input(PLAYERS[seat], key=f"widgets_hand_{seat}-{number}")
    st.toggle("Card pad", key="widgets_pad_on")
    with st.container(key="widgets_caller"):
        st.pills("Who ended the round?", [*PLAYERS, "Nobody"], key=f"widgets_caller-{number}")
    with st.container(key="widgets_call_type"):
        st.segmented_control("How?", CALLS, key=f"widgets_call_type-{number}")
    with st.container(key="widgets_save"):
        st.button(
            "Save the round", type="primary", key=f"widgets_save-{number}", on_click=_next_round
        )


entry()
