"""Groups: create, rename, invite by code, join, leave, remove a member; the data version
for UI caches."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app import throttle
from dutch_app.i18n import _
from dutch_app.services._access import (
    acting_user,
    bump_group,
    member_of,
    membership,
    owner_membership,
)
from dutch_app.services._caps import check_room_for_a_group, count_rows
from dutch_app.services._input import (
    check_id,
    clean_name,
    new_invite_code,
    normalise_invite_code,
)
from dutch_app.services._members import new_group, seat_member
from dutch_app.services._present import group_view, group_views
from dutch_app.services.errors import Conflict, LimitReached, NotFound
from dutch_app.services.leaving import end_membership
from dutch_app.services.sharing import end_links_made_by
from dutch_app.services.unit_of_work import in_steps, write, writes
from dutch_app.services.views import GroupView, Role, stamp
from dutch_app.storage.models import Group, Membership, utcnow
from dutch_app.throttle import Key, Rule

GROUP_NAME_LENGTH = 80
DAY = timedelta(days=1)


@writes
def create_group(session: Session, user_id: int, name: str) -> GroupView:
    """Create a group owned by the user (refused when they are in the most groups allowed);
    the user is its first player, named by their display name and linked to them."""
    me = acting_user(session, user_id)
    check_room_for_a_group(session, user_id)
    name = clean_name("name", name, GROUP_NAME_LENGTH)
    group, mine = new_group(session, user_id, name, data_version=1)
    seat_member(session, group.id, me)
    return group_view(session, group, mine)


@writes
def rename_group(session: Session, user_id: int, group_id: int, name: str) -> GroupView:
    """Give the group a new name (owner only)."""
    mine = owner_membership(session, user_id, group_id)
    group = session.get_one(Group, group_id)
    group.name = clean_name("name", name, GROUP_NAME_LENGTH)
    session.flush()
    bump_group(session, group_id)
    return group_view(session, group, mine)


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


@writes
def rotate_invite_code(session: Session, user_id: int, group_id: int) -> GroupView:
    """Replace the invite code, so the old one no longer works (owner only)."""
    mine = owner_membership(session, user_id, group_id)
    group = session.get_one(Group, group_id)
    group.invite_code = new_invite_code()
    session.flush()
    bump_group(session, group_id)
    return group_view(session, group, mine)


INVITE_GUESSES = Rule("invite_user", 10, timedelta(seconds=1), timedelta(minutes=15), DAY)
INVITE_GUESSES_FROM = Rule("invite_client", 30, timedelta(seconds=1), timedelta(minutes=15), DAY)


@in_steps
def join_group(
    session: Session, user_id: int, invite_code: str, *, client: str | None = None
) -> GroupView:
    """Join the group whose invite code this is (joining twice changes nothing).

    The newcomer becomes a player of the group, named by their display name ("Name 2"
    when another member's player has it); when a player of that name has no account
    yet, they are asked on the Group page whether it is them instead (`my_player_offer`).

    Wrong codes are throttled like passwords, per person and per ``client`` network
    address: 10 (30 from one network) are free, then each further try waits twice as
    long as the one before, up to 15 minutes. The try is counted in a transaction of
    its own before the code is looked up, so parallel guesses are counted exactly.
    """
    code = normalise_invite_code(invite_code)
    keys = [Key(INVITE_GUESSES, str(check_id("user_id", user_id)))]
    if client is not None:
        keys.append(Key(INVITE_GUESSES_FROM, client))
    write(session, _count_invite_try, user_id, keys)
    return write(session, _join, user_id, code, invite_code, keys)


def _count_invite_try(session: Session, user_id: int, keys: list[Key]) -> None:
    acting_user(session, user_id)
    refusal = throttle.admit(session, keys, utcnow())
    if refusal is not None:
        raise LimitReached(
            _("Too many wrong invite codes. Try again in {wait}.").format(
                wait=throttle.spell_wait(refusal.seconds)
            ),
            "invite_code",
        )


def _join(session: Session, user_id: int, code: str, as_typed: str, keys: list[Key]) -> GroupView:
    group = session.scalars(select(Group).where(Group.invite_code == code)).one_or_none()
    if group is None:
        raise NotFound("group", as_typed, key="invite code")
    throttle.take_back(session, keys)
    mine = session.get(Membership, (group.id, user_id))
    if mine is None:
        check_room_for_a_group(session, user_id)
        mine = Membership(group_id=group.id, user_id=user_id, role=Role.MEMBER)
        session.add(mine)
        session.flush()
        seat_member(session, group.id, acting_user(session, user_id))
        bump_group(session, group.id)
    return group_view(session, group, mine)


@writes
def leave_group(session: Session, user_id: int, group_id: int) -> None:
    """Leave the group. An owner's role passes to the longest-standing member; when
    the last member leaves, the group is deleted with all its games."""
    end_membership(session, membership(session, user_id, group_id))


@writes
def remove_member(session: Session, user_id: int, group_id: int, member_id: int) -> GroupView:
    """Take a member out of the group (owner only); the group as the owner now sees it.

    The member loses access at once: every service checks membership on each call.
    Their players stay in the group's history, unlinked from their account, exactly
    as when they leave. The invite code is replaced, since the member knows the old
    one, and the links to games they made stop working. An owner cannot remove
    themselves while no other owner would be left: they leave instead, which passes
    ownership on.
    """
    mine = owner_membership(session, user_id, group_id)
    theirs = session.get(Membership, (mine.group_id, check_id("member_id", member_id)))
    if theirs is None:
        raise NotFound("member", member_id)
    owners = (Membership.group_id == mine.group_id, Membership.role == Role.OWNER)
    if theirs.role == Role.OWNER and count_rows(session, Membership, *owners) < 2:
        raise Conflict(
            _(
                "You are the group's only owner, so you cannot remove yourself; leave the group "
                "instead, which passes ownership to the longest-standing member."
            )
        )
    end_links_made_by(session, mine.group_id, theirs.user_id)
    end_membership(session, theirs)
    group = session.get_one(Group, mine.group_id)
    group.invite_code = new_invite_code()
    session.flush()
    session.refresh(group)
    return group_view(session, group, mine)


def cache_stamp(session: Session, user_id: int, group_id: int) -> str:
    """The group's cache key and data version in one string (see `GroupView.cache_stamp`);
    it changes whenever anything in the group changes and is never another group's."""
    membership(session, user_id, group_id)
    key, version = session.execute(
        select(Group.cache_key, Group.data_version).where(Group.id == group_id)
    ).one()
    return stamp(key, version)


def data_version(session: Session, user_id: int, group_id: int) -> int:
    """A number that changes whenever anything in the group changes (a cache key).

    One query on the group's and the membership's primary keys, so an open page
    can ask for it every couple of seconds.
    """
    check_id("user_id", user_id)
    version = session.scalar(
        select(Group.data_version).where(
            Group.id == check_id("group_id", group_id), member_of(user_id, Group.id).exists()
        )
    )
    if version is None:
        raise NotFound("group", group_id)
    return version
