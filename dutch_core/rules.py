"""House rules: what cards are worth, how a failed call is punished, when a game ends.

The defaults are the rules of the original game; ``PRESETS`` names common variants.

>>> HouseRules().deck_max_total()
338
>>> HouseRules.from_dict(PRESETS["points"].to_dict()) == PRESETS["points"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, TypeVar

from dutch_core.errors import RulesError
from dutch_core.phrases import Phrase

# Aces to Queens, four of each: 4 × (1 + 2 + … + 12).
_NON_KING_DECK_TOTAL = 4 * sum(range(1, 13))
_HIGHEST_NON_KING = 12
_NON_KING_VALUES = tuple(value for value in range(1, 13) for _ in range(4))
KING_VALUES = (0, 13)
"""What a red or a black King may be set to count."""
JOKER_VALUES = (-5, 5)
"""What a Joker may be set to count: many groups play them below zero."""
MAX_JOKERS = 2
LOWEST_TOTAL = MAX_JOKERS * JOKER_VALUES[0]
"""The lowest total any deck these rules allow can make (two Jokers at -5)."""
HIGHEST_TOTAL = _NON_KING_DECK_TOTAL + 4 * KING_VALUES[1] + MAX_JOKERS * JOKER_VALUES[1]
"""The highest total any deck these rules allow can make."""


class PenaltyMode(StrEnum):
    """How a caller who was not lowest pays for it."""

    CARDS = "cards"
    """Draw penalty cards: one per tied player, two per player with a lower hand."""
    POINTS = "points"
    """Add a fixed number of points; a successful call may earn a bonus instead."""


class EndKind(StrEnum):
    """What ends a game."""

    OPEN = "open"
    """The players end it by hand."""
    ROUNDS = "rounds"
    """It ends after a fixed number of rounds."""
    SCORE_LIMIT = "score_limit"
    """It ends after the round in which someone's game total reaches the limit."""


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("{name} must be a whole number, got {value!r}", name=name, value=value)
    if not low <= value <= high:
        raise RulesError(
            "{name} must be between {low} and {high}, got {value!r}",
            name=name,
            low=low,
            high=high,
            value=value,
        )
    return value


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RulesError("{name} must be true or false, got {value!r}", name=name, value=value)
    return value


_E = TypeVar("_E", bound=StrEnum)


def _choice(enum: type[_E], name: str, value: object) -> _E:
    """``value`` as a member of ``enum`` (what ``from_dict`` reads)."""
    if isinstance(value, str) and value in enum._value2member_map_:
        return enum(value)
    options = ", ".join(repr(member.value) for member in enum)
    raise RulesError(
        "{name} must be one of {options}, got {value!r}", name=name, options=options, value=value
    )


def _member(enum: type[StrEnum], name: str, value: object) -> None:
    """Refuse ``value`` unless it is a member of ``enum`` (what the constructors take)."""
    if not isinstance(value, enum):
        options = ", ".join(f"{enum.__name__}.{member.name}" for member in enum)
        raise RulesError(
            "{name} must be one of {options}, got {value!r}",
            name=name,
            options=options,
            value=value,
        )


def _checked_keys(cls: type, data: object) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise RulesError(
            "{kind} needs a mapping of settings, got {data!r}", kind=cls.__name__, data=data
        )
    known = {f.name for f in fields(cls)}
    unknown = [key for key in data if key not in known]
    if unknown:
        raise RulesError("unknown {kind} setting {value!r}", kind=cls.__name__, value=unknown[0])
    return dict(data)


@dataclass(frozen=True)
class EndCondition:
    """When a game ends: by hand, after a number of rounds, or at a score limit.

    >>> EndCondition.after_rounds(8).describe()
    'The game ends after 8 rounds.'
    >>> EndCondition(EndKind.ROUNDS)
    Traceback (most recent call last):
    dutch_core.errors.RulesError: rounds must be a whole number, got None
    """

    kind: EndKind = EndKind.OPEN
    rounds: int | None = None
    limit: int | None = None
    exact_limit_halves: bool = False

    def __post_init__(self) -> None:
        _member(EndKind, "end kind", self.kind)
        kind = self.kind
        _flag("exact_limit_halves", self.exact_limit_halves)
        if kind is EndKind.ROUNDS:
            _whole("rounds", self.rounds, 1, 1000)
        elif self.rounds is not None:
            raise RulesError(
                "rounds only applies to a fixed number of rounds, got {rounds!r}",
                rounds=self.rounds,
            )
        if kind is EndKind.SCORE_LIMIT:
            _whole("limit", self.limit, 1, 10_000)
        elif self.limit is not None:
            raise RulesError("limit only applies to a score limit, got {limit!r}", limit=self.limit)
        elif self.exact_limit_halves:
            raise RulesError("exact_limit_halves only applies to a score limit")

    @classmethod
    def open(cls) -> EndCondition:
        """A game the players end by hand."""
        return cls(EndKind.OPEN)

    @classmethod
    def after_rounds(cls, rounds: int) -> EndCondition:
        """A game of a fixed number of rounds."""
        return cls(EndKind.ROUNDS, rounds=rounds)

    @classmethod
    def score_limit(cls, limit: int, exact_limit_halves: bool = False) -> EndCondition:
        """A game that ends once a game total reaches ``limit``."""
        return cls(EndKind.SCORE_LIMIT, limit=limit, exact_limit_halves=exact_limit_halves)

    def settle(self, total: int) -> int:
        """A game total as this end condition leaves it after a round: halved (rounded
        down) when it lands exactly on a score limit that halves, else as it is.

        >>> EndCondition.score_limit(100, exact_limit_halves=True).settle(100)
        50
        >>> EndCondition.score_limit(100).settle(100)
        100
        """
        halves = self.kind is EndKind.SCORE_LIMIT and self.exact_limit_halves
        return total // 2 if halves and total == self.limit else total

    def describe(self) -> str:
        """One sentence for people."""
        if self.kind is EndKind.ROUNDS:
            return Phrase("The game ends after {rounds} rounds.", rounds=self.rounds)
        if self.kind is EndKind.OPEN:
            return Phrase("The game is open-ended: the players end it.")
        if self.exact_limit_halves:
            return Phrase(
                "The game ends after the round in which someone reaches {limit} points; "
                "hitting exactly {limit} halves that total.",
                limit=self.limit,
            )
        return Phrase(
            "The game ends after the round in which someone reaches {limit} points.",
            limit=self.limit,
        )


@dataclass(frozen=True)
class HouseRules:
    """The rules a game is scored by; the defaults are the original game's.

    >>> HouseRules(jokers=3)
    Traceback (most recent call last):
    dutch_core.errors.RulesError: jokers must be between 0 and 2, got 3
    >>> HouseRules(jokers=2, joker_value=-2).deck_total_range()
    (-4, 338)
    """

    red_king_value: int = 0
    black_king_value: int = 13
    jokers: int = 0
    joker_value: int = 0
    penalty_mode: PenaltyMode = PenaltyMode.CARDS
    failed_call_points: int = 10
    success_bonus: int = 0
    allow_no_caller: bool = False
    end: EndCondition = field(default_factory=lambda: EndCondition.score_limit(100))

    def __post_init__(self) -> None:
        _whole("red_king_value", self.red_king_value, *KING_VALUES)
        _whole("black_king_value", self.black_king_value, *KING_VALUES)
        _whole("jokers", self.jokers, 0, MAX_JOKERS)
        _whole("joker_value", self.joker_value, *JOKER_VALUES)
        _member(PenaltyMode, "penalty_mode", self.penalty_mode)
        _whole("failed_call_points", self.failed_call_points, 0, 100)
        _whole("success_bonus", self.success_bonus, 0, 100)
        _flag("allow_no_caller", self.allow_no_caller)
        if not isinstance(self.end, EndCondition):
            raise RulesError("end must be an end condition, got {end!r}", end=self.end)

    def card_values(self) -> tuple[int, ...]:
        """What each card of the deck is worth, lowest first (52 cards plus the Jokers)."""
        kings = (self.red_king_value,) * 2 + (self.black_king_value,) * 2
        jokers = (self.joker_value,) * self.jokers
        return tuple(sorted(_NON_KING_VALUES + kings + jokers))

    def deck_max_total(self) -> int:
        """What the deck's cards above zero are worth together: no hand, and no round's
        hands together, can make more (338 for the original deck)."""
        return sum(value for value in self.card_values() if value > 0)

    def deck_min_total(self) -> int:
        """What the deck's cards below zero are worth together (0 without negative Jokers):
        no hand, and no round's hands together, can make less."""
        return sum(value for value in self.card_values() if value < 0)

    def deck_total_range(self) -> tuple[int, int]:
        """The lowest and highest total this deck can make."""
        return self.deck_min_total(), self.deck_max_total()

    def cards_total_range(self, count: int) -> tuple[int, int]:
        """The lowest and highest total of ``count`` cards of this deck.

        >>> HouseRules().cards_total_range(3)
        (1, 38)
        >>> HouseRules(jokers=2, joker_value=-2).cards_total_range(3)
        (-4, 38)
        """
        values = self.card_values()
        count = max(0, min(count, len(values)))
        return sum(values[:count]), sum(values[len(values) - count :])

    def max_card_value(self) -> int:
        """What the single most valuable card in the deck is worth.

        >>> HouseRules().max_card_value(), HouseRules(black_king_value=10).max_card_value()
        (13, 12)
        """
        joker = self.joker_value if self.jokers else 0
        return max(_HIGHEST_NON_KING, self.red_king_value, self.black_king_value, joker)

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-safe settings; ``HouseRules.from_dict`` reads them back."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["penalty_mode"] = self.penalty_mode.value
        data["end"] = {f.name: getattr(self.end, f.name) for f in fields(self.end)}
        data["end"]["kind"] = self.end.kind.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        """Rules from ``to_dict`` output; missing settings take their defaults."""
        settings = _checked_keys(cls, data)
        if "penalty_mode" in settings:
            settings["penalty_mode"] = _choice(
                PenaltyMode, "penalty_mode", settings["penalty_mode"]
            )
        if "end" in settings:
            end = _checked_keys(EndCondition, settings["end"])
            if "kind" in end:
                end["kind"] = _choice(EndKind, "end kind", end["kind"])
            settings["end"] = EndCondition(**end)
        return cls(**settings)

    def describe(self) -> list[str]:
        """The rules as short sentences for people."""
        lines: list[str] = [
            Phrase(
                "Red Kings count {red}, black Kings {black}.",
                red=self.red_king_value,
                black=self.black_king_value,
            )
        ]
        if self.jokers == 1:
            lines.append(Phrase("1 Joker in the deck, worth {value}.", value=self.joker_value))
        elif self.jokers:
            lines.append(
                Phrase(
                    "{jokers} Jokers in the deck, worth {value} each.",
                    jokers=self.jokers,
                    value=self.joker_value,
                )
            )
        if self.penalty_mode is PenaltyMode.CARDS:
            lines.append(
                Phrase(
                    "A caller who is not lowest draws penalty cards: "
                    "1 per tied player and 2 per player with a lower hand."
                )
            )
        else:
            lines.append(
                Phrase(
                    "A caller who is not lowest scores {points} extra points.",
                    points=self.failed_call_points,
                )
            )
            if self.success_bonus:
                lines.append(
                    Phrase(
                        "A successful call takes {points} points off.", points=self.success_bonus
                    )
                )
        if self.allow_no_caller:
            lines.append(Phrase("A round may end without a caller when the deck runs out."))
        else:
            lines.append(Phrase("Every round ends with a Dutch or Auto Dutch call."))
        lines.append(self.end.describe())
        return lines


PRESETS: dict[str, HouseRules] = {
    "classic": HouseRules(),
    "classic_open": HouseRules(end=EndCondition.open()),
    "points": HouseRules(penalty_mode=PenaltyMode.POINTS, failed_call_points=10),
    "jokers": HouseRules(jokers=2, joker_value=0),
    "deck_out": HouseRules(allow_no_caller=True),
}

PRESET_LABELS: dict[str, str] = {
    "classic": Phrase("Classic (to 100 points)"),
    "classic_open": Phrase("Classic, open-ended"),
    "points": Phrase("Points for a failed call"),
    "jokers": Phrase("Two Jokers worth 0"),
    "deck_out": Phrase("The deck may run out"),
}
