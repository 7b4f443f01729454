"""The import plan: the games of a rounds file, checked and scored, before anything is stored."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import pandas as pd

from dutch_app.csv_io.format import TIMESTAMP_FORMAT, rules_text
from dutch_core import Game, HouseRules, RoundResult
from dutch_core.stats import HISTORY_COLUMNS, HISTORY_DTYPES


@dataclass(frozen=True)
class PlannedRound:
    """A round ready to store: when it was played and the core's result."""

    number: int
    played_at: datetime
    result: RoundResult
    line: int


@dataclass(frozen=True)
class PlannedGame:
    """A game ready to store, with the key that recognises it when imported again."""

    number: int
    started_at: datetime
    status: str
    rules: HouseRules
    players: tuple[str, ...]
    rounds: tuple[PlannedRound, ...]
    import_key: str
    line: int

    @property
    def game(self) -> Game:
        """The core's game (totals, standings, winners)."""
        return Game(self.players, self.rules, tuple(r.result for r in self.rounds))


def import_key(
    started_at: datetime, rules: HouseRules, rounds: Sequence[tuple[datetime, RoundResult]]
) -> str:
    """A fingerprint of a game's content (start, rules, every hand and call), 64 hex digits.

    The file's game number and status are left out, so the same game exported
    again (alone, or later on with a different status) is still recognised.
    """
    content = [
        started_at.strftime(TIMESTAMP_FORMAT),
        rules_text(rules),
        [
            [
                played_at.strftime(TIMESTAMP_FORMAT),
                result.caller,
                result.call_type and result.call_type.value,
                result.input.penalty and result.input.penalty.text(),
                [[player, hand.text()] for player, hand in result.input.hands],
            ]
            for played_at, result in rounds
        ],
    ]
    return hashlib.sha256(json.dumps(content).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ImportPlan:
    """Everything a rounds file holds, checked and scored, before anything is stored.

    ``games`` are in the file's game order; ``repeated`` lists the game numbers
    that repeat an earlier game of the same file (they are not imported twice).
    """

    games: tuple[PlannedGame, ...]
    repeated: tuple[int, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        """Every player's name, first spelling kept when names differ only in case."""
        names: dict[str, str] = {}
        for game in self.games:
            for name in game.players:
                names.setdefault(name.strip().casefold(), name)
        return tuple(names.values())

    @property
    def rounds(self) -> int:
        """How many rounds the games have together."""
        return sum(len(game.rounds) for game in self.games)

    def game_rules(self) -> dict[int, HouseRules]:
        """Each game's house rules by its game number (the ids of :meth:`to_history`)."""
        return {game.number: game.rules for game in self.games}

    def to_history(self) -> pd.DataFrame:
        """The plan as a history frame; game ids are the file's game numbers."""
        names = {name.strip().casefold(): name for name in reversed(self.players)}
        ids = {key: number for number, key in enumerate(names, start=1)}
        rows = []
        round_id = 0
        for game in self.games:
            for planned, totals in zip(game.rounds, game.game.running_totals(), strict=True):
                round_id += 1
                rows.extend(_history_rows(game, planned, totals, round_id, names, ids))
        frame = pd.DataFrame(rows, columns=list(HISTORY_COLUMNS)).astype(HISTORY_DTYPES)
        order = ["game_started_at", "game_id", "round_number", "seat"]
        return frame.sort_values(order, kind="stable", ignore_index=True)


def _history_rows(
    game: PlannedGame,
    planned: PlannedRound,
    totals: dict[str, int],
    round_id: int,
    names: dict[str, str],
    ids: dict[str, int],
) -> list[dict]:
    result = planned.result
    hands = dict(result.input.hands)
    caller_total = next((s.hand_total for s in result.scores if s.is_caller), None)
    penalty = result.input.penalty
    rows = []
    for seat, score in enumerate(result.scores):
        hand, key = hands[score.player], score.player.strip().casefold()
        rows.append(
            {
                "game_id": game.number,
                "game_started_at": game.started_at,
                "game_status": game.status,
                "round_id": round_id,
                "round_number": planned.number,
                "played_at": planned.played_at,
                "player_id": ids[key],
                "player": names[key],
                "seat": seat,
                "cards": None if hand.cards is None else hand.text(),
                "hand_total": score.hand_total,
                "is_caller": score.is_caller,
                "caller": result.caller and names[result.caller.strip().casefold()],
                "caller_hand_total": caller_total,
                "call_type": result.call_type and result.call_type.value,
                "outcome": result.outcome and result.outcome.value,
                "penalty_cards_due": result.penalty_cards_due if score.is_caller else 0,
                "penalty": penalty.text() if score.is_caller and penalty is not None else None,
                "penalty_points": score.penalty_points,
                "round_score": score.round_score,
                "game_total": totals[score.player],
            }
        )
    return rows
