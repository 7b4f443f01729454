"""Cards: ranks, suits, and the notations people type for them.

>>> Card.parse("k♥")
Card.parse('KH')
>>> format_cards(parse_cards("7, 10h t A red K"))
'7 10H 10 A RK'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from dutch_core.errors import CardError

if TYPE_CHECKING:
    from dutch_core.rules import HouseRules


class Rank(StrEnum):
    """A card's rank, written the way it is typed."""

    ACE = "A"
    """Ace, worth 1."""
    TWO = "2"
    """Two, worth 2."""
    THREE = "3"
    """Three, worth 3."""
    FOUR = "4"
    """Four, worth 4."""
    FIVE = "5"
    """Five, worth 5."""
    SIX = "6"
    """Six, worth 6."""
    SEVEN = "7"
    """Seven, worth 7."""
    EIGHT = "8"
    """Eight, worth 8."""
    NINE = "9"
    """Nine, worth 9."""
    TEN = "10"
    """Ten, worth 10; ``T`` is accepted when typing."""
    JACK = "J"
    """Jack, worth 11."""
    QUEEN = "Q"
    """Queen, worth 12."""
    KING = "K"
    """King: its colour decides its worth (red 0, black 13 by default)."""
    JOKER = "JK"
    """Joker, only in house rules that add them; worth what those rules say."""


class Colour(StrEnum):
    """The colour of a suit; it decides what a King is worth."""

    RED = "red"
    """Hearts and diamonds."""
    BLACK = "black"
    """Spades and clubs."""


class Suit(StrEnum):
    """A card's suit, written as its initial."""

    HEARTS = "H"
    """Hearts (♥), red."""
    DIAMONDS = "D"
    """Diamonds (♦), red."""
    SPADES = "S"
    """Spades (♠), black."""
    CLUBS = "C"
    """Clubs (♣), black."""

    @property
    def colour(self) -> Colour:
        """Red for hearts and diamonds, black for spades and clubs.

        >>> Suit.DIAMONDS.colour
        <Colour.RED: 'red'>
        """
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK


_SUIT_SPELLINGS = {Suit.HEARTS: "H♥♡", Suit.DIAMONDS: "D♦♢", Suit.SPADES: "S♠♤", Suit.CLUBS: "C♣♧"}
_SUIT_CODES = {code: suit for suit, codes in _SUIT_SPELLINGS.items() for code in codes}
_RANK_CODES = {rank.value: rank for rank in Rank} | {"T": Rank.TEN, "1": Rank.ACE}
_JOKER_WORDS = ("JK", "JOKER", "🃏")
_KING_WORDS = {
    Colour.RED: ("RK", "RED K", "RED KING"),
    Colour.BLACK: ("BK", "BLACK K", "BLACK KING"),
}
_COLOUR_KINGS = {word: colour for colour, words in _KING_WORDS.items() for word in words}
_FACE_VALUES = {Rank.ACE: 1, Rank.JACK: 11, Rank.QUEEN: 12}
_SEPARATORS = re.compile(r"[\s,]+")


def _bare_king(token: str, player: str | None) -> CardError:
    return CardError(
        "{token!r} needs a colour: KH/KD (red, 0) or KS/KC (black, 13)", player=player, token=token
    )


def _member(enum: type[StrEnum], value: object, what: str) -> None:
    if value is not None and not isinstance(value, enum):
        raise CardError("{value!r} is not a {what}", value=value, what=what)


@dataclass(frozen=True, repr=False)
class Card:
    """One playing card. A King always knows its colour; other ranks never carry one.

    >>> Card(Rank.KING, Suit.SPADES).colour
    <Colour.BLACK: 'black'>
    >>> Card(Rank.SEVEN, colour=Colour.RED).colour is None
    True
    >>> Card.parse("7S").rank = Rank.EIGHT
    Traceback (most recent call last):
    dataclasses.FrozenInstanceError: cannot assign to field 'rank'
    """

    rank: Rank
    suit: Suit | None = None
    colour: Colour | None = None

    def __post_init__(self) -> None:
        if self.rank is None:
            raise CardError("a card needs a rank")
        _member(Rank, self.rank, "rank")
        _member(Suit, self.suit, "suit")
        _member(Colour, self.colour, "colour")
        rank, suit, colour = self.rank, self.suit, self.colour
        if rank is Rank.JOKER:
            if suit is not None or colour is not None:
                raise CardError(
                    "a Joker has no suit or colour, got {value!r}", value=suit or colour
                )
        elif rank is Rank.KING:
            if suit is not None:
                if colour is not None and colour is not suit.colour:
                    raise CardError(
                        "a King of {suit!r} cannot be {value}", suit=suit, value=colour.value
                    )
                colour = suit.colour
            elif colour is None:
                raise _bare_king("K", None)
        else:
            colour = None
        object.__setattr__(self, "colour", colour)

    @classmethod
    def parse(cls, token: object, player: str | None = None) -> Card:
        """Read one card as typed, in any case: ``7``, ``7S``, ``7♠``, ``T``, ``10H``,
        ``A`` (or ``1``), ``KH``, ``K♥``, ``RK``/``BK`` (red/black King), ``JK``/``JOKER``.

        >>> Card.parse("th"), Card.parse("bk"), Card.parse("Joker")
        (Card.parse('10H'), Card.parse('BK'), Card.parse('JK'))
        >>> Card.parse("k", "Ann")
        Traceback (most recent call last):
        dutch_core.errors.CardError: Ann: 'k' needs a colour: KH/KD (red, 0) or KS/KC (black, 13)
        """
        if isinstance(token, Card):
            return token
        if not isinstance(token, str):
            raise CardError(
                "{token!r} is not a card; type it like '7S' or 'KH'", player=player, token=token
            )
        typed = token.strip()
        key = " ".join(typed.upper().replace("\ufe0f", "").split())
        if key in _JOKER_WORDS:
            return cls(Rank.JOKER)
        if key in _COLOUR_KINGS:
            return cls(Rank.KING, colour=_COLOUR_KINGS[key])
        rank_text, suit = key, None
        if key[-1:] in _SUIT_CODES:
            rank_text, suit = key[:-1], _SUIT_CODES[key[-1]]
        rank = _RANK_CODES.get(rank_text)
        if (rank is Rank.KING and suit is None) or key in ("KING", "KINGS"):
            raise _bare_king(typed, player)
        if rank is None or rank is Rank.JOKER:
            raise CardError(
                "{token!r} is not a card; use A, 2-10 (or T), J, Q, "
                "KH/KD/KS/KC or JK, optionally with a suit such as 7S or 7♠",
                player=player,
                token=typed,
            )
        return cls(rank, suit)

    def __str__(self) -> str:
        if self.rank is Rank.KING and self.suit is None:
            return "RK" if self.colour is Colour.RED else "BK"
        return self.rank.value + (self.suit.value if self.suit else "")

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def value(self, rules: HouseRules) -> int:
        """Points this card is worth under the house rules.

        >>> from dutch_core.rules import HouseRules
        >>> [c.value(HouseRules()) for c in parse_cards("A 10 J Q KD KS")]
        [1, 10, 11, 12, 0, 13]
        """
        if self.rank is Rank.KING:
            if self.colour is Colour.RED:
                return rules.red_king_value
            return rules.black_king_value
        if self.rank is Rank.JOKER:
            return rules.joker_value
        return _FACE_VALUES.get(self.rank) or int(self.rank.value)


def parse_cards(text: str, player: str | None = None) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; also "red K" and "black king".

    >>> parse_cards("7s, q♦ black king")
    (Card.parse('7S'), Card.parse('QD'), Card.parse('BK'))
    >>> parse_cards("  ")
    ()
    """
    if not isinstance(text, str):
        raise CardError("{text!r} is not text of cards like '7S QH'", player=player, text=text)
    tokens = [token for token in _SEPARATORS.split(text) if token]
    cards: list[Card] = []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        if token.upper() in ("RED", "BLACK"):
            following = tokens[position + 1] if position + 1 < len(tokens) else ""
            if following.upper() not in ("K", "KING"):
                raise CardError(
                    "{token!r} must be followed by K, as in 'red K'", player=player, token=token
                )
            token = f"{token} {following}"
            position += 1
        cards.append(Card.parse(token, player))
        position += 1
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards back in their canonical notation, one space apart.

    >>> format_cards([Card(Rank.TEN, Suit.HEARTS), Card(Rank.KING, colour=Colour.RED)])
    '10H RK'
    """
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise CardError("{cards!r} is not a list of cards", cards=cards)
    tokens = []
    for card in cards:
        if not isinstance(card, Card):
            raise CardError("{card!r} is not a card", card=card)
        tokens.append(str(card))
    return " ".join(tokens)
