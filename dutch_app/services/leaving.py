"""Leaving a group: the one way both leaving (or being removed) and deleting an account
take a person out of a group. A public module, as the accounts package needs it too."""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from dutch_app.services._access import bump_group
from dutch_app.services.views import Role
from dutch_app.storage.models import Game, Group, Membership, Player


def end_membership(session: Session, mine: Membership) -> None:
    """Take a person out of a group, the one way both leaving and account deletion do it.

    Their players in the group are unlinked (the history stays). The owner's role
    passes to the longest-standing member; when nobody is left, the group goes
    with its games.
    """
    group_id, user_id, role = mine.group_id, mine.user_id, mine.role
    session.delete(mine)
    session.execute(
        update(Player)
        .where(Player.group_id == group_id, Player.user_id == user_id)
        .values(user_id=None)
    )
    session.flush()
    heir = session.scalars(
        select(Membership)
        .where(Membership.group_id == group_id)
        .order_by(Membership.joined_at, Membership.user_id)
        .limit(1)
    ).first()
    if heir is None:
        # Games first: their hands and seats point at players, which go with the group.
        session.execute(delete(Game).where(Game.group_id == group_id))
        session.execute(delete(Group).where(Group.id == group_id))
        return
    if role == Role.OWNER:
        heir.role = Role.OWNER
        session.flush()
    bump_group(session, group_id)
