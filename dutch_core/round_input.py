"""What was revealed at the end of a round, checked for sense before it is scored.

>>> round_input = RoundInput.build({"Ann": "7 KH", "Bo": ""}, caller="Bo", call_type="auto_dutch")
>>> round_input.players, round_input.hands[0][1]
(('Ann', 'Bo'), Hand.parse('7 KH'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from dutch_core.deck import named_error
from dutch_core.errors import DutchError, PenaltyError, RoundError
from dutch_core.hand import Hand, Penalty

MIN_PLAYERS, MAX_PLAYERS = 2, 12


class CallType(StrEnum):
    """How the caller ended the round."""

    DUTCH = "dutch"
    """A manual call: they said "Dutch" on their turn, believing they were lowest."""
    AUTO_DUTCH = "auto_dutch"
    """They played their last card, so their hand is empty and worth 0."""


def check_players(players: Iterable[str], error: type[DutchError] = RoundError) -> tuple[str, ...]:
    """The names in seat order, if there are 2 to 12 of them and no two match
    (ignoring case and surrounding spaces)."""
    if isinstance(players, str) or not isinstance(players, Iterable):
        raise error(f"players must be a list of names, got {players!r}")
    names = tuple(players)
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise error(f"a player needs a name, got {name!r}")
        key = name.strip().casefold()
        if key in seen:
            raise error(f"{name!r} and {seen[key]!r} are the same name; tell the players apart")
        seen[key] = name
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise error(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}")
    return names


def hand_of(value: Hand | str | int, player: str) -> Hand:
    """A Hand as given, from its total, or parsed from text typed for ``player``."""
    if isinstance(value, Hand):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Hand.of_total(value)
    return Hand.parse(value, player)


def hand_pairs(hands: Mapping[str, Hand | str | int]) -> tuple[tuple[str, Hand], ...]:
    """(player, Hand) pairs in seat order from a mapping of hands, totals or typed text."""
    if not isinstance(hands, Mapping):
        raise RoundError("hands must map each player to a hand, got {hands!r}", hands=hands)
    return tuple((player, hand_of(hand, player)) for player, hand in hands.items())


@dataclass(frozen=True)
class RoundInput:
    """What was revealed at the end of a round, players in seat order.

    >>> RoundInput.build({"Ann": "", "Bo": "3"}, caller="Ann", call_type="dutch").caller
    'Ann'
    """

    hands: tuple[tuple[str, Hand], ...]
    caller: str | None
    call_type: CallType | None = None
    penalty: Penalty | None = None

    def __post_init__(self) -> None:
        hands = self.hands.items() if isinstance(self.hands, Mapping) else self.hands
        if isinstance(hands, str) or not isinstance(hands, Iterable):
            raise RoundError("hands must be (player, hand) pairs, got {hands!r}", hands=hands)
        pairs = tuple(tuple(pair) if isinstance(pair, list) else pair for pair in hands)
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[1], Hand)):
                raise RoundError("hands must be (player, hand) pairs, got {pair!r}", pair=pair)
        check_players(player for player, _ in pairs)
        object.__setattr__(self, "hands", pairs)
        self._check_call(dict(pairs))
        if self.penalty is not None and not isinstance(self.penalty, Penalty):
            raise PenaltyError(
                "the penalty must be cards or a total, got {penalty!r}", penalty=self.penalty
            )
        if self.caller is None and not (self.penalty is None or self.penalty.is_none):
            raise PenaltyError(
                "no one called, so there is no penalty; got {value!r}", value=self.penalty.text()
            )

    def _check_call(self, hands: dict[str, Hand]) -> None:
        caller = self.caller
        if caller is not None and caller not in hands:
            raise RoundError("the caller {caller!r} is not playing this round", caller=caller)
        if self.call_type is not None:
            try:
                object.__setattr__(self, "call_type", CallType(self.call_type))
            except (ValueError, TypeError):
                raise named_error(
                    RoundError, caller, f"{self.call_type!r} is not a call; use Dutch or Auto Dutch"
                ) from None
        if caller is None and self.call_type is not None:
            raise RoundError("{value!r} needs the player who called it", value=self.call_type.value)
        if caller is not None and self.call_type is None:
            raise named_error(RoundError, caller, "say whether they called Dutch or Auto Dutch")
        hand = hands.get(caller)
        if self.call_type is CallType.AUTO_DUTCH and not (hand.is_empty or hand.total == 0):
            message = f"Auto Dutch means no cards are left, but the hand is {hand.text()!r}"
            raise named_error(RoundError, caller, message)

    @classmethod
    def build(
        cls,
        hands: Mapping[str, Hand | str | int],
        caller: str | None = None,
        call_type: CallType | str | None = None,
        penalty: Penalty | str | int | None = None,
    ) -> RoundInput:
        """A round from typed text: hands and penalty may be text (parsed) or totals."""
        pairs = hand_pairs(hands)
        if isinstance(penalty, int) and not isinstance(penalty, bool):
            penalty = Penalty.of_total(penalty)
        elif penalty is not None and not isinstance(penalty, Penalty):
            penalty = Penalty.parse(penalty, caller)
        return cls(pairs, caller, call_type, penalty)

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order."""
        return tuple(player for player, _ in self.hands)
