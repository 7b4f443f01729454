"""Moving an anonymous account's groups into the account its person signed in to."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from dutch_app.services._access import bump_group
from dutch_app.services._caps import check_room_for_a_group
from dutch_app.services.leaving import end_membership
from dutch_app.services.unit_of_work import writes
from dutch_app.storage.models import Game, Group, Membership, Player, Round, SharedGame, User


@writes
def move_groups(session: Session, anonymous_id: int, user_id: int) -> int:
    """Make ``user_id`` a member of every group of the anonymous account ``anonymous_id``,
    in its place (role, players and what it entered); return how many groups moved.

    A group the person is in already keeps them as they were, and the anonymous account
    leaves it. Both ids are the caller's to check: the tab's session and a sign-in.
    Refused whole (`LimitReached`) when the groups would not fit under the cap.
    """
    anonymous = session.get(User, anonymous_id)
    if anonymous is None or not anonymous.is_anonymous or anonymous_id == user_id:
        return 0
    theirs = session.scalars(select(Membership).where(Membership.user_id == anonymous_id)).all()
    mine = set(session.scalars(select(Membership.group_id).where(Membership.user_id == user_id)))
    moved = 0
    for membership in theirs:
        group_id = membership.group_id
        if group_id in mine:
            end_membership(session, membership)
            continue
        check_room_for_a_group(session, user_id)
        membership.user_id = user_id
        session.execute(
            update(Player)
            .where(Player.group_id == group_id, Player.user_id == anonymous_id)
            .values(user_id=user_id)
        )
        session.flush()
        bump_group(session, group_id)
        moved += 1
    for column in (
        Group.created_by,
        Game.created_by,
        Round.entered_by,
        Round.edited_by,
        SharedGame.created_by,
    ):
        session.execute(
            update(column.class_).where(column == anonymous_id).values({column.key: user_id})
        )
    return moved
