"""Writing many scored games at once: one multi-row insert per table for a whole batch."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import func, insert, select, text
from sqlalchemy.orm import Session

from dutch_app.services._stored_games import Table, hand_rows, round_values
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
    a multi-row RETURNING, so there the ids are handed out under the write lock we hold
    (and set on the rows given)."""
    if not rows:
        return []
    if session.get_bind().dialect.name != "sqlite":
        returning = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        return list(session.scalars(returning, rows))
    # After the highest id ever handed out (AUTOINCREMENT keeps it in sqlite_sequence
    # even when that row is gone), not just the highest one there now: ids are never
    # reused. SQLite moves the sequence on past the ids inserted here.
    handed_out = session.execute(
        text("SELECT seq FROM sqlite_sequence WHERE name = :table"), {"table": table.name}
    ).scalar()
    highest = session.scalar(select(func.max(table.c.id)))
    first = max(handed_out or 0, highest or 0) + 1
    ids = list(range(first, first + len(rows)))
    for row, id_ in zip(rows, ids, strict=True):
        row["id"] = id_
    session.execute(insert(table), rows)
    return ids


class PreparedGames(NamedTuple):
    """The rows of a batch of games, built before any write begins. Seats and rounds name
    their game by its index in ``games``, hands their round by its index in ``rounds``;
    player ids are whatever the seated players' ``id`` holds (resolved on insert)."""

    games: list[dict]
    seats: list[dict]
    rounds: list[dict]
    hands: list[dict]


def prepare_games(batch: Sequence[BulkGame]) -> PreparedGames:
    """Every row of the batch, each hand with its player's game total added up by the core."""
    prepared = PreparedGames([], [], [], [])
    for index, game in enumerate(batch):
        prepared.games.append(dict(game.values))
        prepared.seats.extend(
            {"game_id": index, "seat": seat, "player_id": player.id}
            for seat, player in enumerate(game.seated)
        )
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
            round_index = len(prepared.rounds)
            prepared.rounds.append(
                {
                    "game_id": index,
                    "number": number,
                    "entered_at": at,
                    "entered_by": game.entered_by,
                    "version": 1,
                    **round_values(table, result),
                }
            )
            for hand in hand_rows(table, result, totals):
                hand["round_id"] = round_index
                prepared.hands.append(hand)
    return prepared


def insert_games(
    session: Session, prepared: PreparedGames, player_ids: Mapping[object, int] | None = None
) -> list[int]:
    """Insert prepared rows, one statement per table; the new games' ids, in order.

    ``player_ids`` turns the seated players' ids into stored ones (None: they are stored
    ones already). ``prepared`` is left as it was, so a retried transaction can insert
    it again.
    """

    def player(key: object) -> object:
        return key if player_ids is None or key is None else player_ids[key]

    game_ids = insert_with_ids(session, Game.__table__, [dict(row) for row in prepared.games])
    seats = [
        {**row, "game_id": game_ids[row["game_id"]], "player_id": player(row["player_id"])}
        for row in prepared.seats
    ]
    rounds = [
        {
            **row,
            "game_id": game_ids[row["game_id"]],
            "caller_player_id": player(row["caller_player_id"]),
        }
        for row in prepared.rounds
    ]
    if seats:
        session.execute(insert(cast(SqlTable, GamePlayer.__table__)), seats)
    round_ids = insert_with_ids(session, Round.__table__, rounds)
    hands = [
        {**row, "round_id": round_ids[row["round_id"]], "player_id": player(row["player_id"])}
        for row in prepared.hands
    ]
    if hands:
        session.execute(insert(cast(SqlTable, RoundHand.__table__)), hands)
    return game_ids


def write_games(session: Session, batch: Sequence[BulkGame]) -> list[int]:
    """Insert a batch of games, one statement per table (Core tables: rows whose optional
    columns are None stay in one statement); the new games' ids, in order."""
    return insert_games(session, prepare_games(batch))
