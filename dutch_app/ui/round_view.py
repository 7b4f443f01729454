"""Showing a scored round: a sentence about the call and a table of scores."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dutch_app.ui.labels import CALL_TYPE_LABELS
from dutch_app.ui.text import md
from dutch_core.scoring import Outcome, RoundResult


def _players(count: int) -> str:
    return "1 player" if count == 1 else f"{count} players"


def call_summary(result: RoundResult) -> str:
    """One sentence saying how the caller fared and what it cost (plain text: pass it
    through :func:`~dutch_app.ui.text.md` to show it as Markdown)."""
    if result.caller is None or result.call_type is None:
        return "Nobody called: every player scores their hand."
    call = CALL_TYPE_LABELS[result.call_type]
    if result.outcome is Outcome.LOWEST:
        return f"{result.caller} called {call} and had the lowest hand: no penalty."
    parts = []
    if result.lower:
        parts.append(f"beaten by {_players(result.lower)}")
    if result.tied:
        parts.append(f"tied with {_players(result.tied)}")
    caller_score = next(s for s in result.scores if s.is_caller)
    cost = (
        f"drew {result.penalty_cards_due} penalty card"
        f"{'' if result.penalty_cards_due == 1 else 's'} worth {caller_score.penalty_points}"
        if result.penalty_cards_due
        else f"took {caller_score.penalty_points} penalty points"
    )
    return f"{result.caller} called {call}, was {' and '.join(parts)}, and {cost}."


def round_scores_frame(result: RoundResult) -> pd.DataFrame:
    """The round as a table: one row per player in seat order."""
    return pd.DataFrame(
        {
            "Player": [s.player for s in result.scores],
            "Hand": [s.hand_total for s in result.scores],
            "Penalty": [s.penalty_points for s in result.scores],
            "Round score": [s.round_score for s in result.scores],
            "Called": ["yes" if s.is_caller else "" for s in result.scores],
        }
    )


def show_round_result(result: RoundResult) -> None:
    """Render the call sentence and the score table."""
    if result.outcome is Outcome.LOWEST or result.caller is None:
        st.success(md(call_summary(result)))
    else:
        st.warning(md(call_summary(result)))
    st.dataframe(round_scores_frame(result), hide_index=True, width="stretch")
