"""A game: the same players over a series of rounds, with totals, standings and an end.

>>> game = Game.start(["Ann", "Bo", "Cy"], PRESETS["classic"])
>>> game = game.add_round(RoundInput.build({"Ann": "3", "Bo": "10", "Cy": "7"}, "Ann", "dutch"))
>>> game = game.add_round(RoundInput.build({"Ann": "9", "Bo": "", "Cy": "4"}, "Bo", "auto_dutch"))
>>> game.totals()
{'Ann': 12, 'Bo': 10, 'Cy': 11}
>>> [(s.player, s.rank) for s in game.standings()]
[('Bo', 1), ('Cy', 2), ('Ann', 3)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TypeVar

from dutch_core.errors import GameError, RulesError
from dutch_core.phrases import Phrase
from dutch_core.round_input import RoundInput, check_players
from dutch_core.rules import PRESETS, EndKind, HouseRules
from dutch_core.scoring import RoundResult, score_round

__all__ = [
    "Game",
    "GameStatus",
    "Standing",
    "dealer_seat",
    "end_reached",
    "lowest_totals",
    "rank_players",
    "replay_totals",
    "totals_after",
]


class GameStatus(StrEnum):
    """Whether a game goes on (stored as its value)."""

    ACTIVE = "active"
    """Rounds can be added; its end condition has not been met, or it was reopened."""
    ENDED = "ended"
    """Over: its end condition was met, or someone ended it."""


_Key = TypeVar("_Key")


def totals_after(
    rules: HouseRules, totals: Mapping[_Key, int], round_scores: Mapping[_Key, int]
) -> dict[_Key, int]:
    """Each player's game total after one more round, from the totals before it.

    The round score is added and the end condition settles the sum (a score limit
    that halves halves a total landing exactly on it). Players may be keyed by name
    or by any other key, in the order of ``round_scores``.

    >>> rules = HouseRules.from_dict({"end": {"kind": "score_limit", "limit": 100,
    ...                                       "exact_limit_halves": True}})
    >>> totals_after(rules, {"Ann": 90, "Bo": 40}, {"Ann": 10, "Bo": 7})
    {'Ann': 50, 'Bo': 47}
    """
    return {
        player: rules.end.settle(totals.get(player, 0) + score)
        for player, score in round_scores.items()
    }


def replay_totals(
    rules: HouseRules, players: Iterable[_Key], rounds: Iterable[Mapping[_Key, int]]
) -> Iterator[dict[_Key, int]]:
    """The game totals after each round, from the rounds' scores in order; every player
    of ``players`` (in that order) starts at 0.

    >>> rules = HouseRules.from_dict({"end": {"kind": "score_limit", "limit": 20,
    ...                                       "exact_limit_halves": True}})
    >>> list(replay_totals(rules, ["Ann", "Bo"], [{"Ann": 12, "Bo": 3}, {"Ann": 8, "Bo": 0}]))
    [{'Ann': 12, 'Bo': 3}, {'Ann': 10, 'Bo': 3}]
    """
    order = tuple(players)
    totals: dict[_Key, int] = dict.fromkeys(order, 0)
    for scores in rounds:
        totals = totals_after(rules, totals, {player: scores[player] for player in order})
        yield totals


def end_reached(rules: HouseRules, rounds_played: int, totals: Mapping[_Key, int]) -> bool:
    """True when the end condition holds after ``rounds_played`` rounds with these totals."""
    end = rules.end
    if end.kind is EndKind.ROUNDS and end.rounds is not None:
        return rounds_played >= end.rounds
    if end.kind is EndKind.SCORE_LIMIT and end.limit is not None:
        return bool(totals) and max(totals.values()) >= end.limit
    return False


def game_length(started_at: datetime, last_round_at: datetime | None) -> timedelta | None:
    """How long a game has been played: from its start to its last round (never less than
    nothing); None before its first round. The moment a game is ended is not used: people
    often tap "end" long after the cards are away.

    >>> game_length(datetime(2025, 1, 1, 20, 0), datetime(2025, 1, 1, 21, 25))
    datetime.timedelta(seconds=5100)
    """
    if last_round_at is None:
        return None
    return max(last_round_at - started_at, timedelta(0))


def dealer_seat(round_number: int, players: int) -> int:
    """The seat (0-based) that deals round ``round_number`` (1-based) of a game.

    Seat 0 deals the first round and the deal moves one seat on each round, in
    seat order (clockwise round the table), back to seat 0 after the last seat.

    >>> [dealer_seat(number, 3) for number in range(1, 6)]
    [0, 1, 2, 0, 1]
    """
    for name, value, low in (("round_number", round_number, 1), ("players", players, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise GameError(
                "{name} must be a whole number of at least {low}, got {value!r}",
                name=name,
                low=low,
                value=value,
            )
    return (round_number - 1) % players


@dataclass(frozen=True)
class Standing:
    """A player's place in a game: rank 1 is best and equal totals share a rank (1, 1, 3)."""

    player: str
    game_total: int
    rank: int
    seat: int


@dataclass(frozen=True)
class Game:
    """An immutable game; every change returns a new Game with all totals recomputed."""

    players: tuple[str, ...]
    rules: HouseRules = PRESETS["classic"]
    rounds: tuple[RoundResult, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.players, tuple):
            raise GameError(
                "players must be a tuple of names, got {players!r}", players=self.players
            )
        check_players(self.players, GameError)
        if not isinstance(self.rules, HouseRules):
            raise RulesError("house rules expected, got {rules!r}", rules=self.rules)
        if not isinstance(self.rounds, tuple):
            raise GameError(
                "rounds must be a tuple of scored rounds, got {rounds!r}", rounds=self.rounds
            )
        for number, result in enumerate(self.rounds, start=1):
            if not isinstance(result, RoundResult):
                raise GameError(
                    "round {number} is not a scored round: {result!r}", number=number, result=result
                )
            self._check_players_of(result.input, number)

    @classmethod
    def start(cls, players: Iterable[str], rules: HouseRules = PRESETS["classic"]) -> Game:
        """A new game with no rounds; players in seat order."""
        return cls(check_players(players, GameError), rules)

    @classmethod
    def from_inputs(
        cls, players: Iterable[str], rules: HouseRules, round_inputs: Iterable[RoundInput]
    ) -> Game:
        """A game rebuilt from its rounds' inputs, all scored afresh (e.g. from storage).

        Unlike ``add_round`` this keeps rounds that a correction placed after the end.
        """
        return cls.start(players, rules)._rescored(round_inputs)

    def _check_players_of(self, round_input: object, number: int) -> None:
        if not isinstance(round_input, RoundInput):
            raise GameError(
                "round {number}: a round input expected, got {round_input!r}",
                number=number,
                round_input=round_input,
            )
        if set(round_input.players) != set(self.players):
            raise GameError(
                "round {number} has players {seated}; this game's players are {players}",
                number=number,
                seated=", ".join(round_input.players),
                players=", ".join(self.players),
            )

    def _rescored(self, round_inputs: Iterable[RoundInput]) -> Game:
        results = []
        for number, round_input in enumerate(round_inputs, start=1):
            self._check_players_of(round_input, number)
            results.append(score_round(round_input, self.rules))
        return replace(self, rounds=tuple(results))

    def _index(self, number: int) -> int:
        if isinstance(number, bool) or not isinstance(number, int):
            raise GameError("a round number must be a whole number, got {number!r}", number=number)
        if not 1 <= number <= len(self.rounds):
            played = (
                Phrase("rounds 1 to {last} were played", last=len(self.rounds))
                if self.rounds
                else Phrase("none yet")
            )
            raise GameError("there is no round {number!r}; {played}", number=number, played=played)
        return number - 1

    def add_round(self, round_input: RoundInput) -> Game:
        """The game with one more round, scored under the game's house rules."""
        if self.is_over:
            raise GameError(
                "the game ended after round {ended_after}; start a new game",
                ended_after=self.ended_after,
            )
        return self._rescored([*(r.input for r in self.rounds), round_input])

    def replace_round(self, number: int, round_input: RoundInput) -> Game:
        """The game with round ``number`` (1-based) corrected; later totals follow."""
        inputs = [r.input for r in self.rounds]
        inputs[self._index(number)] = round_input
        return self._rescored(inputs)

    def delete_round(self, number: int) -> Game:
        """The game without round ``number`` (1-based); later rounds move up."""
        inputs = [r.input for r in self.rounds]
        del inputs[self._index(number)]
        return self._rescored(inputs)

    @property
    def rounds_played(self) -> int:
        """How many rounds have been scored."""
        return len(self.rounds)

    @property
    def dealer(self) -> str:
        """Who deals the next round (the one after the rounds played so far)."""
        return self.players[dealer_seat(self.rounds_played + 1, len(self.players))]

    def running_totals(self) -> list[dict[str, int]]:
        """Game totals after each round, in seat order (see :func:`replay_totals`)."""
        return list(replay_totals(self.rules, self.players, (r.as_dict() for r in self.rounds)))

    def totals(self) -> dict[str, int]:
        """Current game totals, in seat order."""
        history = self.running_totals()
        return history[-1] if history else dict.fromkeys(self.players, 0)

    @property
    def ended_after(self) -> int | None:
        """The round after which the end condition was met, or None while it goes on."""
        if self.rules.end.kind is EndKind.OPEN:
            return None
        for number, totals in enumerate(self.running_totals(), start=1):
            if end_reached(self.rules, number, totals):
                return number
        return None

    @property
    def is_over(self) -> bool:
        """True once the end condition was met; an open-ended game never ends by itself."""
        return self.ended_after is not None

    def standings(self) -> list[Standing]:
        """Players from lowest game total to highest, ties in seat order and sharing a rank."""
        return rank_players(self.players, self.totals())

    def winners(self) -> tuple[str, ...]:
        """The players with the lowest game total (more than one on a tie), in seat order."""
        return lowest_totals(self.totals())


def rank_players(players: Iterable[str], totals: Mapping[str, int]) -> list[Standing]:
    """Players (in seat order) from lowest game total to highest, ties in seat order and
    sharing a rank; the standings of a game whose totals are ``totals``."""
    order = sorted(enumerate(players), key=lambda seat_player: totals[seat_player[1]])
    return [
        Standing(
            player=player,
            game_total=totals[player],
            rank=1 + sum(total < totals[player] for total in totals.values()),
            seat=seat,
        )
        for seat, player in order
    ]


def lowest_totals(totals: Mapping[str, int]) -> tuple[str, ...]:
    """The players with the lowest game total (more than one on a tie), in seat order."""
    best = min(totals.values())
    return tuple(player for player, total in totals.items() if total == best)
