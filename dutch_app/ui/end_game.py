"""The Play page's "End this game now", asked again before the game ends.

Ending a game is one tap from the standings, beside "New game", and it cannot be taken
back from the Play page (a finished game offers no undo), so the tap only asks; the game
ends on the second, deliberate tap.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dutch_app.i18n import _

ASKING_KEY = "play_end_asking"
"""The game whose end this tab is asking to confirm (absent: not asking)."""


def _ask(game_id: int) -> None:
    st.session_state[ASKING_KEY] = game_id


def _keep_playing() -> None:
    st.session_state.pop(ASKING_KEY, None)


def end_confirmed(where: DeltaGenerator, game_id: int) -> bool:
    """ "End this game now" in ``where``; its tap asks below, and True comes back on the
    run after the person confirmed (then ending the game is the caller's)."""
    if st.session_state.get(ASKING_KEY) != game_id:
        where.button(_("End this game now"), key="play_end_game", on_click=_ask, args=(game_id,))
        return False
    with st.container(border=True, key="play_end_question"):
        st.markdown(_("**End the game now?** The lowest total wins."))
        with st.container(horizontal=True):
            confirmed = st.button(_("End the game"), key="play_end_confirm", type="primary")
            st.button(_("Keep playing"), key="play_end_keep", on_click=_keep_playing)
    if confirmed:
        st.session_state.pop(ASKING_KEY, None)
    return confirmed
