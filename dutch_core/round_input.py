"""What was revealed at the end of a round, checked for sense before it is scored.

>>> round_input = RoundInput.build({"Ann": "7 KH", "Bo": ""}, caller="Bo", call_type="auto_dutch")
>>> round_input.players, round_input.hands[0][1]
(('Ann', 'Bo'), Hand.parse('7 KH'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from dutch_core.errors import DutchError, PenaltyError, RoundError
from dutch_core.hand import Hand, Penalty
from dutch_core.phrases import Phrase

MIN_PLAYERS, MAX_PLAYERS = 2, 12


class CallType(StrEnum):
    """How the caller ended the round."""

    DUTCH = "dutch"
    """A manual call: they said "Dutch" on their turn, believing they were lowest."""
    AUTO_DUTCH = "auto_dutch"
    """They played their last card, so their hand is empty and worth 0."""


def call_type_of(value: CallType | str | None, caller: str | None = None) -> CallType | None:
    """The call named by ``value`` (a CallType or its value), refused naming ``caller``.

    >>> call_type_of("auto_dutch")
    <CallType.AUTO_DUTCH: 'auto_dutch'>
    """
    if value is None or isinstance(value, CallType):
        return value
    try:
        return CallType(value)
    except (ValueError, TypeError):
        raise RoundError(
            "{value!r} is not a call; use Dutch or Auto Dutch", player=caller, value=value
        ) from None


def check_players(players: Iterable[str], error: type[DutchError] = RoundError) -> tuple[str, ...]:
    """The names in seat order, if there are 2 to 12 of them and no two match
    (ignoring case and surrounding spaces)."""
    if isinstance(players, str) or not isinstance(players, Iterable):
        raise error(Phrase("players must be a list of names, got {players!r}"), players=players)
    names = tuple(players)
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise error(Phrase("a player needs a name, got {name!r}"), name=name)
        key = name.strip().casefold()
        if key in seen:
            raise error(
                Phrase("{name!r} and {other!r} are the same name; tell the players apart"),
                name=name,
                other=seen[key],
            )
        seen[key] = name
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise error(
            Phrase("a game needs {least} to {most} players, got {count}"),
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            count=len(names),
        )
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
        pairs = self.hands
        if not isinstance(pairs, tuple):
            raise RoundError(
                "hands must be a tuple of (player, hand) pairs, got {pairs!r}", pairs=pairs
            )
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[1], Hand)):
                raise RoundError("hands must be (player, hand) pairs, got {pair!r}", pair=pair)
        check_players(player for player, _ in pairs)
        if self.call_type is not None and not isinstance(self.call_type, CallType):
            raise RoundError(
                "{value!r} is not a call; use Dutch or Auto Dutch",
                player=self.caller,
                value=self.call_type,
            )
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
        if caller is None:
            if self.call_type is not None:
                raise RoundError(
                    "{value!r} needs the player who called it", value=self.call_type.value
                )
            return
        if caller not in hands:
            raise RoundError("the caller {caller!r} is not playing this round", caller=caller)
        if self.call_type is None:
            raise RoundError("say whether they called Dutch or Auto Dutch", player=caller)
        hand = hands[caller]
        if self.call_type is CallType.AUTO_DUTCH and not (hand.is_empty or hand.total == 0):
            raise RoundError(
                "Auto Dutch means no cards are left, but the hand is {hand!r}",
                player=caller,
                hand=hand.text(),
            )

    @classmethod
    def build(
        cls,
        hands: Mapping[str, Hand | str | int],
        caller: str | None = None,
        call_type: CallType | str | None = None,
        penalty: Penalty | str | int | None = None,
    ) -> RoundInput:
        """A round from typed text: hands and penalty may be text (parsed) or totals, the
        call its name (``"dutch"``, ``"auto_dutch"``)."""
        pairs = hand_pairs(hands)
        call = call_type_of(call_type, caller)
        if isinstance(penalty, int) and not isinstance(penalty, bool):
            penalty = Penalty.of_total(penalty)
        elif penalty is not None and not isinstance(penalty, Penalty):
            penalty = Penalty.parse(penalty, caller)
        return cls(pairs, caller, call, penalty)

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order."""
        return tuple(player for player, _ in self.hands)
