"""Seasons: how a group cuts its games into seasons (calendar quarters, months or years, or
seasons its owner named with a start date). Every member reads them; only the owner
changes them."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services._access import bump_group, membership, owner_membership
from dutch_app.services._caps import count_rows
from dutch_app.services._input import check_id, clean_name
from dutch_app.services.errors import LimitReached, NotFound, ValidationError
from dutch_app.services.unit_of_work import writes
from dutch_app.services.views import NamedSeasonView, SeasonsView
from dutch_app.storage.models import Group, NamedSeason
from dutch_core.seasons import SeasonKind

SEASON_NAME_LENGTH = 40
MOST_NAMED_SEASONS = 200
"""Named seasons a group may hold (four a year for fifty years)."""


def group_seasons(session: Session, user_id: int, group_id: int) -> SeasonsView:
    """The group's season kind and its named seasons, oldest first."""
    membership(session, user_id, group_id)
    return _seasons_view(session, group_id)


def _seasons_view(session: Session, group_id: int) -> SeasonsView:
    kind = session.scalar(select(Group.season_kind).where(Group.id == group_id))
    named = session.scalars(
        select(NamedSeason)
        .where(NamedSeason.group_id == group_id)
        .order_by(NamedSeason.starts_on, NamedSeason.id)
    )
    return SeasonsView(
        SeasonKind(kind or SeasonKind.QUARTER),
        tuple(NamedSeasonView(row.id, row.name, row.starts_on) for row in named),
    )


@writes
def set_season_kind(session: Session, user_id: int, group_id: int, kind: str) -> SeasonsView:
    """Cut the group's games into seasons of ``kind`` (owner only)."""
    owner_membership(session, user_id, group_id)
    if kind not in tuple(SeasonKind):
        kinds = ", ".join(SeasonKind)
        raise ValidationError("season_kind", f"season_kind must be one of {kinds}, not {kind!r}.")
    session.get_one(Group, group_id).season_kind = str(SeasonKind(kind))
    session.flush()
    bump_group(session, group_id)
    return _seasons_view(session, group_id)


@writes
def add_named_season(
    session: Session, user_id: int, group_id: int, name: str, starts_on: date
) -> SeasonsView:
    """Start a named season on ``starts_on`` (owner only); it runs to the next one's start.

    Refused when another season starts that day, or the group has the most it may hold.
    """
    owner_membership(session, user_id, group_id)
    name = clean_name("season_name", name, SEASON_NAME_LENGTH)
    if not isinstance(starts_on, date):
        raise ValidationError("starts_on", f"starts_on must be a date, not {starts_on!r}.")
    if count_rows(session, NamedSeason, NamedSeason.group_id == group_id) >= MOST_NAMED_SEASONS:
        raise LimitReached(
            _("A group can have at most {most} named seasons.").format(most=MOST_NAMED_SEASONS),
            "season_name",
        )
    taken = session.scalar(
        select(NamedSeason.name).where(
            NamedSeason.group_id == group_id, NamedSeason.starts_on == starts_on
        )
    )
    if taken is not None:
        raise ValidationError(
            "starts_on",
            _("The season {name!r} already starts on that day.").format(name=taken),
        )
    session.add(NamedSeason(group_id=group_id, name=name, starts_on=starts_on))
    session.flush()
    bump_group(session, group_id)
    return _seasons_view(session, group_id)


@writes
def remove_named_season(
    session: Session, user_id: int, group_id: int, season_id: int
) -> SeasonsView:
    """Remove one of the group's named seasons (owner only); the one before it then runs on."""
    owner_membership(session, user_id, group_id)
    found = session.get(NamedSeason, check_id("season_id", season_id))
    if found is None or found.group_id != group_id:
        raise NotFound("season", season_id)
    session.delete(found)
    session.flush()
    bump_group(session, group_id)
    return _seasons_view(session, group_id)
