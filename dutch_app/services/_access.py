"""Membership checks: every lookup goes through the acting user's memberships.

A group, player, game or round the user cannot see raises the same
:class:`NotFound` as one that does not exist, so ids reveal nothing. Lookups of
a game can lock its row (``SELECT ... FOR UPDATE`` on PostgreSQL) so that
writers of one game take turns.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, select, update
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services._input import check_id
from dutch_app.services.errors import Forbidden, NotFound
from dutch_app.services.views import Role
from dutch_app.storage.models import Game, Group, Membership, Player, Round, User


def acting_user(session: Session, user_id: object) -> User:
    """The signed-in user, who must exist."""
    user = session.get(User, check_id("user_id", user_id))
    if user is None:
        raise NotFound("user", user_id)
    return user


def membership(session: Session, user_id: object, group_id: object) -> Membership:
    """The user's membership of the group (NotFound for a stranger or a missing group)."""
    found = session.get(Membership, (check_id("group_id", group_id), check_id("user_id", user_id)))
    if found is None:
        raise NotFound("group", group_id)
    return found


def owner_membership(session: Session, user_id: object, group_id: object) -> Membership:
    """The membership of the group's owner; Forbidden for any other member."""
    found = membership(session, user_id, group_id)
    if found.role != Role.OWNER:
        raise Forbidden(_("Only the group's owner can do that."))
    return found


def member_of(user_id: int, group: Any) -> Select[int]:
    """The user's membership of ``group`` (an id, or a group id column), to ask ``.exists()``."""
    return select(Membership.group_id).where(
        Membership.group_id == group, Membership.user_id == user_id
    )


def game_for(session: Session, user_id: object, game_id: object, lock: bool = False) -> Game:
    """A game of one of the user's groups; ``lock`` holds its row until the transaction ends."""
    user_id = check_id("user_id", user_id)
    query = select(Game).where(
        Game.id == check_id("game_id", game_id),
        member_of(user_id, Game.group_id).exists(),
    )
    if lock:
        query = query.with_for_update(of=Game)
    game = session.scalars(query).one_or_none()
    if game is None:
        raise NotFound("game", game_id)
    return game


def round_for(session: Session, user_id: object, round_id: object) -> Round:
    """A round of a game of one of the user's groups."""
    user_id = check_id("user_id", user_id)
    query = (
        select(Round)
        .join(Game, Game.id == Round.game_id)
        .where(
            Round.id == check_id("round_id", round_id),
            member_of(user_id, Game.group_id).exists(),
        )
    )
    found = session.scalars(query).one_or_none()
    if found is None:
        raise NotFound("round", round_id)
    return found


def player_for(session: Session, user_id: object, player_id: object, field: str = "player_id"):
    """A (not merged) player of one of the user's groups."""
    user_id = check_id("user_id", user_id)
    query = select(Player).where(
        Player.id == check_id(field, player_id),
        Player.merged_into_id.is_(None),
        member_of(user_id, Player.group_id).exists(),
    )
    found = session.scalars(query).one_or_none()
    if found is None:
        raise NotFound("player", player_id)
    return found


def bump_group(session: Session, group_id: int) -> int:
    """Count one more change to the group's data (read by UI caches); the new data version."""
    return session.execute(
        update(Group)
        .where(Group.id == group_id)
        .values(data_version=Group.data_version + 1)
        .returning(Group.data_version)
    ).scalar_one()
