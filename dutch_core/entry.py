"""Checking a round as it is typed into a form, one field at a time.

The form has a field per player, a choice of caller and call type, and one field
for the penalty cards. :func:`preview_round` says, while the hands are still being
filled in, what they add up to: each hand's total, who is lowest, how the call went
and how many penalty cards are due. :func:`check_entry` parses every field, collects
a message per field (keyed by player name, or ``"caller"``, ``"penalty"``,
``"round"``) and scores the round only when every field is good, so the screen
can show each problem next to the field it concerns. A hand left empty is refused
(the Enter key must never save a half-filled round as zeros) unless it is the Auto
Dutch caller's, who has no cards left; an empty hand worth nothing is typed as ``0``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from dutch_core.deck import check_deck
from dutch_core.errors import DutchError, PenaltyError
from dutch_core.hand import Hand, Penalty
from dutch_core.phrases import Phrase
from dutch_core.round_input import CallType, RoundInput
from dutch_core.rules import HouseRules
from dutch_core.scoring import (
    Outcome,
    RoundResult,
    caller_outcome,
    cards_due,
    penalty_cards_due,
    score_round,
)

CALLER = "caller"
PENALTY = "penalty"
ROUND = "round"


@dataclass(frozen=True)
class EntryCheck:
    """What the form's fields add up to: a scored round, or a message per bad field."""

    result: RoundResult | None
    errors: Mapping[str, str] = field(default_factory=dict)
    penalty_cards_due: int = 0

    @property
    def ok(self) -> bool:
        """True when the round could be scored."""
        return self.result is not None


def may_be_empty(player: str, caller: str | None, call_type: CallType | None) -> bool:
    """Whether ``player``'s hand may be left empty: only the Auto Dutch caller's."""
    return player == caller and call_type is CallType.AUTO_DUTCH


def empty_hand_message(player: str) -> str:
    """What to say about a hand left empty."""
    return Phrase(
        "no hand entered. Type the cards or their total (0 for a hand worth nothing).",
        player=player,
    )


def _parse_hands(
    players: Sequence[str],
    hand_texts: Mapping[str, str],
    errors: dict[str, str],
    caller: str | None = None,
    call_type: CallType | None = None,
) -> dict[str, Hand]:
    hands: dict[str, Hand] = {}
    for player in players:
        text = hand_texts.get(player, "") or ""
        if not text.strip() and not may_be_empty(player, caller, call_type):
            errors[player] = empty_hand_message(player)
            continue
        try:
            hands[player] = Hand.parse(text, player=player)
        except DutchError as error:
            errors[player] = error.phrase()
    return hands


@dataclass(frozen=True)
class RoundPreview:
    """What a round being filled in adds up to so far, before anything is saved.

    ``hand_totals`` holds each readable hand's total (None for a hand not entered yet or
    unreadable, with the reason in ``problems``). The rest is known once every hand is:
    who is lowest, and, once the caller and the kind of call are chosen too, the caller's
    outcome and exactly how many penalty cards are due (None while not known yet).
    """

    hand_totals: Mapping[str, int | None]
    problems: Mapping[str, str]
    lowest: tuple[str, ...] = ()
    outcome: Outcome | None = None
    lower: int = 0
    tied: int = 0
    penalty_cards_due: int | None = None

    @property
    def complete(self) -> bool:
        """True when every hand is entered and readable."""
        return all(total is not None for total in self.hand_totals.values())


def preview_round(
    players: Sequence[str],
    hand_texts: Mapping[str, str],
    caller: str | None,
    call_type: CallType | None,
    rules: HouseRules,
) -> RoundPreview:
    """The round as far as it is filled in: hand totals, the lowest, the call's outcome.

    >>> hands = {"A": "Q", "B": "4", "C": "5 7", "D": "KS 8 9"}
    >>> preview = preview_round(list(hands), hands, "A", CallType.DUTCH, HouseRules())
    >>> preview.lowest, preview.outcome, preview.penalty_cards_due
    (('B',), <Outcome.BEATEN: 'beaten'>, 3)
    >>> preview_round(["A", "B"], {"A": "3"}, "A", CallType.DUTCH, HouseRules()).hand_totals
    {'A': 3, 'B': None}
    """
    totals: dict[str, int | None] = {}
    problems: dict[str, str] = {}
    for player in players:
        text = hand_texts.get(player, "") or ""
        totals[player] = None
        if not text.strip() and not may_be_empty(player, caller, call_type):
            continue
        try:
            totals[player] = Hand.parse(text, player=player).value(rules)
        except DutchError as error:
            problems[player] = error.phrase()
    if not all(total is not None for total in totals.values()):
        return RoundPreview(totals, problems)
    known = {player: total for player, total in totals.items() if total is not None}
    least = min(known.values())
    lowest = tuple(player for player, total in known.items() if total == least)
    if caller not in known or call_type is None:
        return RoundPreview(totals, problems, lowest)
    outcome, lower, tied = caller_outcome(known, caller)
    due = cards_due(lower, tied, rules)
    return RoundPreview(totals, problems, lowest, outcome, lower, tied, due)


def _check_caller(
    players: Sequence[str],
    hands: Mapping[str, Hand],
    caller: str | None,
    call_type: CallType | None,
    rules: HouseRules,
    errors: dict[str, str],
) -> None:
    if caller is None:
        if not rules.allow_no_caller:
            errors[CALLER] = Phrase(
                "Choose who ended the round: these house rules need a Dutch or Auto Dutch call."
            )
        return
    if caller not in players:
        errors[CALLER] = Phrase("{caller!r} is not playing in this round.", caller=caller)
    elif call_type is None:
        errors[CALLER] = Phrase(
            "Choose how {caller} ended the round: Dutch or Auto Dutch.", caller=caller
        )
    elif call_type is CallType.AUTO_DUTCH and caller in hands:
        hand = hands[caller]
        if not (hand.is_empty or hand.total == 0):
            errors[caller] = Phrase(
                "Auto Dutch means no cards are left, so leave this hand empty (it has {hand!r}).",
                player=caller,
                hand=hand.text(),
            )


def _field_of(error: DutchError, hands: Mapping[str, Hand]) -> str:
    player = error.player
    return player if player is not None and player in hands else ROUND


def _parse_penalty(caller: str, due: int, text: str, errors: dict[str, str]) -> Penalty | None:
    text = (text or "").strip()
    if due == 0:
        if text:
            errors[PENALTY] = Phrase(
                "{caller} has no penalty cards to draw: clear this field.", caller=caller
            )
        return None
    if not text:
        if due == 1:
            errors[PENALTY] = Phrase(
                "{caller} must draw 1 penalty card: enter it as a card (e.g. KD) or its value.",
                caller=caller,
            )
        else:
            errors[PENALTY] = Phrase(
                "{caller} must draw {due} penalty cards: enter them card by card (e.g. 4S KD) "
                "or as their total.",
                caller=caller,
                due=due,
            )
        return None
    try:
        return Penalty.parse(text, player=caller)
    except DutchError as error:
        errors[PENALTY] = error.phrase()
        return None


def check_entry(
    players: Sequence[str],
    hand_texts: Mapping[str, str],
    caller: str | None,
    call_type: CallType | None,
    penalty_text: str,
    rules: HouseRules,
) -> EntryCheck:
    """Parse and score a round typed into a form, reporting problems field by field."""
    errors: dict[str, str] = {}
    hands = _parse_hands(players, hand_texts, errors, caller, call_type)
    _check_caller(players, hands, caller, call_type, rules, errors)
    if errors:
        return EntryCheck(None, errors)
    seated = tuple((player, hands[player]) for player in players)
    try:  # an impossible set of hands is reported before any penalty is asked for
        round_input = RoundInput(hands=seated, caller=caller, call_type=call_type)
        check_deck(round_input, rules)
    except DutchError as error:
        return EntryCheck(None, {_field_of(error, hands): error.phrase()})
    due = penalty_cards_due(round_input, None, rules)
    penalty = _parse_penalty(caller, due, penalty_text, errors) if caller is not None else None
    if errors:
        return EntryCheck(None, errors, due)
    try:
        result = score_round(replace(round_input, penalty=penalty), rules)
    except PenaltyError as error:
        return EntryCheck(None, {PENALTY: error.phrase()}, due)
    except DutchError as error:
        return EntryCheck(None, {_field_of(error, hands): error.phrase()}, due)
    return EntryCheck(result, {}, due)


def check_form(
    players: Sequence[str],
    hand_texts: Mapping[str, str],
    caller: str | None,
    call_type: CallType | None,
    penalty_text: str,
    rules: HouseRules,
) -> EntryCheck:
    """:func:`check_entry` of a form whose penalty field shows only while penalty cards
    are due: its text counts only then (a text left in it from before is not the round's).

    >>> hands = {"A": "3", "B": "9"}
    >>> check_form(["A", "B"], hands, "A", CallType.DUTCH, "KS", HouseRules()).ok
    True
    """
    preview = preview_round(players, hand_texts, caller, call_type, rules)
    penalty = penalty_text if preview.penalty_cards_due else ""
    return check_entry(players, hand_texts, caller, call_type, penalty, rules)
