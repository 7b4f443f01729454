"""Scoring one round: who called, how that went, and everyone's round score.

Worked example 3 of the rules: A called with 12, B had 4, C tied at 12, so A
draws 2 × 1 + 1 = 3 penalty cards.

>>> from dutch_core.rules import HouseRules
>>> hands = {"A": "12", "B": "4", "C": "12", "D": "30"}
>>> penalty_cards_due(RoundInput.build(hands, caller="A", call_type="dutch"), None, HouseRules())
3
>>> result = score_round(
...     RoundInput.build(hands, caller="A", call_type="dutch", penalty="QC 3D KS"), HouseRules()
... )
>>> result.outcome, result.as_dict()
(<Outcome.BEATEN: 'beaten'>, {'A': 40, 'B': 4, 'C': 12, 'D': 30})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from dutch_core.deck import check_deck
from dutch_core.errors import PenaltyError, RoundError, RulesError
from dutch_core.hand import Hand
from dutch_core.phrases import Phrase
from dutch_core.round_input import CallType, RoundInput, hand_pairs
from dutch_core.rules import HouseRules, PenaltyMode


class Outcome(StrEnum):
    """How the caller's hand compared with everyone else's."""

    LOWEST = "lowest"
    """Strictly lower than every other hand: the call succeeded, no penalty."""
    TIED = "tied"
    """Nobody lower, but someone equal: one penalty card per tied player."""
    BEATEN = "beaten"
    """Someone was lower: two penalty cards per lower player, plus one per tie."""


@dataclass(frozen=True)
class PlayerScore:
    """One player's line in a scored round."""

    player: str
    hand_total: int
    penalty_points: int
    round_score: int
    is_caller: bool


@dataclass(frozen=True)
class RoundResult:
    """A scored round: every player's score and how the call went."""

    input: RoundInput
    scores: tuple[PlayerScore, ...]
    caller: str | None
    call_type: CallType | None
    outcome: Outcome | None
    lower: int
    tied: int
    penalty_cards_due: int

    @property
    def succeeded(self) -> bool:
        """True when the caller was strictly lowest."""
        return self.outcome is Outcome.LOWEST

    def score_of(self, player: str) -> int:
        """The round score of one player."""
        for score in self.scores:
            if score.player == player:
                return score.round_score
        raise RoundError("{who!r} did not play this round", who=player)

    def as_dict(self) -> dict[str, int]:
        """Round scores by player, in seat order."""
        return {score.player: score.round_score for score in self.scores}


def penalty_cards_text(count: int) -> Phrase:
    """``count`` penalty card(s), in words for a message."""
    if count == 1:
        return Phrase("{count} penalty card", count=count)
    return Phrase("{count} penalty cards", count=count)


def cards_due(lower: int, tied: int, rules: HouseRules) -> int:
    """One card per tied hand and two per lower one; none when a failed call costs points."""
    return 0 if rules.penalty_mode is PenaltyMode.POINTS else tied + 2 * lower


def caller_outcome(hand_totals: Mapping[str, int], caller: str) -> tuple[Outcome, int, int]:
    """The caller's outcome and how many other hands were lower and tied.

    >>> caller_outcome({"A": 5, "B": 5, "C": 9, "D": 5}, "A")
    (<Outcome.TIED: 'tied'>, 0, 2)
    """
    if caller not in hand_totals:
        raise RoundError("the caller {caller!r} is not playing this round", caller=caller)
    mine = hand_totals[caller]
    others = [total for player, total in hand_totals.items() if player != caller]
    lower = sum(total < mine for total in others)
    tied = sum(total == mine for total in others)
    outcome = Outcome.BEATEN if lower else Outcome.TIED if tied else Outcome.LOWEST
    return outcome, lower, tied


def penalty_cards_due(
    hands: Mapping[str, Hand | str | int] | RoundInput, caller: str | None, rules: HouseRules
) -> int:
    """How many penalty cards the caller must draw: one per tied player plus two per
    lower player; none under points-mode rules or when no one called. Given a
    RoundInput and no caller, its own caller counts.

    >>> penalty_cards_due({"A": "20", "B": "3", "C": "1", "D": "2"}, "A", HouseRules())
    6
    """
    if isinstance(hands, RoundInput):
        caller = hands.caller if caller is None else caller
        pairs = hands.hands
    else:
        pairs = hand_pairs(hands)
    if not isinstance(rules, HouseRules):
        raise RulesError("house rules expected, got {rules!r}", rules=rules)
    if caller is None or rules.penalty_mode is PenaltyMode.POINTS:
        return 0
    _, lower, tied = caller_outcome({player: hand.value(rules) for player, hand in pairs}, caller)
    return cards_due(lower, tied, rules)


def _penalty_points(round_input: RoundInput, outcome: Outcome, due: int, rules: HouseRules) -> int:
    caller, penalty = round_input.caller, round_input.penalty
    if rules.penalty_mode is PenaltyMode.POINTS:
        if not (penalty is None or penalty.is_none):
            raise PenaltyError(
                "these house rules score a failed call with {points} points, "
                "so no penalty is entered; got {penalty!r}",
                player=caller,
                points=rules.failed_call_points,
                penalty=penalty.text(),
            )
        return -rules.success_bonus if outcome is Outcome.LOWEST else rules.failed_call_points
    if due == 0:
        if not (penalty is None or penalty.is_none):
            raise PenaltyError(
                "no penalty cards are due (lowest hand), but {penalty!r} was entered",
                player=caller,
                penalty=penalty.text(),
            )
        return 0
    if penalty is None:
        raise PenaltyError(
            "must draw {cards}; enter them or their total",
            player=caller,
            cards=penalty_cards_text(due),
        )
    if penalty.cards is not None and len(penalty.cards) != due:
        entered = len(penalty.cards)
        if entered == 1:
            entered_text = Phrase("{count} was entered", count=entered)
        else:
            entered_text = Phrase("{count} were entered", count=entered)
        raise PenaltyError(
            "must draw {cards}, {entered}",
            player=caller,
            cards=penalty_cards_text(due),
            entered=entered_text,
        )
    least, most = rules.cards_total_range(due)
    if penalty.total is not None and not least <= penalty.total <= most:
        raise PenaltyError(
            "a penalty total of {total} is not what {cards} can be worth ({least} to {most})",
            player=caller,
            total=penalty.total,
            cards=penalty_cards_text(due),
            least=least,
            most=most,
        )
    return penalty.value(rules)


def score_round(round_input: RoundInput, rules: HouseRules) -> RoundResult:
    """Score a round under the house rules, refusing anything that cannot have happened.

    Worked example 2: A called with 5 and tied with B and D, then drew 4S and KD.

    >>> hands = {"A": "5", "B": "5", "C": "9", "D": "5"}
    >>> round_input = RoundInput.build(hands, caller="A", call_type="dutch", penalty="4S KD")
    >>> score_round(round_input, HouseRules()).as_dict()
    {'A': 9, 'B': 5, 'C': 9, 'D': 5}
    >>> score_round(RoundInput.build(hands, "A", "dutch", penalty="4S"), HouseRules())
    Traceback (most recent call last):
    dutch_core.errors.PenaltyError: A: must draw 2 penalty cards, 1 was entered
    """
    if not isinstance(round_input, RoundInput):
        raise RoundError("a round input expected, got {round_input!r}", round_input=round_input)
    if not isinstance(rules, HouseRules):
        raise RulesError("house rules expected, got {rules!r}", rules=rules)
    check_deck(round_input, rules)
    hand_totals = {player: hand.value(rules) for player, hand in round_input.hands}
    caller = round_input.caller
    outcome, lower, tied, due, extra = None, 0, 0, 0, 0
    if caller is None:
        if not rules.allow_no_caller:
            raise RoundError("no one ended this round; these house rules need a Dutch call")
    else:
        outcome, lower, tied = caller_outcome(hand_totals, caller)
        due = cards_due(lower, tied, rules)
        extra = _penalty_points(round_input, outcome, due, rules)
    scores = tuple(
        PlayerScore(
            player=player,
            hand_total=total,
            penalty_points=extra if player == caller else 0,
            round_score=total + (extra if player == caller else 0),
            is_caller=player == caller,
        )
        for player, total in hand_totals.items()
    )
    return RoundResult(
        input=round_input,
        scores=scores,
        caller=caller,
        call_type=round_input.call_type,
        outcome=outcome,
        lower=lower,
        tied=tied,
        penalty_cards_due=due,
    )
