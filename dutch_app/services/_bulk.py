"""Writing many scored games at once: multi-row inserts, a few statements per batch."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from dutch_app.services._scoring import Table, hand_rows, round_values
from dutch_app.storage.models import Game, GamePlayer, Player, Round, RoundHand


def _insert_with_ids(session: Session, table, rows: list[dict]) -> list[int]:
    """Insert rows in bulk; their new ids, in order. SQLite cannot promise the order of
    a multi-row RETURNING, so there the ids are handed out under the write lock we hold."""
    if session.get_bind().dialect.name != "sqlite":
        returning = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        return list(session.scalars(returning, rows))
    first = (session.scalar(select(func.max(table.c.id))) or 0) + 1
    ids = list(range(first, first + len(rows)))
    session.execute(insert(table), [{**row, "id": id_} for row, id_ in zip(rows, ids, strict=True)])
    return ids


def write_games(session: Session, batch: list[tuple[dict, list[Player], list]]) -> None:
    """Insert a batch of games with multi-row inserts (Core tables: rows whose
    optional columns are None stay in one statement)."""
    games, rounds, seats, hands = (
        Game.__table__,
        Round.__table__,
        GamePlayer.__table__,
        RoundHand.__table__,
    )
    game_ids = _insert_with_ids(session, games, [game for game, _, _ in batch])
    seat_rows, round_rows, hand_lists = [], [], []
    for game_id, (game, seated, results) in zip(game_ids, batch, strict=True):
        seat_rows += [
            {"game_id": game_id, "seat": seat, "player_id": player.id}
            for seat, player in enumerate(seated)
        ]
        table = Table(tuple(seated))
        for number, result in enumerate(results, start=1):
            entered_at = game["started_at"] + timedelta(minutes=4 * number)
            values = {"game_id": game_id, "number": number, "entered_at": entered_at}
            round_rows.append({**values, "version": 1, **round_values(table, result)})
            hand_lists.append(hand_rows(table, result))
    session.execute(insert(seats), seat_rows)
    round_ids = _insert_with_ids(session, rounds, round_rows)
    session.execute(
        insert(hands),
        [
            {"round_id": round_id, **hand}
            for round_id, hand_list in zip(round_ids, hand_lists, strict=True)
            for hand in hand_list
        ],
    )
