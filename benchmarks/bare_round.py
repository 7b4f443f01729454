"""The floor of "Save, then the next round's form": a bare Streamlit page with a round's
heading and a form of four fields, which moves to the next round when it is submitted.

    streamlit run benchmarks/bare_round.py
"""

import streamlit as st


def _next_round() -> None:
    st.session_state["bare_round"] = st.session_state.get("bare_round", 1) + 1


st.subheader(f"Round {st.session_state.get('bare_round', 1)}")
with st.form("bare_form", clear_on_submit=True):
    for seat in range(4):
        st.text_input(f"Player {seat + 1}", key=f"bare_hand_{seat}")
    st.form_submit_button("Save the round", on_click=_next_round)
