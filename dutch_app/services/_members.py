"""Members: a new group's owner, and each member as a player linked to their account.

Someone who creates or joins a group gets a player named by their display name. When
that name belongs to a player no account is linked to (a guest who has played before),
nothing is made or linked: the Group page asks the member whether that player is them.
When it belongs to a player linked to someone else, the new player is "Name 2" (or 3, …).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.config import limits
from dutch_app.services._caps import count_rows
from dutch_app.services._input import clean_name, name_key, new_invite_code
from dutch_app.services.errors import ValidationError
from dutch_app.services.views import Role
from dutch_app.storage.models import Group, Membership, Player, User

PLAYER_NAME_LENGTH = 60


def new_group(
    session: Session, user_id: int, name: str, **columns: Any
) -> tuple[Group, Membership]:
    """A new group with a fresh invite code, and ``user_id``'s membership as its owner."""
    group = Group(name=name, invite_code=new_invite_code(), created_by=user_id, **columns)
    session.add(group)
    session.flush()
    mine = Membership(group_id=group.id, user_id=user_id, role=Role.OWNER)
    session.add(mine)
    session.flush()
    return group, mine


def numbered_name(wanted: str, taken: set[str], longest: int = PLAYER_NAME_LENGTH) -> str:
    """``wanted``, or the first of ``wanted 2``, ``wanted 3``, … whose key is not ``taken``.

    >>> numbered_name("Sam", {"sam", "sam 2"})
    'Sam 3'
    >>> numbered_name("Olivia", set())
    'Olivia'
    """
    name, number = wanted, 1
    while name_key(name) in taken:
        number += 1
        suffix = f" {number}"
        name = wanted[: longest - len(suffix)].rstrip() + suffix
    return name


def wanted_name(display_name: str) -> str:
    """A display name as a player's name: tidied and cut to a player name's length."""
    tidy = " ".join(display_name.split())[:PLAYER_NAME_LENGTH].rstrip()
    try:
        return clean_name("name", tidy, PLAYER_NAME_LENGTH)
    except ValidationError:
        return "Player"


def taken_names(session: Session, group_id: int) -> dict[str, Player]:
    """The group's players (not merged) by name key."""
    found = session.scalars(
        select(Player).where(Player.group_id == group_id, Player.merged_into_id.is_(None))
    )
    return {player.name_key: player for player in found if player.name_key is not None}


def linked_player(session: Session, group_id: int, user_id: int) -> Player | None:
    """The member's own player in the group, if any."""
    return session.scalars(
        select(Player).where(Player.group_id == group_id, Player.user_id == user_id)
    ).one_or_none()


def unlinked_match(session: Session, group_id: int, user: User) -> Player | None:
    """A player of the group with no account whose name is the person's display name."""
    found = taken_names(session, group_id).get(name_key(wanted_name(user.display_name)))
    return found if found is not None and found.user_id is None else None


def new_player_name(session: Session, group_id: int, user: User) -> str:
    """The name a new player of the person's would get in the group."""
    return numbered_name(wanted_name(user.display_name), set(taken_names(session, group_id)))


def room_for_a_player(session: Session, group_id: int) -> bool:
    """Whether the group is below its cap on players (merged ones count)."""
    held = count_rows(session, Player, Player.group_id == group_id)
    return held < limits().max_players_per_group


def add_member_player(session: Session, group_id: int, user: User) -> Player:
    """A new player for the member, linked to them, with the group's naming rule."""
    name = new_player_name(session, group_id, user)
    player = Player(group_id=group_id, name=name, name_key=name_key(name), user_id=user.id)
    session.add(player)
    session.flush()
    return player


def seat_member(session: Session, group_id: int, user: User) -> Player | None:
    """Make the member a player of the group as they arrive (None when they are asked
    first, because a player of their name has no account, or the group is full)."""
    mine = linked_player(session, group_id, user.id)
    if mine is not None:
        return mine
    if unlinked_match(session, group_id, user) is not None:
        return None
    if not room_for_a_player(session, group_id):
        return None
    return add_member_player(session, group_id, user)
