"""Writing many scored games at once: one multi-row insert per table for a whole batch."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from dutch_app.services._scoring import Table, hand_rows, round_values
from dutch_app.storage.models import Game, GamePlayer, Player, Round, RoundHand
from dutch_core import Game as CoreGame
from dutch_core import HouseRules, RoundResult


class BulkGame(NamedTuple):
    """A scored game ready to insert: its ``games`` row values (rules as stored, a dict),
    its players in seat order, its rounds' results (under those players' names), when each
    round was entered (by default four minutes apart from the start) and by whom."""

    values: dict
    seated: Sequence[Player]
    results: Sequence[RoundResult]
    entered_at: Sequence[datetime] | None = None
    entered_by: int | None = None

    @property
    def rows(self) -> int:
        """How many player-round rows the game has."""
        return len(self.results) * len(self.seated)


def insert_with_ids(session: Session, table, rows: list[dict]) -> list[int]:
    """Insert rows in bulk; their new ids, in order. SQLite cannot promise the order of
    a multi-row RETURNING, so there the ids are handed out under the write lock we hold."""
    if not rows:
        return []
    if session.get_bind().dialect.name != "sqlite":
        returning = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        return list(session.scalars(returning, rows))
    first = (session.scalar(select(func.max(table.c.id))) or 0) + 1
    ids = list(range(first, first + len(rows)))
    session.execute(insert(table), [{**row, "id": id_} for row, id_ in zip(rows, ids, strict=True)])
    return ids


def write_games(session: Session, batch: Sequence[BulkGame]) -> list[int]:
    """Insert a batch of games, one statement per table (Core tables: rows whose optional
    columns are None stay in one statement); the new games' ids, in order.

    Each hand is stored with its player's game total, added up by the core.
    """
    games, rounds, seats, hands = (
        Game.__table__,
        Round.__table__,
        GamePlayer.__table__,
        RoundHand.__table__,
    )
    game_ids = insert_with_ids(session, games, [game.values for game in batch])
    seat_rows, round_rows, hand_lists = [], [], []
    for game_id, game in zip(game_ids, batch, strict=True):
        seat_rows += [
            {"game_id": game_id, "seat": seat, "player_id": player.id}
            for seat, player in enumerate(game.seated)
        ]
        table = Table(tuple(game.seated))
        rules = HouseRules.from_dict(game.values["rules"])
        running = CoreGame(table.names, rules, tuple(game.results)).running_totals()
        started = game.values["started_at"]
        entered = game.entered_at or [
            started + timedelta(minutes=4 * number) for number in range(1, len(game.results) + 1)
        ]
        for number, (result, totals, at) in enumerate(
            zip(game.results, running, entered, strict=True), start=1
        ):
            values = {"game_id": game_id, "number": number, "entered_at": at}
            values["entered_by"] = game.entered_by
            round_rows.append({**values, "version": 1, **round_values(table, result)})
            hand_lists.append(hand_rows(table, result, totals))
    if seat_rows:
        session.execute(insert(seats), seat_rows)
    round_ids = insert_with_ids(session, rounds, round_rows)
    hand_values = [
        {"round_id": round_id, **hand}
        for round_id, hand_list in zip(round_ids, hand_lists, strict=True)
        for hand in hand_list
    ]
    if hand_values:
        session.execute(insert(hands), hand_values)
    return game_ids
