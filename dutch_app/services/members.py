"""A member's own player in each group: the offer on the Group page, and following a new
display name.

Members become players as they create or join a group (`dutch_app.services._members`).
A member without a player in a group (a guest of their name had no account, the group
was full, or they were unlinked) is offered one here: link the guest of their name, or
add a new player of their own. Nothing is ever linked without their say.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services import _members
from dutch_app.services._access import acting_user, bump_group, membership, player_for
from dutch_app.services._caps import check_room_for_players
from dutch_app.services._input import name_key
from dutch_app.services._present import player_view
from dutch_app.services.errors import Conflict, ValidationError
from dutch_app.services.unit_of_work import writes
from dutch_app.services.views import PlayerOffer, PlayerRename, PlayerView
from dutch_app.storage.models import Group, Membership, Player


def my_player_offer(session: Session, user_id: int, group_id: int) -> PlayerOffer | None:
    """What to offer the member who has no player in the group (None when they have one)."""
    membership(session, user_id, group_id)
    if _members.linked_player(session, group_id, user_id) is not None:
        return None
    me = acting_user(session, user_id)
    match = _members.unlinked_match(session, group_id, me)
    return PlayerOffer(
        match=None if match is None else player_view(match),
        new_name=_members.new_player_name(session, group_id, me),
    )


def _check_no_player_yet(session: Session, group_id: int, user_id: int) -> None:
    mine = _members.linked_player(session, group_id, user_id)
    if mine is not None:
        raise Conflict(_("You already play as {name!r} in this group.").format(name=mine.name))


@writes
def claim_player(session: Session, user_id: int, player_id: int) -> PlayerView:
    """Link a player nobody's account is linked to to the member's own account ("that's me")."""
    player = player_for(session, user_id, player_id)
    _check_no_player_yet(session, player.group_id, user_id)
    if player.user_id is not None:
        raise ValidationError(
            "player_id",
            _("{name!r} is already another member's player.").format(name=player.name),
        )
    player.user_id = user_id
    session.flush()
    bump_group(session, player.group_id)
    return player_view(player)


@writes
def add_my_player(session: Session, user_id: int, group_id: int) -> PlayerView:
    """Add a player for the member, named by their display name ("Name 2" when taken)."""
    membership(session, user_id, group_id)
    _check_no_player_yet(session, group_id, user_id)
    check_room_for_players(session, group_id)
    player = _members.add_member_player(session, group_id, acting_user(session, user_id))
    bump_group(session, group_id)
    return player_view(player)


def players_to_rename(session: Session, user_id: int) -> list[PlayerRename]:
    """The person's players whose name is not their display name, by group name."""
    return _renames(session, user_id, apply=False)


@writes
def rename_my_players(session: Session, user_id: int) -> list[PlayerRename]:
    """Rename the person's players after their display name, in every group where no other
    player has that name already (those are reported with ``renamed=False``)."""
    return _renames(session, user_id, apply=True)


def _renames(session: Session, user_id: int, apply: bool) -> list[PlayerRename]:
    me = acting_user(session, user_id)
    wanted = _members.wanted_name(me.display_name)
    rows = session.execute(
        select(Player, Group.name)
        .join(Group, Group.id == Player.group_id)
        .join(
            Membership,
            (Membership.group_id == Player.group_id) & (Membership.user_id == user_id),
        )
        .where(Player.user_id == user_id, Player.merged_into_id.is_(None))
        .order_by(Group.name, Group.id)
    ).all()
    found: list[PlayerRename] = []
    for player, group_name in rows:
        if player.name == wanted:
            continue
        other = _members.taken_names(session, player.group_id).get(name_key(wanted))
        free = other is None or other.id == player.id
        found.append(PlayerRename(group_name, player.name, wanted, free))
        if apply and free:
            player.name, player.name_key = wanted, name_key(wanted)
            session.flush()
            bump_group(session, player.group_id)
    return found
