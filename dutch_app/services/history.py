"""A group's history as one tidy frame (one row per player per round) for the statistics.

The rows come from a single joined SELECT read by pandas in one go; everything
else (caller's hand total, running game totals) is computed column-wise. Only
games whose house rules halve a total that lands exactly on the limit have their
totals replayed row by row, since halving depends on the order of rounds; that
replay reads the frame, not the database, so loading costs the same few
statements whatever the rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime

import numpy as np
import pandas as pd
from sqlalchemy import Select, select
from sqlalchemy.orm import Session, aliased

from dutch_app.services._access import membership
from dutch_app.services._filters import started_between, with_status
from dutch_app.services._input import check_id
from dutch_app.services._scoring import halved_running_totals, halving_limit
from dutch_app.services._transaction import reading
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.storage.models import Game, GamePlayer, Player, Round, RoundHand
from dutch_core.stats import HISTORY_COLUMNS, HISTORY_DTYPES, empty_history


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
        )
        .select_from(RoundHand)
        .join(Round, Round.id == RoundHand.round_id)
        .join(Game, Game.id == Round.game_id)
        .join(Player, Player.id == RoundHand.player_id)
        .outerjoin(caller, caller.id == Round.caller_player_id)
        .where(Game.group_id == group_id)
        .order_by(Game.started_at, Game.id, Round.number, RoundHand.seat)
    )


@reading
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
    frame = pd.read_sql(query, session.connection())
    if frame.empty:
        return empty_history()
    frame = _derive(frame)
    _halve_where_the_rules_say(session, group_id, frame)
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


def _utc(column: pd.Series) -> pd.Series:
    moments = pd.to_datetime(column)
    if moments.dt.tz is None:
        moments = moments.dt.tz_localize("UTC")
    return moments.dt.tz_convert("UTC").astype("datetime64[ns, UTC]")


def _derive(frame: pd.DataFrame) -> pd.DataFrame:
    frame["game_started_at"] = _utc(frame["game_started_at"])
    frame["played_at"] = _utc(frame["played_at"])
    is_caller = frame["is_caller"].astype(bool)
    frame["is_caller"] = is_caller
    caller_total = frame["hand_total"].where(is_caller)
    frame["caller_hand_total"] = caller_total.groupby(frame["round_id"]).transform("max")
    frame["penalty_cards_due"] = np.where(is_caller, frame["penalty_cards_due"], 0)
    frame["penalty"] = frame["penalty"].where(is_caller)
    frame["game_total"] = frame.groupby(["game_id", "player_id"], sort=False)[
        "round_score"
    ].cumsum()
    return frame.loc[:, list(HISTORY_COLUMNS)].astype(HISTORY_DTYPES)


def _halve_where_the_rules_say(session: Session, group_id: int, frame: pd.DataFrame) -> None:
    """Redo the running totals of games whose house rules halve a total that lands exactly
    on the limit (``dutch_core.Game.running_totals``): the halving depends on the order of
    rounds, so it is replayed row by row, over those games' rows of the frame only.
    """
    limits = {
        game_id: limit
        for game_id, settings in session.execute(
            select(Game.id, Game.rules).where(Game.group_id == group_id)
        )
        if (limit := halving_limit(settings)) is not None
    }
    rows = frame["game_id"].isin(list(limits)).to_numpy(dtype=bool)
    if not rows.any():
        return
    part = frame.loc[rows, ["game_id", "player_id", "round_score"]]
    # Rows of a game are in round order, then seat order: each player's rounds in turn.
    scores = zip(
        part["game_id"].tolist(),
        part["player_id"].tolist(),
        part["round_score"].tolist(),
        strict=True,
    )
    running = halved_running_totals(scores, limits)
    frame.loc[rows, "game_total"] = np.asarray(running, dtype="int64")
