"""Groups: create, rename, invite by code, join, leave; the data version for UI caches."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.services._access import (
    acting_user,
    bump_group,
    end_membership,
    membership,
    owner_membership,
)
from dutch_app.services._input import (
    check_id,
    clean_name,
    new_invite_code,
    normalise_invite_code,
)
from dutch_app.services._present import group_view, group_views
from dutch_app.services._transaction import reading, writing
from dutch_app.services.errors import NotFound
from dutch_app.services.views import GroupView
from dutch_app.storage.models import Group, Membership

GROUP_NAME_LENGTH = 80


@writing
def create_group(session: Session, user_id: int, name: str) -> GroupView:
    """Create a group owned by the user."""
    acting_user(session, user_id)
    group = Group(
        name=clean_name("name", name, GROUP_NAME_LENGTH),
        invite_code=new_invite_code(),
        created_by=user_id,
        data_version=1,
    )
    session.add(group)
    session.flush()
    mine = Membership(group_id=group.id, user_id=user_id, role="owner")
    session.add(mine)
    session.flush()
    return group_view(session, group, mine)


@writing
def rename_group(session: Session, user_id: int, group_id: int, name: str) -> GroupView:
    """Give the group a new name (owner only)."""
    mine = owner_membership(session, user_id, group_id)
    group = session.get_one(Group, group_id)
    group.name = clean_name("name", name, GROUP_NAME_LENGTH)
    session.flush()
    bump_group(session, group_id)
    return group_view(session, group, mine)


@reading
def list_groups(session: Session, user_id: int) -> list[GroupView]:
    """The user's groups, by name.

    Read on every rerun of every page (the sidebar's group switcher), so it takes
    two queries however many groups there are.
    """
    rows = session.execute(
        select(Group, Membership)
        .join(Membership, Membership.group_id == Group.id)
        .where(Membership.user_id == check_id("user_id", user_id))
        .order_by(Group.name, Group.id)
    ).all()
    if not rows:
        acting_user(session, user_id)  # no groups is fine; no such user is not
    return group_views(session, [(group, mine) for group, mine in rows])


@reading
def get_group(session: Session, user_id: int, group_id: int) -> GroupView:
    """One of the user's groups with its members."""
    mine = membership(session, user_id, group_id)
    return group_view(session, session.get_one(Group, group_id), mine)


@writing
def rotate_invite_code(session: Session, user_id: int, group_id: int) -> GroupView:
    """Replace the invite code, so the old one no longer works (owner only)."""
    mine = owner_membership(session, user_id, group_id)
    group = session.get_one(Group, group_id)
    group.invite_code = new_invite_code()
    session.flush()
    bump_group(session, group_id)
    return group_view(session, group, mine)


@writing
def join_group(session: Session, user_id: int, invite_code: str) -> GroupView:
    """Join the group whose invite code this is (joining twice changes nothing)."""
    acting_user(session, user_id)
    code = normalise_invite_code(invite_code)
    group = session.scalars(select(Group).where(Group.invite_code == code)).one_or_none()
    if group is None:
        raise NotFound("group", invite_code, key="invite code")
    mine = session.get(Membership, (group.id, user_id))
    if mine is None:
        mine = Membership(group_id=group.id, user_id=user_id, role="member")
        session.add(mine)
        session.flush()
        bump_group(session, group.id)
    return group_view(session, group, mine)


@writing
def leave_group(session: Session, user_id: int, group_id: int) -> None:
    """Leave the group. An owner's role passes to the longest-standing member; when
    the last member leaves, the group is deleted with all its games."""
    end_membership(session, membership(session, user_id, group_id))


@reading
def data_version(session: Session, user_id: int, group_id: int) -> int:
    """A number that changes whenever anything in the group changes (a cache key).

    One query on the group's and the membership's primary keys, so an open page
    can ask for it every couple of seconds.
    """
    check_id("user_id", user_id)
    version = session.scalar(
        select(Group.data_version).where(
            Group.id == check_id("group_id", group_id),
            select(Membership.group_id)
            .where(Membership.group_id == Group.id, Membership.user_id == user_id)
            .exists(),
        )
    )
    if version is None:
        raise NotFound("group", group_id)
    return version
