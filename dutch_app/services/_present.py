"""Stored rows to views: groups, rounds and whole games."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.services._stored_games import (
    Table,
    latest_totals,
    named_totals,
    rules_of,
    table_of,
)
from dutch_app.services.views import (
    GameView,
    GroupView,
    HandView,
    MemberView,
    PlayerView,
    Role,
    RoundView,
)
from dutch_app.storage.models import Game, Group, Membership, Player, Round, RoundHand, User, as_utc
from dutch_core import end_reached, lowest_totals, rank_players
from dutch_core.game import GameStatus
from dutch_core.round_input import call_type_of
from dutch_core.scoring import Outcome


def player_view(player: Player) -> PlayerView:
    """The view of a player row."""
    return PlayerView(id=player.id, name=player.name, user_id=player.user_id)


def group_view(session: Session, group: Group, mine: Membership) -> GroupView:
    """The view of a group for the member holding ``mine``."""
    return group_views(session, [(group, mine)])[0]


def group_views(session: Session, rows: list[tuple[Group, Membership]]) -> list[GroupView]:
    """The views of several groups, each for the member holding its membership.

    The members of all the groups are read in one query.
    """
    members: dict[int, list[MemberView]] = {group.id: [] for group, _ in rows}
    if members:
        found = session.execute(
            select(Membership.group_id, Membership.user_id, User.display_name, Membership.role)
            .join(User, User.id == Membership.user_id)
            .where(Membership.group_id.in_(list(members)))
            .order_by(Membership.group_id, Membership.joined_at, Membership.user_id)
        )
        for group_id, user_id, display_name, role in found:
            members[group_id].append(MemberView(user_id, display_name, Role(role)))
    return [
        GroupView(
            id=group.id,
            name=group.name,
            role=Role(mine.role),
            invite_code=group.invite_code if mine.role == Role.OWNER else None,
            members=tuple(members[group.id]),
            data_version=group.data_version,
            cache_key=group.cache_key,
            is_demo=bool(group.is_demo),
        )
        for group, mine in rows
    ]


class StoredRound(Protocol):
    """What a round view is made of: a ``Round`` row, or the columns of one."""

    id: int
    game_id: int
    number: int
    caller_player_id: int | None
    call_type: str | None
    outcome: str | None
    penalty_text: str | None
    penalty_cards_due: int
    entered_by: int | None
    entered_at: datetime
    edited_at: datetime | None
    version: int


class StoredHand(Protocol):
    """What a hand's view is made of: a ``RoundHand`` row, or the columns of one."""

    player_id: int
    seat: int
    cards: str | None
    hand_total: int
    penalty_points: int
    round_score: int
    is_caller: bool
    game_total: int


_ROUND_COLUMNS = (
    Round.id,
    Round.game_id,
    Round.number,
    Round.caller_player_id,
    Round.call_type,
    Round.outcome,
    Round.penalty_text,
    Round.penalty_cards_due,
    Round.entered_by,
    Round.entered_at,
    Round.edited_at,
    Round.version,
)
_HAND_COLUMNS = (
    RoundHand.round_id,
    RoundHand.player_id,
    RoundHand.seat,
    RoundHand.cards,
    RoundHand.hand_total,
    RoundHand.penalty_points,
    RoundHand.round_score,
    RoundHand.is_caller,
    RoundHand.game_total,
)


def round_views(
    session: Session,
    table: Table,
    game_id: int,
    last: int | None = None,
    through: int | None = None,
) -> list[RoundView]:
    """The views of a game's rounds in order: all of them, or the ``last`` latest (up to
    round ``through`` when given). Read as plain columns in two queries (as
    ``_stored_games.rounds_of`` reads them, but without an ORM object for each round and
    hand); a window of rounds is found from its newest down the game's (game, number)
    key, so it costs the same in round 10 and round 20,000."""
    query = select(*_ROUND_COLUMNS).where(Round.game_id == game_id)
    if through is not None:
        query = query.where(Round.number <= through)
    if last is None:
        rounds = session.execute(query.order_by(Round.number)).all()
    else:
        newest = session.execute(query.order_by(Round.number.desc()).limit(last)).all()
        rounds = newest[::-1]
    if not rounds:
        return []
    hands = select(*_HAND_COLUMNS).order_by(RoundHand.round_id, RoundHand.seat)
    if last is not None:  # a window of the latest rounds: their hands by key
        hands = hands.where(RoundHand.round_id.in_([stored.id for stored in rounds]))
    else:
        hands = hands.join(Round, Round.id == RoundHand.round_id).where(Round.game_id == game_id)
    names = {player.id: player.name for player in table.players}
    by_round: dict[int, list[HandView]] = {stored.id: [] for stored in rounds}
    for row in session.execute(hands):  # positional, in _HAND_COLUMNS' order: cheaper
        round_id, player, *line = row
        by_round[round_id].append(HandView(player, names[player], *line))  # type: ignore[arg-type]
    return [_round_view(names, stored, by_round[stored.id]) for stored in rounds]


def round_view(table: Table, stored: StoredRound, hands: Sequence[StoredHand]) -> RoundView:
    """The view of a stored round."""
    names = {player.id: player.name for player in table.players}
    in_seats = sorted(hands, key=lambda hand: hand.seat)
    return _round_view(names, stored, [_hand_view(names, hand) for hand in in_seats])


def _round_view(names: dict[int, str], stored: StoredRound, hands: list[HandView]) -> RoundView:
    caller = stored.caller_player_id
    return RoundView(
        id=stored.id,
        game_id=stored.game_id,
        number=stored.number,
        caller_id=caller,
        caller=None if caller is None else names.get(caller),
        call_type=call_type_of(stored.call_type),
        outcome=None if stored.outcome is None else Outcome(stored.outcome),
        penalty_text=stored.penalty_text,
        penalty_cards_due=stored.penalty_cards_due,
        entered_by=stored.entered_by,
        entered_at=as_utc(stored.entered_at),
        edited_at=as_utc(stored.edited_at),
        version=stored.version,
        hands=tuple(hands),
    )


def _hand_view(names: dict[int, str], hand: StoredHand) -> HandView:
    return HandView(
        player_id=hand.player_id,
        player=names[hand.player_id],
        seat=hand.seat,
        cards=hand.cards,
        hand_total=hand.hand_total,
        penalty_points=hand.penalty_points,
        round_score=hand.round_score,
        is_caller=hand.is_caller,
        game_total=hand.game_total,
    )


def game_view(
    session: Session, game: Game, last_rounds: int | None = None, through: int | None = None
) -> GameView:
    """The view of a stored game with its rounds, standings and winners.

    ``last_rounds`` keeps only that many of the latest rounds (all of them when None), and
    ``through`` ends them at that round; the totals, standings and end are the whole
    game's either way. The standings rank the totals stored with the last round and the
    game is over when the end condition holds after it; nothing is scored again.
    """
    table = table_of(session, game.id)
    rules = rules_of(game)
    rounds = round_views(session, table, game.id, last_rounds, through)
    if through is None:
        # The last round read is the game's last: its number is the rounds played (numbers
        # are gapless from 1) and its hands hold the game totals after it.
        played = rounds[-1].number if rounds else 0
        latest = {hand.player_id: hand.game_total for hand in rounds[-1].hands} if rounds else {}
    else:
        played, latest = latest_totals(session, game.id)
    totals = named_totals(table, latest)
    return GameView(
        id=game.id,
        group_id=game.group_id,
        players=tuple(player_view(p) for p in table.players),
        rules=rules,
        status=GameStatus(game.status),
        started_at=as_utc(game.started_at),
        ended_at=as_utc(game.ended_at),
        notes=game.notes,
        version=game.version,
        rounds=tuple(rounds),
        rounds_played=played,
        totals=totals,
        standings=tuple(rank_players(table.names, totals)),
        is_over=end_reached(rules, played, totals),
        winners=lowest_totals(totals),
    )
