"""Exporting a group's history as CSV files (the formats are in docs/csv.md)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.csv_io.export import export_games_csv, export_rounds_csv
from dutch_app.services._access import membership
from dutch_app.services.history import load_history
from dutch_app.storage.models import Game
from dutch_core import HouseRules


def game_rules(session: Session, user_id: int, group_id: int) -> dict[int, HouseRules]:
    """The house rules of every game of the group, by game id."""
    membership(session, user_id, group_id)
    stored = session.execute(select(Game.id, Game.rules).where(Game.group_id == group_id))
    return {game_id: HouseRules.from_dict(rules) for game_id, rules in stored}


def export_rounds(
    session: Session,
    user_id: int,
    group_id: int,
    date_from: date | datetime | None = None,
    date_to: date | datetime | None = None,
    player_ids: Iterable[int] | None = None,
) -> bytes:
    """The rounds file of the group's games (filtered like ``load_history``), rules included."""
    history = load_history(session, user_id, group_id, date_from, date_to, player_ids)
    return export_rounds_csv(history, game_rules(session, user_id, group_id))


def export_games(
    session: Session,
    user_id: int,
    group_id: int,
    date_from: date | datetime | None = None,
    date_to: date | datetime | None = None,
    player_ids: Iterable[int] | None = None,
) -> bytes:
    """The games file of the group's games (filtered like ``load_history``)."""
    return export_games_csv(
        load_history(session, user_id, group_id, date_from, date_to, player_ids)
    )
