"""Round calculator: score one round of Dutch without keeping it."""

import streamlit as st

from dutch_app.i18n import _
from dutch_app.ui.game_setup import split_names
from dutch_app.ui.guard import guarded
from dutch_app.ui.round_form import round_form
from dutch_app.ui.round_view import show_round_result
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.widgets import shown_as
from dutch_core.rules import PRESET_LABELS, PRESETS

ensure_routed()

st.title(_("Round calculator"))
st.caption(
    _(
        "Score a single round: type each hand as cards (7 KH Q) or as a total (or tap them on "
        "the card pad), say who ended the round, and enter the penalty cards if the call "
        "failed. The result shows as you type. Nothing is saved."
    )
)

names_text = st.text_input(
    _("Players, in seat order (comma-separated)"), value="Ann, Ben, Cleo, Dan", key="calc_players"
)
preset = st.selectbox(
    _("House rules"),
    list(PRESETS),
    format_func=shown_as(PRESET_LABELS),
    key="calc_rules",
)
players = split_names(names_text)


@st.fragment
def calculator(players: list[str], rules) -> None:
    """The entry and its live result (rerun on its own while typing)."""
    with guarded():
        submitted = round_form("calc_round", players, rules)
        result = None if submitted is None else submitted[1].result
        if result is not None:  # a good check always has its result
            show_round_result(result)


with guarded():
    if not 2 <= len(players) <= 12:
        st.info(_("Enter between 2 and 12 player names, separated by commas."))
    elif len({p.casefold() for p in players}) != len(players):
        st.error(_("Players: each name may appear only once."))
    else:
        calculator(players, PRESETS[preset])
