"""Hands and penalty draws: a list of cards, or just their total when nobody wrote them down.

>>> from dutch_core.rules import HouseRules
>>> Hand.parse("7 KH q").value(HouseRules())
19
>>> Hand.parse("=23")
Hand.parse('23')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from dutch_core.cards import Card, format_cards, parse_cards
from dutch_core.errors import DutchError, HandError, PenaltyError
from dutch_core.phrases import Phrase
from dutch_core.rules import HIGHEST_TOTAL, LOWEST_TOTAL

if TYPE_CHECKING:
    from typing import Self

    from dutch_core.rules import HouseRules

MAX_TOTAL = 338
"""What the original deck is worth. A total is first held to what any allowed deck can
make (:data:`~dutch_core.rules.LOWEST_TOTAL` to :data:`~dutch_core.rules.HIGHEST_TOTAL`);
the deck check then holds it to the game's own deck."""

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True, repr=False)
class _CardsOrTotal:
    """Cards entered one by one, or only their total: exactly one of the two is set."""

    cards: tuple[Card, ...] | None = None
    total: int | None = None

    _error: ClassVar[type[DutchError]] = HandError
    _noun: ClassVar[str] = Phrase("hand")

    def __post_init__(self) -> None:
        if (self.cards is None) == (self.total is None):
            raise self._error(
                "a {noun} is either its cards or its total, not both or neither", noun=self._noun
            )
        if self.cards is not None:
            cards = self.cards
            if not (isinstance(cards, tuple) and all(isinstance(c, Card) for c in cards)):
                raise self._error(
                    "{noun} cards must be a tuple of cards, got {cards!r}",
                    noun=self._noun,
                    cards=cards,
                )
        else:
            self._check_total(self.total, None)

    @classmethod
    def _check_total(cls, total: object, player: str | None) -> int:
        if isinstance(total, bool) or not isinstance(total, int):
            raise cls._error(
                "a {noun} total must be a number, got {total!r}",
                player=player,
                noun=cls._noun,
                total=total,
            )
        if total < LOWEST_TOTAL:
            raise cls._error(
                "a {noun} total of {total!r} is less than any deck can make ({least})",
                player=player,
                noun=cls._noun,
                total=total,
                least=LOWEST_TOTAL,
            )
        if total > HIGHEST_TOTAL:
            raise cls._error(
                "a {noun} total of {total!r} is more than any deck is worth ({most})",
                player=player,
                noun=cls._noun,
                total=total,
                most=HIGHEST_TOTAL,
            )
        return total

    @classmethod
    def of_cards(cls, cards: Iterable[Card | str]) -> Self:
        """From cards (or card tokens) in the order they were entered."""
        if isinstance(cards, str) or not isinstance(cards, Iterable):
            raise cls._error(
                "{noun} cards must be a list of cards, got {cards!r}", noun=cls._noun, cards=cards
            )
        return cls(cards=tuple(Card.parse(card) for card in cards))

    @classmethod
    def of_total(cls, total: int) -> Self:
        """From a total alone."""
        return cls(total=total)

    @classmethod
    def parse(cls, text: object, player: str | None = None) -> Self:
        """Read typed text: a lone whole number (optionally after ``=``) is a total,
        anything else is cards, and blank text is no cards at all.

        >>> Hand.parse("12"), Hand.parse("= 7"), Hand.parse("7s,7h"), Hand.parse("")
        (Hand.parse('12'), Hand.parse('7'), Hand.parse('7S 7H'), Hand.parse(''))
        >>> Hand.parse("400", "Bo")
        Traceback (most recent call last):
        dutch_core.errors.HandError: Bo: a hand total of 400 is more than ...
        """
        if not isinstance(text, str):
            raise cls._error(
                "{text!r} is not text for a {noun}", player=player, text=text, noun=cls._noun
            )
        typed = text.strip()
        number = typed[1:].strip() if typed.startswith("=") else typed
        if _WHOLE_NUMBER.fullmatch(number):
            if len(number.lstrip("+-")) > len(str(HIGHEST_TOTAL)) + 2:
                raise cls._error(
                    "a {noun} total of {total!r} is out of range ({least} to {most})",
                    player=player,
                    noun=cls._noun,
                    total=number,
                    least=LOWEST_TOTAL,
                    most=HIGHEST_TOTAL,
                )
            return cls(total=cls._check_total(int(number), player))
        if typed.startswith("="):
            raise cls._error(
                "{typed!r} is not a total; write it like '=23'", player=player, typed=typed
            )
        return cls(cards=parse_cards(typed, player))

    @property
    def is_empty(self) -> bool:
        """True for no cards at all (what an Auto Dutch caller shows)."""
        return self.cards == ()

    def value(self, rules: HouseRules) -> int:
        """The points this is worth under the house rules."""
        if self.total is not None:
            return self.total
        return sum(card.value(rules) for card in self.cards or ())

    def text(self) -> str:
        """Canonical text that ``parse`` reads back to an equal value.

        A single plain number card gets a trailing comma so it does not read as a total.

        >>> Hand.parse("10h kd").text(), Hand.of_total(15).text(), Hand.parse("7,").text()
        ('10H KD', '15', '7,')
        """
        if self.cards is None:
            return str(self.total)
        text = format_cards(self.cards)
        return f"{text}," if _WHOLE_NUMBER.fullmatch(text) else text

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.text()!r})"


class Hand(_CardsOrTotal):
    """The hand a player reveals at the end of a round (penalty cards from
    mismatched discards included).

    >>> Hand.of_cards(["KH", "KD"]).is_empty, Hand(cards=()).is_empty
    (False, True)
    """


class Penalty(_CardsOrTotal):
    """The penalty cards a caller drew after the reveal, or their total.

    >>> Penalty.parse("4S KD"), Penalty.none()
    (Penalty.parse('4S KD'), Penalty.parse(''))
    """

    _error = PenaltyError
    _noun = Phrase("penalty")

    @property
    def is_none(self) -> bool:
        """True when nothing was drawn: no cards, or a total of 0 for no cards."""
        return self.cards == () or self.total == 0

    @classmethod
    def none(cls) -> Penalty:
        """No penalty cards."""
        return cls(cards=())
