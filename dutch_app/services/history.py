"""A group's history as one tidy frame (one row per player per round) for the statistics.

The rows come from a single joined SELECT, read as Arrow columns through an ADBC
driver (:mod:`dutch_app.storage.arrow_read`): no Python object is made per cell.
Each hand's running game total is stored with it when the round is written
(the core's rule, halving included), so loading replays nothing; the caller's
hand total is spread over the rows of each round on numpy arrays. Text with few
distinct values (names, status, call type, outcome) becomes categorical columns, and
numbers the narrow integers of ``HISTORY_DTYPES``, so the frame the caches hold is small.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from sqlalchemy import Select, select
from sqlalchemy.orm import Session, aliased

from dutch_app.services._access import membership
from dutch_app.services._filters import started_between, with_status
from dutch_app.services._input import check_id
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.storage.arrow_read import arrow_reader
from dutch_app.storage.models import Game, GamePlayer, Player, Round, RoundHand
from dutch_core.stats import HISTORY_DTYPES, empty_history


def history_query(group_id: int) -> Select:
    """The SELECT behind the history frame, for one group, in the frame's order."""
    caller = aliased(Player)
    return (
        select(
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
        .select_from(RoundHand)
        .join(Round, Round.id == RoundHand.round_id)
        .join(Game, Game.id == Round.game_id)
        .join(Player, Player.id == RoundHand.player_id)
        .outerjoin(caller, caller.id == Round.caller_player_id)
        .where(Game.group_id == group_id)
        .order_by(Game.started_at, Game.id, Round.number, RoundHand.seat)
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
    membership(session, user_id, group_id)
    query = with_status(started_between(history_query(group_id), date_from, date_to), status)
    if player_ids is not None:
        ids = _group_player_ids(session, group_id, player_ids)
        query = query.where(
            Game.id.in_(select(GamePlayer.game_id).where(GamePlayer.player_id.in_(ids)))
        )
    table = arrow_reader(session.get_bind().engine).read(query)
    if table.num_rows == 0:
        return empty_history()
    return _derive(table)


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


_TIMES = ("game_started_at", "played_at")


def _utc_times(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Moments in UTC, nanoseconds: PostgreSQL sends them typed; SQLite keeps them as text
    (``2026-01-31 20:15:00.000000``, written in UTC), parsed once per distinct value."""
    if pa.types.is_timestamp(column.type):
        moments = column if column.type.tz else pc.assume_timezone(column, "UTC")
        return moments.cast(pa.timestamp("ns", tz="UTC"))
    encoded = pc.dictionary_encode(column).combine_chunks()
    parsed = pc.assume_timezone(encoded.dictionary.cast(pa.timestamp("ns")), "UTC")
    return pa.chunked_array([parsed.take(encoded.indices)])


def _text(column: pa.ChunkedArray) -> pa.ChunkedArray:
    # A text column that is NULL in every row comes back untyped from SQLite.
    return column if pa.types.is_string(column.type) else column.cast(pa.string())


def _category(column: pa.ChunkedArray) -> pd.Categorical:
    """Text with few distinct values as a categorical, its categories sorted (as pandas's
    ``astype("category")`` sorts them); missing text stays missing."""
    text = _text(column).combine_chunks()
    distinct = pc.unique(text).drop_null()
    categories = distinct.take(pc.sort_indices(distinct))
    codes = pc.index_in(text, value_set=categories).fill_null(-1).to_numpy()
    return pd.Categorical.from_codes(codes, pd.Index(categories.to_pylist(), dtype="str"))


def _caller_totals(round_ids: np.ndarray, is_caller: np.ndarray, hand_totals: np.ndarray):
    """The caller's hand total on every row of their round (missing where nobody called).
    Rows of a round are adjacent: the SELECT orders by game, round and seat."""
    starts = np.flatnonzero(np.r_[True, round_ids[1:] != round_ids[:-1]])
    caller_rows = np.flatnonzero(is_caller)
    of_round = np.searchsorted(starts, caller_rows, side="right") - 1
    per_round = np.zeros(len(starts), dtype=hand_totals.dtype)
    per_round[of_round] = hand_totals[caller_rows]
    has_caller = np.zeros(len(starts), dtype=bool)
    has_caller[of_round] = True
    sizes = np.diff(np.r_[starts, len(round_ids)])
    return pd.arrays.IntegerArray(np.repeat(per_round, sizes), ~np.repeat(has_caller, sizes))


def _derive(table: pa.Table) -> pd.DataFrame:
    """The history frame of the SELECT's Arrow table: times in UTC, and the caller's hand
    total and penalty on every row of a round."""
    is_caller = table.column("is_caller").to_numpy().astype(bool)
    columns: dict[str, object] = {}
    for name, dtype in HISTORY_DTYPES.items():
        if name == "caller_hand_total":
            columns[name] = _caller_totals(
                table.column("round_id").to_numpy(),
                is_caller,
                table.column("hand_total").to_numpy().astype("int32", copy=False),
            )
            continue
        column = table.column(name)
        if name == "penalty":  # the penalty belongs to the caller's row only
            column = pc.if_else(is_caller, _text(column), None)
        if name in _TIMES:
            columns[name] = pd.array(_utc_times(column).to_pandas())
        elif dtype == "category":
            columns[name] = _category(column)
        elif dtype == "string":
            columns[name] = pd.array(_text(column), dtype="string")
        elif dtype == "bool":
            columns[name] = is_caller
        else:
            values = column.to_numpy().astype(dtype, copy=False)
            if name == "penalty_cards_due":
                values = np.where(is_caller, values, 0)
            columns[name] = values
    return pd.DataFrame(columns, copy=False)
