"""Taking back the latest round on the Play page, while other phones change the game too.

Undo names the round and version on show and is refused unless that round is still the
latest (:func:`dutch_app.services.rounds.undo_round`). The button's key names the round
it offers and its callback's arguments are those of the run that drew it, so a tap on a
button the page has since replaced never takes back another round.
"""

from __future__ import annotations

import streamlit as st

from dutch_app.i18n import _, error_text
from dutch_app.services import rounds
from dutch_app.services.errors import ServiceError
from dutch_app.services.views import GroupView
from dutch_app.ui.context import call
from dutch_app.ui.live import member_name
from dutch_app.ui.text import md

UNDO_KEY = "play_undo_refused"  # (game id, why an undo was refused)
SAVED_KEY = "play_saved"  # a message for the next run
UNDONE_KEY = "play_undone"  # (game id, round number) taken back from this tab


def undo(game_id: int, round_id: int, version: int, number: int) -> None:
    """Take back round ``number`` if it is still the latest (a button's callback)."""
    try:
        call(rounds.undo_round, game_id, round_id, version)
    except ServiceError as error:
        st.session_state[UNDO_KEY] = (game_id, error_text(error))
        return
    st.session_state[SAVED_KEY] = _("Round {number} was taken back.").format(number=number)
    st.session_state[UNDONE_KEY] = (game_id, number)


def undone_here(game_id: int) -> int | None:
    """The round this tab just took back, once (the entry follows it without a word)."""
    undone = st.session_state.pop(UNDONE_KEY, None)
    return undone[1] if undone is not None and undone[0] == game_id else None


def undo_last_round(game, group: GroupView) -> None:
    """Offer every member to take back the game's latest round, saying whose it is."""
    refused = st.session_state.pop(UNDO_KEY, None)
    if refused is not None and refused[0] == game.id:
        st.warning(md(refused[1]), icon=":material/undo:")
    if not game.rounds:
        return
    latest = game.rounds[-1]
    by = member_name(group, latest.entered_by)
    if by:
        label = _("Undo round {number} (saved by {name})").format(number=latest.number, name=md(by))
    else:
        label = _("Undo round {number}").format(number=latest.number)
    st.button(
        label,
        # The key names the round as shown, so a tap on a button the page has since
        # replaced can never take back a different round.
        key=f"play_undo_{latest.id}_{latest.version}",
        icon=":material/undo:",
        on_click=undo,
        args=(game.id, latest.id, latest.version, latest.number),
    )
