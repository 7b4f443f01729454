"""Filters of a group's games, the same for the list of games and the history frame."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Select

from dutch_app.services._input import moment
from dutch_app.services.errors import ValidationError
from dutch_app.storage.models import Game
from dutch_core.game import GameStatus

STATUSES = tuple(GameStatus)


def started_between(
    query: Select, date_from: date | datetime | None, date_to: date | datetime | None
) -> Select:
    """``query`` kept to games started in the range (a date includes that whole day)."""
    if (start := moment("date_from", date_from)) is not None:
        query = query.where(Game.started_at >= start)
    if (stop := moment("date_to", date_to, upper=True)) is not None:
        query = query.where(Game.started_at < stop)
    return query


def with_status(query: Select, status: str | None) -> Select:
    """``query`` kept to games with the status, if one is given."""
    if status is None:
        return query
    if status not in STATUSES:
        raise ValidationError("status", f"status must be 'active' or 'ended', not {status!r}.")
    return query.where(Game.status == status)
