"""Correcting a stored round: remember the round as the person loaded it.

The version kept here is the one the person saw when they picked the round, not
the one on the latest rerun, so an edit made by someone else in between is
refused as a conflict instead of being silently overwritten.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dutch_app.round_payload import RoundFields
from dutch_app.services.views import RoundView
from dutch_app.ui.history_view import stored_fields
from dutch_app.ui.round_form import fill_round_form

TARGET_KEY = "history_target"
CONFLICT_KEY = "history_conflict"
PAST_END_KEY = "history_past_end"


@dataclass(frozen=True)
class EditTarget:
    """The round being corrected, its version when loaded, and the form's starting values."""

    round_id: int
    version: int
    initial: RoundFields


def edit_target(form_key: str, stored: RoundView) -> EditTarget:
    """The round as it was when picked; picking another round starts a fresh form."""
    target = st.session_state.get(TARGET_KEY)
    if not isinstance(target, EditTarget) or target.round_id != stored.id:
        target = EditTarget(stored.id, stored.version, stored_fields(stored))
        fill_round_form(
            form_key, [h.player for h in sorted(stored.hands, key=lambda h: h.seat)], target.initial
        )
        st.session_state[TARGET_KEY] = target
        st.session_state.pop(CONFLICT_KEY, None)
    return target


def reload_target() -> None:
    """Drop the loaded round, so the next run loads it afresh and fills the form from it."""
    st.session_state.pop(TARGET_KEY, None)
    st.session_state.pop(CONFLICT_KEY, None)


def keep_saved(saved: RoundView) -> None:
    """After a correction: the stored round is now the one being corrected."""
    st.session_state[TARGET_KEY] = EditTarget(saved.id, saved.version, stored_fields(saved))
    st.session_state.pop(CONFLICT_KEY, None)


def note_conflict(message: str) -> None:
    """Keep a conflict's message until the person reloads the round."""
    st.session_state[CONFLICT_KEY] = message


def conflict() -> str | None:
    """The message of a correction refused because the round changed meanwhile."""
    return st.session_state.get(CONFLICT_KEY)


@dataclass(frozen=True)
class PastTheEndQuestion:
    """A correction held back because the game would have ended before its last round with
    it: what was entered, and the question to put (see ``rounds.PastTheEnd``)."""

    round_id: int
    version: int
    correction: tuple
    """The correction as ``rounds.edit_round`` takes it, after the round's id and version."""
    ended_after: int
    message: str


def ask_past_the_end(question: PastTheEndQuestion) -> None:
    """Keep the question until it is answered or another correction is entered."""
    st.session_state[PAST_END_KEY] = question


def past_the_end(round_id: int) -> PastTheEndQuestion | None:
    """The question held for the round on show, if any."""
    question = st.session_state.get(PAST_END_KEY)
    if isinstance(question, PastTheEndQuestion) and question.round_id == round_id:
        return question
    return None


def forget_past_the_end() -> None:
    """Drop the question (answered, or a new correction entered)."""
    st.session_state.pop(PAST_END_KEY, None)
