"""Filters of a group's games, the same for the list of games and the history frame.

The values are checked once (:func:`filter_values`); a query is then kept to the games
they match (:func:`kept_games`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

from sqlalchemy import Select

from dutch_app.services._input import moment
from dutch_app.services.errors import ValidationError
from dutch_app.storage.models import Game
from dutch_core.game import GameStatus

STATUSES = tuple(GameStatus)


def filter_values(
    date_from: date | datetime | None, date_to: date | datetime | None, status: str | None
) -> dict[str, object]:
    """The filters given, checked: the start range as moments in UTC (a date includes that
    whole day) and the status; filters not given are left out."""
    values: dict[str, object] = {}
    if (start := moment("date_from", date_from)) is not None:
        values["date_from"] = start
    if (stop := moment("date_to", date_to, upper=True)) is not None:
        values["date_to"] = stop
    if status is not None:
        if status not in STATUSES:
            message = f"status must be 'active' or 'ended', not {status!r}."
            raise ValidationError("status", message)
        values["status"] = str(GameStatus(status))
    return values


def kept_games(query: Select, values: Mapping[str, object]) -> Select:
    """``query`` kept to the games that the checked ``values`` (see :func:`filter_values`)
    match."""
    if "date_from" in values:
        query = query.where(Game.started_at >= values["date_from"])
    if "date_to" in values:
        query = query.where(Game.started_at < values["date_to"])
    if "status" in values:
        query = query.where(Game.status == values["status"])
    return query
