"""A group's history as one tidy frame (one row per player per round) for the statistics.

The rows come from a single joined SELECT, read as Arrow record batches
(:mod:`dutch_app.storage.arrow_read`: PostgreSQL's through its ADBC driver, SQLite's
through the engine's own connection).
Each hand's running game total is stored with it when the round is written
(the core's rule, halving included), so loading replays nothing. Each batch is
turned into the frame's column types as it arrives (``_history_frame``): text
with few distinct values (names, status, call type, outcome) becomes categorical
columns, and numbers the narrow integers of ``HISTORY_DTYPES``, so neither the
frame the caches hold nor the load that builds it is large. The SELECT and its count
are built once for each set of filters, with the group and the filters' values as
named parameters, so the reader compiles them once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import date, datetime

import pandas as pd
from sqlalchemy import BindParameter, Integer, Select, bindparam, false, func, select
from sqlalchemy.orm import Session, aliased

from dutch_app.services._access import membership
from dutch_app.services._filters import FILTERS, filter_values, kept_games
from dutch_app.services._history_frame import history_frame
from dutch_app.services._input import check_id
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.storage.arrow_read import Refused, arrow_reader
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Membership,
    Player,
    Round,
    RoundHand,
)


def history_query(group_id: int | BindParameter) -> Select:
    """The SELECT behind the history frame, for one group, in the frame's order."""
    caller = aliased(Player)
    columns = select(
        Game.id.label("game_id"),
        Game.started_at.label("game_started_at"),
        Game.status.label("game_status"),
        Round.id.label("round_id"),
        Round.number.label("round_number"),
        Round.entered_at.label("played_at"),
        RoundHand.player_id,
        Player.name.label("player"),
        RoundHand.seat,
        RoundHand.cards,
        RoundHand.hand_total,
        RoundHand.is_caller,
        caller.name.label("caller"),
        Round.call_type,
        Round.outcome,
        Round.penalty_cards_due,
        Round.penalty_text.label("penalty"),
        RoundHand.penalty_points,
        RoundHand.round_score,
        RoundHand.game_total,
    )
    return (
        _group_hands(columns, group_id)
        .join(Player, Player.id == RoundHand.player_id)
        .outerjoin(caller, caller.id == Round.caller_player_id)
        .order_by(Game.started_at, Game.id, Round.number, RoundHand.seat)
    )


def history_count(group_id: int | BindParameter) -> Select:
    """The number of rows of :func:`history_query`, counted without its two name lookups:
    every hand has its player (a foreign key that cannot be empty) and the caller's name
    is an outer join, so neither changes the count (the reader checks that it holds)."""
    return _group_hands(select(func.count()), group_id)


def _group_hands(query: Select, group_id: int | BindParameter) -> Select:
    """``query`` over the hands of the group's games on show."""
    return (
        query.select_from(RoundHand)
        .join(Round, Round.id == RoundHand.round_id)
        .join(Game, Game.id == Round.game_id)
        .where(Game.group_id == group_id)
    )


def load_history(
    session: Session,
    user_id: int,
    group_id: int,
    date_from: date | datetime | None = None,
    date_to: date | datetime | None = None,
    player_ids: Iterable[int] | None = None,
    status: str | None = None,
) -> pd.DataFrame:
    """The group's rounds as a history frame (see ``dutch_core.stats.HISTORY_DTYPES``).

    Filters keep or drop whole games: the start date range (a date includes
    that whole day), games in which any of ``player_ids`` sat, and the status.
    """
    group_id, user_id = check_id("group_id", group_id), check_id("user_id", user_id)
    values: dict[str, object] = {"group_id": group_id, "member_id": user_id}
    values.update(filter_values(date_from, date_to, status))
    seated = None
    if player_ids is not None:
        membership(session, user_id, group_id)  # before the group's players are looked up
        ids = _group_player_ids(session, group_id, player_ids)
        values.update((f"player_{index}", player_id) for index, player_id in enumerate(ids))
        seated = len(ids)
    query, count = _statements(tuple(name in values for name in FILTERS), seated)
    reader = arrow_reader(session.get_bind().engine)
    try:
        # The membership is the read's gate: checked first, in the read's own snapshot.
        with reader.batches(query, count, values, _MEMBER, _rows_key(values)) as read:
            return history_frame(read)
    except Refused:
        raise NotFound("group", group_id) from None


def _rows_key(values: dict[str, object]) -> tuple[object, ...]:
    """The key under which the reader remembers the rows of a load: the group and the
    filters, not who loads it (any member's load of a group is the same rows)."""
    return (
        "history",
        *sorted((name, value) for name, value in values.items() if name != "member_id"),
    )


_MEMBER = select(Membership.user_id).where(
    Membership.group_id == bindparam("group_id", type_=Integer),
    Membership.user_id == bindparam("member_id", type_=Integer),
)
"""A row when the loading user is a member of the group: the gate of every load."""


@functools.lru_cache(maxsize=64)
def _statements(filters: tuple[bool, ...], seated: int | None) -> tuple[Select, Select]:
    """The history SELECT and its count for one set of filters (which of ``FILTERS`` are
    given, and how many players a game must have one of: None for no such filter), with
    every value a named parameter: built once, so the reader compiles each only once."""
    shape = {name: None for name, given in zip(FILTERS, filters, strict=True) if given}
    group = bindparam("group_id", type_=Integer)

    def kept(query: Select) -> Select:
        query = kept_games(query, shape, bound=True)
        if seated is None:
            return query
        if seated == 0:  # a game with one of no players: none
            return query.where(false())
        ids = [bindparam(f"player_{index}", type_=Integer) for index in range(seated)]
        return query.where(
            Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.player_id.in_(ids)))
        )

    return kept(history_query(group)), kept(history_count(group))


def _group_player_ids(session: Session, group_id: int, player_ids: object) -> list[int]:
    if isinstance(player_ids, (str, bytes)) or not isinstance(player_ids, Iterable):
        message = f"player_ids must be a list of ids, not {player_ids!r}."
        raise ValidationError("player_ids", message)
    ids = [check_id("player_ids", player_id) for player_id in player_ids]
    known = set(
        session.scalars(
            select(Player.id).where(
                Player.group_id == group_id, Player.id.in_(ids), Player.merged_into_id.is_(None)
            )
        )
    )
    for player_id in ids:
        if player_id not in known:
            raise NotFound("player", player_id)
    return ids
