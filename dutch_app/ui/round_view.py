"""Showing a scored round: a sentence about the call and a table of scores."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dutch_app.services.views import RoundView
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
        caller_score = next(s for s in result.scores if s.is_caller)
        if caller_score.penalty_points < 0:  # fixed-points rules with a bonus for success
            bonus = -caller_score.penalty_points
            taken = f"{bonus} point{'' if bonus == 1 else 's'} taken off"
            return f"{result.caller} called {call} and had the lowest hand: {taken}."
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


def correction_summary(before: RoundView, after: RoundView) -> str:
    """What a correction changed, as a plain sentence: each round score that moved, in seat
    order, and a caller who changed (pass it through :func:`~dutch_app.ui.text.md`).

    >>> from datetime import datetime
    >>> from dutch_app.services.views import HandView
    >>> def stored(scores, caller="Sam"):
    ...     hands = tuple(
    ...         HandView(i, name, i, None, score, 0, score, False, score)
    ...         for i, (name, score) in enumerate(scores.items())
    ...     )
    ...     return RoundView(1, 1, 5, None, caller, "dutch", "lowest", None, 0, None,
    ...                      datetime(2025, 1, 1), None, 1, hands)
    >>> correction_summary(stored({"Olivia": 12, "Sam": 3}), stored({"Olivia": 21, "Sam": 3}))
    'Round 5 corrected: Olivia 12 → 21.'
    >>> correction_summary(stored({"Ann": 4, "Bo": 9}), stored({"Ann": 4, "Bo": 9}, "Ann"))
    'Round 5 corrected: the caller Sam → Ann; no score changed.'
    """
    was = {hand.player_id: hand.round_score for hand in before.hands}
    moved = [
        f"{hand.player} {was[hand.player_id]} → {hand.round_score}"
        for hand in sorted(after.hands, key=lambda hand: hand.seat)
        if hand.player_id in was and was[hand.player_id] != hand.round_score
    ]
    parts = []
    if before.caller != after.caller:
        parts.append(f"the caller {before.caller or 'nobody'} → {after.caller or 'nobody'}")
    if moved:
        parts.append(", ".join(moved))
    elif parts:
        parts.append("no score changed")
    else:
        return f"Round {after.number} corrected; no score changed."
    return f"Round {after.number} corrected: {'; '.join(parts)}."


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
