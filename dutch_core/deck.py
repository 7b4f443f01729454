"""Deck sanity: refuse a round that no single deck could have produced.

>>> from dutch_core.rules import HouseRules
>>> from dutch_core.round_input import RoundInput
>>> round_input = RoundInput.build({"Ann": "7S", "Bo": "7s 2"}, caller="Ann", call_type="dutch")
>>> check_deck(round_input, HouseRules())
Traceback (most recent call last):
dutch_core.errors.DeckError: Bo: card '7S' is already Ann's
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dutch_core.cards import Card, Colour, Rank
from dutch_core.errors import DeckError, PenaltyError
from dutch_core.phrases import Phrase

if TYPE_CHECKING:
    from dutch_core.hand import Hand, Penalty
    from dutch_core.round_input import RoundInput
    from dutch_core.rules import HouseRules

_DECK_SIZE = 52
_PER_RANK = 4
_PER_KING_COLOUR = 2


class PenaltyDeckError(DeckError, PenaltyError):
    """A penalty card (or total) that no deck could have produced; it is both kinds."""


@dataclass(frozen=True)
class _Entry:
    player: str | None
    cards_or_total: Hand | Penalty
    error: type[DeckError]
    penalty: bool


def _entries(round_input: RoundInput) -> Iterator[_Entry]:
    for player, hand in round_input.hands:
        yield _Entry(player, hand, DeckError, False)
    if round_input.penalty is not None:
        yield _Entry(round_input.caller, round_input.penalty, PenaltyDeckError, True)


def _card_problem(
    card: Card,
    number: int,
    counts: Counter[tuple[Rank, Colour | None]],
    rules: HouseRules,
    held: str = "",
) -> Phrase | None:
    deck_size = _DECK_SIZE + rules.jokers
    if number > deck_size:
        return Phrase(
            "is card {number} of this round; a deck has {size}", number=number, size=deck_size
        )
    count = counts[card.rank, card.colour]
    if card.rank is Rank.JOKER and count > rules.jokers:
        if not rules.jokers:
            return Phrase("is a Joker, but these house rules play without Jokers")
        return Phrase("is one Joker too many; the deck has {jokers}", jokers=rules.jokers)
    if card.rank is Rank.KING and count > _PER_KING_COLOUR:
        if card.colour is Colour.RED:
            return Phrase("would be a 3rd red King; a deck has only 2{held}", held=held)
        return Phrase("would be a 3rd black King; a deck has only 2{held}", held=held)
    if count > _PER_RANK:
        return Phrase(
            "would be a 5th {rank!r}; a deck has only 4{held}", rank=card.rank.value, held=held
        )
    return None


def held_already(holders: Counter[str | None]) -> str:
    """Who already holds the cards of a kind, in seat order: ``" (held already: Ann 2, Bo 1)"``.

    >>> held_already(Counter({"Olivia": 1, "Sam": 1}))
    ' (held already: Olivia 1, Sam 1)'
    """
    held = ", ".join(f"{who} {n}" for who, n in holders.items())
    return Phrase(" (held already: {holders})", holders=held)


def _check_cards(round_input: RoundInput, rules: HouseRules) -> None:
    counts: Counter[tuple[Rank, Colour | None]] = Counter()
    holders: dict[tuple[Rank, Colour | None], Counter[str | None]] = {}
    owner_of: dict[Card, str | None] = {}
    number = 0
    for entry in _entries(round_input):
        for card in entry.cards_or_total.cards or ():
            number += 1
            kind = card.rank, card.colour
            counts[kind] += 1
            # A suited card seen before names both hands: the one it is in already and this one.
            problem: Phrase | None
            if card.suit is not None and card in owner_of:
                owner = owner_of[card]
                problem = (
                    Phrase("was entered twice")
                    if owner == entry.player
                    else Phrase("is already {owner}'s", owner=owner)
                )
            else:
                held = held_already(holders[kind]) if kind in holders else ""
                problem = _card_problem(card, number, counts, rules, held)
            if problem is not None:
                if entry.penalty:
                    message = Phrase("penalty card {card!r} {problem}")
                else:
                    message = Phrase("card {card!r} {problem}")
                raise entry.error(message, player=entry.player, card=str(card), problem=problem)
            holders.setdefault(kind, Counter())[entry.player] += 1
            if card.suit is not None:
                owner_of[card] = entry.player


def _check_totals(round_input: RoundInput, rules: HouseRules) -> None:
    lowest, highest = rules.deck_total_range()
    above = below = 0  # the round's totals above zero and below zero, added up so far
    for entry in _entries(round_input):
        value = entry.cards_or_total.value(rules)
        if entry.cards_or_total.total is not None and not lowest <= value <= highest:
            if entry.penalty:
                message = Phrase(
                    "a penalty total of {value} is outside what this deck can make "
                    "({lowest} to {highest})"
                )
            else:
                message = Phrase(
                    "a total of {value} is outside what this deck can make ({lowest} to {highest})"
                )
            raise entry.error(
                message, player=entry.player, value=value, lowest=lowest, highest=highest
            )
        above += max(value, 0)
        below += min(value, 0)
        if above > highest:
            if entry.penalty:
                message = Phrase(
                    "penalty {value} brings this round's totals to {total}, more than the whole "
                    "deck is worth ({most})"
                )
            else:
                message = Phrase(
                    "{value} brings this round's totals to {total}, more than the whole deck is "
                    "worth ({most})"
                )
            raise entry.error(message, player=entry.player, value=value, total=above, most=highest)
        if below < lowest:
            if entry.penalty:
                message = Phrase(
                    "penalty {value} brings this round's totals below zero to {total}, less "
                    "than all the deck's negative cards together ({least})"
                )
            else:
                message = Phrase(
                    "{value} brings this round's totals below zero to {total}, less than all "
                    "the deck's negative cards together ({least})"
                )
            raise entry.error(message, player=entry.player, value=value, total=below, least=lowest)


def check_deck(round_input: RoundInput, rules: HouseRules) -> None:
    """Raise DeckError, naming the player and card, if one deck cannot produce this round.

    Counts every card entered in the hands and the penalty: at most 52 (plus the
    Jokers), 4 of a rank, 2 red and 2 black Kings, no suited card twice. Totals
    count too: each within what this deck can make (0 to 338 for the original deck;
    below zero only with negative Jokers), and all of them together as well.
    """
    _check_cards(round_input, rules)
    _check_totals(round_input, rules)
