"""A third floor for "Save, then the next round's form": the entry's inputs drawn in the
browser by one components-v2 element, instead of one Streamlit widget each.

Four hand fields, the caller and the kind of call as tap buttons and Save, as
``benchmarks/bare_entry.py`` has them, but built by the element's own script: Save sends
the round as one trigger value, the fragment reruns with the next round's heading and
the element empties itself when its data says a new round began. It stores nothing. The
round-entry benchmark times it beside the others: the Play page's entry is such an
element, but it saves through the app's round route rather than through a run of the page.

    streamlit run benchmarks/bare_component_entry.py
"""

from pathlib import Path

import streamlit as st

PLAYERS = ("Ann", "Ben", "Cleo", "Dan")
CALLS = ("Dutch", "Auto Dutch (no cards left)")


_entry = st.components.v2.component(
    "bench_entry",
    js=Path(__file__).with_name("bare_component_entry.js").read_text(encoding="utf-8"),
    isolate_styles=False,  # in the page's own DOM, where the benchmark looks for the fields
)


def _saved() -> None:
    sent = st.session_state["bench_entry"].save
    if sent and sent["round"] == st.session_state.get("bench_round", 1):
        st.session_state["bench_round"] = sent["round"] + 1


@st.fragment
def entry() -> None:
    number = st.session_state.get("bench_round", 1)
    st.subheader(f"Round {number}")
    _entry(
        key="bench_entry",
        data={"round": number, "players": list(PLAYERS), "calls": list(CALLS)},
        on_save_change=_saved,
    )


entry()
