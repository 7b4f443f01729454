"""The round as it is being filled in, before anything is saved.

A sentence says who is lowest and how the call goes (and exactly how many penalty cards
are due); a small table gives each hand's total, the round score and the new game total
as far as they are known. It is Markdown (cheap to redraw on every keystroke); names go
through :func:`~dutch_app.ui.text.md`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from dutch_app.i18n import _, localized
from dutch_app.labels import label, players_word
from dutch_app.ui.text import md
from dutch_core.entry import RoundPreview, check_entry
from dutch_core.game import totals_after
from dutch_core.round_input import CallType
from dutch_core.rules import HouseRules, PenaltyMode
from dutch_core.scoring import Outcome, RoundResult, penalty_cards_text


def call_sentence(
    preview: RoundPreview,
    caller: str | None,
    call_type: CallType | None,
    rules: HouseRules,
    name: Callable[[str | None], str] = md,
) -> str:
    """How the call goes, in one sentence (empty while not known): Markdown, or plain
    text when ``name`` leaves the caller's name as it is."""
    if preview.outcome is None or call_type is None:
        return ""
    call, who = label(call_type), name(caller)
    points = rules.penalty_mode is PenaltyMode.POINTS
    if preview.outcome is Outcome.LOWEST:
        if points and rules.success_bonus:
            return _("{who} called {call} and is lowest: no penalty, {points} points off.").format(
                who=who, call=call, points=rules.success_bonus
            )
        return _("{who} called {call} and is lowest: no penalty.").format(who=who, call=call)
    parts = []
    if preview.lower:
        parts.append(_("{players} lower").format(players=players_word(preview.lower)))
    if preview.tied:
        parts.append(_("{players} tied").format(players=players_word(preview.tied)))
    if points:
        cost = _("{who} scores {points} penalty points").format(
            who=who, points=rules.failed_call_points
        )
    else:
        cost = _("{who} draws {cards}").format(
            who=who, cards=localized(penalty_cards_text(preview.penalty_cards_due or 0))
        )
    if preview.outcome is Outcome.BEATEN:
        template = _("{who} called {call} and is beaten ({how}): {cost}.")
    else:
        template = _("{who} called {call} and is tied ({how}): {cost}.")
    return template.format(who=who, call=call, how=", ".join(parts), cost=cost)


def _result(players, hands, penalty, preview, caller, call_type, rules) -> RoundResult | None:
    """The scored round, once the penalty (if any) is in too."""
    if preview.outcome is None:
        return None
    penalty = penalty if preview.penalty_cards_due else ""
    return check_entry(players, hands, caller, call_type, penalty, rules).result


def _round_cell(player: str, hand: int | None, caller, preview, scores) -> tuple[str, int | None]:
    """The round score as shown, and as a number when it is known."""
    if player in scores:
        return str(scores[player]), scores[player]
    if hand is None:
        return "–", None
    if player != caller:
        return str(hand), hand
    if preview.penalty_cards_due:
        return _("{hand} + penalty").format(hand=hand), None
    return "–", None


@dataclass(frozen=True)
class PreviewTable:
    """The preview as text: its sentence and its table (names as ``name`` gave them)."""

    sentence: str
    columns: list[str]
    rows: list[list[str]]


def preview_table(
    preview: RoundPreview,
    players: Sequence[str],
    hands: Mapping[str, str],
    penalty: str,
    caller: str | None,
    call_type: CallType | None,
    rules: HouseRules,
    totals: Mapping[str, int] | None,
    name: Callable[[str | None], str] = md,
) -> PreviewTable | None:
    """The preview of the round being entered (None while no hand is entered):
    ``hands`` are the texts typed per player, ``penalty`` the penalty cards' text,
    ``totals`` the game totals before the round (for a game column)."""
    known = {player: total for player, total in preview.hand_totals.items() if total is not None}
    if not known:
        return None
    result = _result(players, hands, penalty, preview, caller, call_type, rules)
    scores = result.as_dict() if result is not None else {}
    sentence = []
    if preview.lowest:
        least = preview.hand_totals[preview.lowest[0]]
        names = _(" and ").join(name(player) for player in preview.lowest)
        sentence.append(_("Lowest: {names} ({least}).").format(names=names, least=least))
    if call := call_sentence(preview, caller, call_type, rules, name):
        sentence.append(call)
    columns = [_("Player"), _("Hand"), _("Round"), *([_("Game")] if totals is not None else [])]
    rows = []
    for player in players:
        hand = preview.hand_totals.get(player)
        shown, score = _round_cell(player, hand, caller, preview, scores)
        who = _("{name} (called)").format(name=name(player)) if player == caller else name(player)
        cells = [who, "–" if hand is None else str(hand), shown]
        if totals is not None:
            after = None if score is None else totals_after(rules, totals, {player: score})[player]
            cells.append("–" if after is None else str(after))
        rows.append(cells)
    return PreviewTable(" ".join(sentence), columns, rows)


def show_preview(table: PreviewTable | None, key: str) -> None:
    """Draw the preview of the round being entered (see :func:`preview_table`) as
    Markdown, in a container named ``<key>_preview`` (nothing while it is None)."""
    if table is None:
        return
    lines = ["| " + " | ".join(table.columns) + " |"]
    lines.append("|:--" + "|--:" * (len(table.columns) - 1) + "|")
    lines.extend("| " + " | ".join(cells) + " |" for cells in table.rows)
    with st.container(key=f"{key}_preview"):
        if table.sentence:
            st.markdown(table.sentence)
        st.markdown("\n".join(lines))
