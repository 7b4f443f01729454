"""Rounds of Dutch played out with a shuffled deck, for demo data.

The play is simple but follows the table: four cards each, two of them looked
at; on a turn a player draws and either swaps the card for a worse one or
discards it; another player throws in a matching card they know of, and now and
then someone throws a wrong one and draws a penalty card; a Queen lets the
player look at one of their unknown cards, a Jack lets them pass their worst
known card to someone else. A player calls Dutch once their estimate is low
enough; one who runs out of cards calls Auto Dutch. After the reveal the caller
draws the penalty cards the core says are due, from the same deck.

Players are equally good unless told otherwise: a player's ``forgetting`` is the
chance that, at the start of each of their turns, they lose track of one card they
knew. It gives a simulated group players of known skill (0 plays best).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from dutch_core import (
    CallType,
    Card,
    Hand,
    HouseRules,
    Penalty,
    PenaltyMode,
    Rank,
    RoundInput,
    Suit,
    penalty_cards_due,
)

UNKNOWN_GUESS = 6.5  # what a player assumes an unseen card is worth
WRONG_MATCH_CHANCE = 0.03
LAPS_BEFORE_FORCED_CALL = 10

Valued = tuple[Card, int]


def full_deck(rules: HouseRules) -> list[Valued]:
    """52 cards plus the rules' Jokers, each with its value under the rules."""
    ranks = [rank for rank in Rank if rank is not Rank.JOKER]
    cards = [Card(rank, suit) for rank in ranks for suit in Suit]
    cards += [Card(Rank.JOKER) for _ in range(rules.jokers)]
    return [(card, card.value(rules)) for card in cards]


@dataclass
class Holding:
    """A player's face-down cards (with values) and which of them they know."""

    cards: list[Valued]
    known: list[bool]
    boldness: float = 0.0
    forgetting: float = 0.0

    def estimate(self) -> float:
        return sum(
            value if seen else UNKNOWN_GUESS
            for (_, value), seen in zip(self.cards, self.known, strict=True)
        )

    def worst_known(self) -> int | None:
        seen = [i for i, known in enumerate(self.known) if known]
        return max(seen, key=lambda i: self.cards[i][1]) if seen else None

    def unseen(self) -> list[int]:
        return [i for i, known in enumerate(self.known) if not known]

    def take(self, index: int) -> Valued:
        self.known.pop(index)
        return self.cards.pop(index)


@dataclass
class Table:
    """One round in progress."""

    rng: random.Random
    rules: HouseRules
    deck: list[Valued]
    holdings: dict[str, Holding]
    discards: list[Valued] = field(default_factory=list)
    locked: str | None = None  # a Dutch caller's cards are out of reach

    def draw(self, refill: bool = True) -> Valued | None:
        """The top card; an empty deck is refilled from the discards (unless it may run out)."""
        if not self.deck and refill and len(self.discards) > 1:
            top = self.discards.pop()
            self.deck, self.discards = self.discards, [top]
            self.rng.shuffle(self.deck)
        return self.deck.pop() if self.deck else None

    def discard(self, card: Valued, by: str) -> None:
        """Put a card face up; someone may throw in a match, or a wrong one."""
        self.discards.append(card)
        others = [name for name in self.holdings if name not in (by, self.locked)]
        if not others:
            return
        first = self.rng.randrange(len(others))  # whoever reacts first
        others = others[first:] + others[:first]
        value = card[1]
        for name in others:
            holding = self.holdings[name]
            for i, seen in enumerate(holding.known):
                if seen and holding.cards[i][1] == value:
                    self.discards.append(holding.take(i))
                    return
        if self.rng.random() < WRONG_MATCH_CHANCE:
            self._wrong_match(self.holdings[others[0]], value)

    def _wrong_match(self, holding: Holding, value: int) -> None:
        unseen = holding.unseen()
        if not unseen:
            return
        i = self.rng.choice(unseen)
        if holding.cards[i][1] == value:
            self.discards.append(holding.take(i))  # a lucky guess
            return
        penalty = self.draw()
        if penalty is not None:
            holding.cards.append(penalty)
            holding.known.append(False)

    def turn(self, name: str) -> None:
        holding = self.holdings[name]
        if holding.forgetting and self.rng.random() < holding.forgetting:
            seen = [i for i, known in enumerate(holding.known) if known]
            if seen:
                holding.known[self.rng.choice(seen)] = False
        drawn = self.draw(refill=not self.rules.allow_no_caller)
        if drawn is None:
            return
        worst = holding.worst_known()
        unseen = holding.unseen()
        if worst is not None and holding.cards[worst][1] > drawn[1] + 1:
            target = worst
        elif unseen and drawn[1] < UNKNOWN_GUESS:
            target = self.rng.choice(unseen)
        else:
            self.discard(drawn, name)
            self._special(drawn[0], name)
            return
        replaced = holding.cards[target]
        holding.cards[target], holding.known[target] = drawn, True
        self.discard(replaced, name)

    def _special(self, card: Card, name: str) -> None:
        holding = self.holdings[name]
        unseen = holding.unseen()
        if card.rank is Rank.QUEEN and unseen:
            holding.known[self.rng.choice(unseen)] = True
        elif card.rank is Rank.JACK:
            worst = holding.worst_known()
            victims = [
                other
                for other, held in self.holdings.items()
                if other not in (name, self.locked) and held.cards
            ]
            if worst is not None and victims and holding.cards[worst][1] >= 8:
                victim = self.holdings[self.rng.choice(victims)]
                j = self.rng.randrange(len(victim.cards))
                holding.cards[worst], victim.cards[j] = victim.cards[j], holding.cards[worst]
                holding.known[worst], victim.known[j] = False, False


def play_round(
    rng: random.Random,
    players: list[str],
    rules: HouseRules,
    dealer: int,
    deck: list[Valued] | None = None,
    forgetting: Mapping[str, float] | None = None,
) -> RoundInput:
    """Play one round (``deck``: the rules' full deck, if already made; ``forgetting``:
    each player's chance per turn to lose track of a known card, 0 if absent); the
    RoundInput as the players would enter it, hands as cards."""
    deck = list(deck or full_deck(rules))
    rng.shuffle(deck)
    holdings = {
        name: Holding(
            cards=[deck.pop() for _ in range(4)],
            known=[True, True, False, False],
            boldness=rng.uniform(-1.5, 2.5),
            forgetting=(forgetting or {}).get(name, 0.0),
        )
        for name in players
    }
    table = Table(rng, rules, deck, holdings)
    count = len(players)
    order = [players[(dealer + 1 + k) % count] for k in range(count)]
    caller, call_type = None, None
    for step in range(count * LAPS_BEFORE_FORCED_CALL):
        name = order[step % count]
        holding = holdings[name]
        late = step >= count * (LAPS_BEFORE_FORCED_CALL - 1)
        if step >= count and (holding.estimate() <= 4 + holding.boldness or late):
            caller, call_type = name, CallType.DUTCH
        else:
            if not table.deck and rules.allow_no_caller:
                break  # the deck ran out: nobody called
            table.turn(name)
            emptied = [other for other, held in holdings.items() if not held.cards]
            if emptied:
                caller, call_type = emptied[0], CallType.AUTO_DUTCH
        if caller is not None:
            table.locked = caller
            start = order.index(caller)
            for k in range(1, count):
                table.turn(order[(start + k) % count])
            break
    hands = {
        name: Hand.of_cards([card for card, _ in held.cards]) for name, held in holdings.items()
    }
    penalty = None
    if caller is not None and rules.penalty_mode is PenaltyMode.CARDS:
        due = penalty_cards_due(hands, caller, rules)
        if due:
            drawn = [card for card in (table.draw() for _ in range(due)) if card is not None]
            # Only if deck and discards were both used up: the caller writes down a total.
            short = len(drawn) < due
            penalty = Penalty.of_total(due * 6) if short else Penalty.of_cards(c for c, _ in drawn)
    return RoundInput(tuple(hands.items()), caller, call_type, penalty)
