"""Showing a scored round: a sentence about the call and a table of scores."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dutch_app.i18n import _
from dutch_app.labels import call_summary
from dutch_app.services.views import RoundView
from dutch_app.ui.text import md
from dutch_core.scoring import Outcome, RoundResult


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
        parts.append(
            _("the caller {before} → {after}").format(
                before=before.caller or _("nobody"), after=after.caller or _("nobody")
            )
        )
    if moved:
        parts.append(", ".join(moved))
    elif parts:
        parts.append(_("no score changed"))
    else:
        return _("Round {number} corrected; no score changed.").format(number=after.number)
    return _("Round {number} corrected: {changes}.").format(
        number=after.number, changes="; ".join(parts)
    )


def round_scores_frame(result: RoundResult) -> pd.DataFrame:
    """The round as a table: one row per player in seat order."""
    return pd.DataFrame(
        {
            _("Player"): [s.player for s in result.scores],
            _("Hand"): [s.hand_total for s in result.scores],
            _("Penalty"): [s.penalty_points for s in result.scores],
            _("Round score"): [s.round_score for s in result.scores],
            _("Called"): [_("yes") if s.is_caller else "" for s in result.scores],
        }
    )


def show_round_result(result: RoundResult) -> None:
    """Render the call sentence and the score table."""
    if result.outcome is Outcome.LOWEST or result.caller is None:
        st.success(md(call_summary(result)))
    else:
        st.warning(md(call_summary(result)))
    st.dataframe(round_scores_frame(result), hide_index=True, width="stretch")
