"""The round as it is being filled in, before anything is saved.

A sentence says who is lowest and how the call goes (and exactly how many penalty cards
are due); a small table gives each hand's total, the round score and the new game total
as far as they are known. It is Markdown (cheap to redraw on every keystroke); names go
through :func:`~dutch_app.ui.text.md`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from dutch_app.i18n import _, localized, ngettext
from dutch_app.ui.entry_keys import widget_key
from dutch_app.ui.labels import label
from dutch_app.ui.text import md
from dutch_core.entry import RoundPreview, check_entry
from dutch_core.game import totals_after
from dutch_core.round_input import CallType
from dutch_core.rules import HouseRules, PenaltyMode
from dutch_core.scoring import Outcome, RoundResult, penalty_cards_text


def _players(count: int) -> str:
    return ngettext("{count} player", "{count} players", count).format(count=count)


def call_sentence(
    preview: RoundPreview, caller: str | None, call_type: CallType | None, rules: HouseRules
) -> str:
    """How the call goes, in one sentence of Markdown (empty while not known)."""
    if preview.outcome is None or call_type is None:
        return ""
    call, who = label(call_type), md(caller)
    points = rules.penalty_mode is PenaltyMode.POINTS
    if preview.outcome is Outcome.LOWEST:
        if points and rules.success_bonus:
            return _("{who} called {call} and is lowest: no penalty, {points} points off.").format(
                who=who, call=call, points=rules.success_bonus
            )
        return _("{who} called {call} and is lowest: no penalty.").format(who=who, call=call)
    parts = []
    if preview.lower:
        parts.append(_("{players} lower").format(players=_players(preview.lower)))
    if preview.tied:
        parts.append(_("{players} tied").format(players=_players(preview.tied)))
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


def _result(key: str, players, preview, caller, call_type, rules) -> RoundResult | None:
    """The scored round, once the penalty (if any) is in too."""
    if preview.outcome is None:
        return None
    state = st.session_state
    hands = {
        player: state.get(widget_key(key, f"hand_{seat}")) or ""
        for seat, player in enumerate(players)
    }
    penalty = (state.get(widget_key(key, "penalty")) or "") if preview.penalty_cards_due else ""
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


def show_preview(
    preview: RoundPreview,
    players: Sequence[str],
    caller: str | None,
    call_type: CallType | None,
    rules: HouseRules,
    totals: Mapping[str, int] | None,
    key: str,
) -> None:
    """Draw the preview of the round being entered (nothing while no hand is entered)."""
    known = {player: total for player, total in preview.hand_totals.items() if total is not None}
    if not known:
        return
    result = _result(key, players, preview, caller, call_type, rules)
    scores = result.as_dict() if result is not None else {}
    sentence = []
    if preview.lowest:
        least = preview.hand_totals[preview.lowest[0]]
        names = _(" and ").join(md(player) for player in preview.lowest)
        sentence.append(_("Lowest: {names} ({least}).").format(names=names, least=least))
    if call := call_sentence(preview, caller, call_type, rules):
        sentence.append(call)
    columns = [_("Player"), _("Hand"), _("Round"), *([_("Game")] if totals is not None else [])]
    rows = ["| " + " | ".join(columns) + " |", "|:--" + "|--:" * (len(columns) - 1) + "|"]
    for player in players:
        hand = preview.hand_totals.get(player)
        shown, score = _round_cell(player, hand, caller, preview, scores)
        name = _("{name} (called)").format(name=md(player)) if player == caller else md(player)
        cells = [name, "–" if hand is None else str(hand), shown]
        if totals is not None:
            after = None if score is None else totals_after(rules, totals, {player: score})[player]
            cells.append("–" if after is None else str(after))
        rows.append("| " + " | ".join(cells) + " |")
    with st.container(key=f"{key}_preview"):
        if sentence:
            st.markdown(" ".join(sentence))
        st.markdown("\n".join(rows))
