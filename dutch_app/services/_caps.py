"""Caps that no real group meets but that stop one person from filling the database.

The numbers come from the settings (`dutch_app.config.Limits`). Each check locks the
row it counts under (the person, or the group) first, so two requests at the same
moment cannot both squeeze in under the cap.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from dutch_app import throttle
from dutch_app.config import limits
from dutch_app.i18n import _
from dutch_app.services.errors import LimitReached
from dutch_app.storage.models import Base, Group, Membership, Player, User, utcnow

DAY = timedelta(days=1)


def count_rows(session: Session, model: type[Base], *where: ColumnElement[bool]) -> int:
    """How many rows of ``model``'s table meet every condition of ``where``."""
    return session.scalar(select(func.count()).select_from(model).where(*where)) or 0


def check_room_for_a_group(session: Session, user_id: int) -> None:
    """Refuse a new membership (made or joined) to a person already in the most groups."""
    session.execute(select(User.id).where(User.id == user_id).with_for_update())
    most = limits().max_groups_per_person
    held = count_rows(session, Membership, Membership.user_id == user_id)
    if held >= most:
        raise LimitReached(
            _(
                "You are in {held} groups, the most one person can be in. Leave a "
                "group before you create or join another."
            ).format(held=held)
        )


def check_room_for_players(session: Session, group_id: int, adding: int = 1) -> None:
    """Refuse players beyond the group's cap (merged players count, as their rows stay)."""
    session.execute(select(Group.id).where(Group.id == group_id).with_for_update())
    most = limits().max_players_per_group
    held = count_rows(session, Player, Player.group_id == group_id)
    if held + adding > most:
        raise LimitReached(
            _(
                "A group can have at most {most} players (merged players count too); "
                "this one has {held}."
            ).format(most=most, held=held),
            "name",
        )


def count_demo_group(session: Session, user_id: int) -> None:
    """Count one more demo group loaded by the person; refused beyond the day's allowance."""
    allowed = limits().max_demo_groups_per_day
    rule = throttle.Rule("demo_user", allowed, DAY, DAY, DAY)
    refusal = throttle.admit(session, (throttle.Key(rule, str(user_id)),), utcnow())
    if refusal is not None:
        raise LimitReached(
            _("You can load {allowed} demo groups a day. Try again in {wait}.").format(
                allowed=allowed, wait=throttle.spell_wait(refusal.seconds)
            )
        )
