"""Stored rows to views: groups, rounds and whole games."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.services._input import as_utc
from dutch_app.services._stored_games import (
    Table,
    latest_totals,
    named_totals,
    rounds_of,
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
from dutch_app.storage.models import Game, Group, Membership, Player, Round, RoundHand, User
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


def round_view(table: Table, stored: Round, hands: list[RoundHand]) -> RoundView:
    """The view of a stored round."""
    names = {player.id: player.name for player in table.players}
    return RoundView(
        id=stored.id,
        game_id=stored.game_id,
        number=stored.number,
        caller_id=stored.caller_player_id,
        caller=table.name_of(stored.caller_player_id),
        call_type=call_type_of(stored.call_type),
        outcome=None if stored.outcome is None else Outcome(stored.outcome),
        penalty_text=stored.penalty_text,
        penalty_cards_due=stored.penalty_cards_due,
        entered_by=stored.entered_by,
        entered_at=as_utc(stored.entered_at),
        edited_at=as_utc(stored.edited_at),
        version=stored.version,
        hands=tuple(
            HandView(
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
            for hand in sorted(hands, key=lambda hand: hand.seat)
        ),
    )


def game_view(session: Session, game: Game, last_rounds: int | None = None) -> GameView:
    """The view of a stored game with its rounds, standings and winners.

    ``last_rounds`` keeps only that many of the latest rounds (all of them when None);
    the totals, standings and end are the whole game's either way. The standings rank
    the totals stored with the last round and the game is over when the end condition
    holds after it; nothing is scored again.
    """
    table = table_of(session, game.id)
    rules = rules_of(game)
    played, latest = latest_totals(session, game.id)
    first = 1 if last_rounds is None else max(1, played - last_rounds + 1)
    stored_rounds = rounds_of(session, game.id, first) if played else []
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
        rounds=tuple(round_view(table, stored, hands) for stored, hands in stored_rounds),
        rounds_played=played,
        totals=totals,
        standings=tuple(rank_players(table.names, totals)),
        is_over=end_reached(rules, played, totals),
        winners=lowest_totals(totals),
    )
