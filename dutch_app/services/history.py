"""A group's history as one tidy frame (one row per player per round) for the statistics.

The rows come from a single joined SELECT, read as Arrow record batches
(:mod:`dutch_app.storage.arrow_read`) and turned into the frame's column types
(``_history_frame``). Each hand's running game total is stored with it when the round is
written (the core's rule, halving included), so loading replays nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

import pandas as pd
from sqlalchemy import Select, case, select
from sqlalchemy.orm import Session, aliased

from dutch_app.services._access import member_of, membership
from dutch_app.services._filters import filter_values, kept_games
from dutch_app.services._history_frame import history_frame
from dutch_app.services._input import check_id
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.storage.arrow_read import record_batches
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Player,
    Round,
    RoundHand,
)


def history_query(group_id: int) -> Select:
    """The SELECT behind the history frame, for one group, in the frame's order: every
    hand of the group's games on show, with the caller's name and hand total on each hand
    of a round, and the round's penalty on the caller's hand only."""
    caller = aliased(Player)
    caller_hand = aliased(RoundHand)
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
            caller_hand.hand_total.label("caller_hand_total"),
            Round.call_type,
            Round.outcome,
            case((RoundHand.is_caller, Round.penalty_cards_due), else_=0).label(
                "penalty_cards_due"
            ),
            case((RoundHand.is_caller, Round.penalty_text)).label("penalty"),
            RoundHand.penalty_points,
            RoundHand.round_score,
            RoundHand.game_total,
        )
        .select_from(RoundHand)
        .join(Round, Round.id == RoundHand.round_id)
        .join(Game, Game.id == Round.game_id)
        .join(Player, Player.id == RoundHand.player_id)
        .outerjoin(caller, caller.id == Round.caller_player_id)
        .outerjoin(caller_hand, (caller_hand.round_id == Round.id) & caller_hand.is_caller)
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
    group_id, user_id = check_id("group_id", group_id), check_id("user_id", user_id)
    values = filter_values(date_from, date_to, status)
    # The membership is checked in the read itself: a stranger's read finds no row.
    member = member_of(user_id, group_id).exists()
    query = kept_games(history_query(group_id), values).where(member)
    if player_ids is not None:
        membership(session, user_id, group_id)  # before the group's players are looked up
        ids = _group_player_ids(session, group_id, player_ids)
        seated = select(GamePlayer.game_id).where(GamePlayer.player_id.in_(ids))
        query = query.where(Game.id.in_(seated))
    frame = history_frame(record_batches(session, query))
    if frame.empty:  # no rounds, or a stranger's read
        membership(session, user_id, group_id)
    return frame


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
