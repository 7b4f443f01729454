"""The import plan: the games of a rounds file, checked and scored, before anything is stored."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from dutch_app.csv_io.format import TIMESTAMP_FORMAT, rules_text
from dutch_core import HouseRules, RoundResult


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
