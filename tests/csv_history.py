"""An import plan as the history frame its rows would make once stored.

The CSV tests compare what a file would import with what the app exports: this turns a
plan (:class:`dutch_app.csv_io.plan.ImportPlan`) into a frame of
``dutch_core.stats.HISTORY_DTYPES``, with the file's game numbers as game ids, without a
database in between.
"""

from __future__ import annotations

import pandas as pd

from dutch_app.csv_io.plan import ImportPlan, PlannedGame, PlannedRound
from dutch_core import Game, HouseRules
from dutch_core.stats import HISTORY_COLUMNS, HISTORY_DTYPES


def core_game(game: PlannedGame) -> Game:
    """The core's game of a planned one (totals, standings, winners)."""
    return Game(game.players, game.rules, tuple(r.result for r in game.rounds))


def plan_rules(plan: ImportPlan) -> dict[int, HouseRules]:
    """Each game's house rules by its game number (the numbers the file gives its games)."""
    return {game.number: game.rules for game in plan.games}


def plan_players(plan: ImportPlan) -> tuple[str, ...]:
    """Every player's name, first spelling kept when names differ only in case."""
    names: dict[str, str] = {}
    for game in plan.games:
        for name in game.players:
            names.setdefault(name.strip().casefold(), name)
    return tuple(names.values())


def plan_history(plan: ImportPlan) -> pd.DataFrame:
    """The plan as a history frame; game ids are the file's game numbers."""
    names = {name.strip().casefold(): name for name in reversed(plan_players(plan))}
    ids = {key: number for number, key in enumerate(names, start=1)}
    rows = []
    round_id = 0
    for game in plan.games:
        for planned, totals in zip(game.rounds, core_game(game).running_totals(), strict=True):
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
