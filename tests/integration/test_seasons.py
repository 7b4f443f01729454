"""Seasons of a group: every member reads them, only the owner changes them."""

from __future__ import annotations

from datetime import date

import pytest

from dutch_app.services import groups, preferences, seasons
from dutch_app.services.errors import Forbidden, ValidationError
from dutch_app.services.unit_of_work import perform
from dutch_core import SeasonKind
from tests.views import get_group


@pytest.fixture
def member(session, make_user, owner, group) -> int:
    """A member (not the owner) of the owner's group."""
    joined = make_user("Mia")
    perform(session, groups.join_group, joined, get_group(session, owner, group.id).invite_code)
    return joined


def test_a_group_starts_with_calendar_quarters_and_no_named_seasons(session, owner, group):
    found = perform(session, seasons.group_seasons, owner, group.id)
    assert (found.kind, found.named) == (SeasonKind.QUARTER, ())


def test_the_owner_names_seasons_and_every_member_sees_them_in_date_order(
    session, owner, group, member
):
    perform(session, seasons.add_named_season, owner, group.id, " Spring  cup ", date(2026, 3, 1))
    perform(session, seasons.add_named_season, owner, group.id, "Winter", date(2025, 12, 1))
    perform(session, seasons.set_season_kind, owner, group.id, "named")
    seen = perform(session, seasons.group_seasons, member, group.id)
    assert seen.kind == SeasonKind.NAMED
    assert [(s.name, s.starts_on) for s in seen.named] == [
        ("Winter", date(2025, 12, 1)),
        ("Spring cup", date(2026, 3, 1)),
    ]
    left = perform(session, seasons.remove_named_season, owner, group.id, seen.named[0].id)
    assert [s.name for s in left.named] == ["Spring cup"]


def test_a_change_of_seasons_bumps_the_groups_version(session, owner, group):
    before = get_group(session, owner, group.id).data_version
    perform(session, seasons.set_season_kind, owner, group.id, "month")
    assert get_group(session, owner, group.id).data_version > before


def test_a_member_who_is_not_the_owner_is_refused_and_nothing_changes(
    session, owner, group, member, count_rows
):
    added = perform(session, seasons.add_named_season, owner, group.id, "Cup", date(2026, 1, 1))
    before = count_rows()
    with pytest.raises(Forbidden):
        perform(session, seasons.set_season_kind, member, group.id, "year")
    with pytest.raises(Forbidden):
        perform(session, seasons.add_named_season, member, group.id, "Mine", date(2026, 2, 1))
    with pytest.raises(Forbidden):
        perform(session, seasons.remove_named_season, member, group.id, added.named[0].id)
    assert count_rows() == before
    assert perform(session, seasons.group_seasons, owner, group.id) == added


@pytest.mark.parametrize(
    ("name", "starts_on", "field", "message"),
    [
        ("", date(2026, 1, 1), "season_name", "The season name cannot be empty."),
        ("x" * 41, date(2026, 1, 1), "season_name", "longer than 40 characters"),
        ("Cup\x00", date(2026, 1, 1), "season_name", "Season name: contains a control character"),
        ("Cup", "2026-01-01", "starts_on", "starts_on must be a date"),
        ("Again", date(2025, 9, 1), "starts_on", "The season 'Autumn' already starts on that day."),
    ],
)
def test_a_bad_season_is_refused_naming_the_field(
    session, owner, group, name, starts_on, field, message
):
    perform(session, seasons.add_named_season, owner, group.id, "Autumn", date(2025, 9, 1))
    with pytest.raises(ValidationError) as refused:
        perform(session, seasons.add_named_season, owner, group.id, name, starts_on)
    assert refused.value.field == field
    assert message in str(refused.value)


def test_an_unknown_season_kind_is_refused(session, owner, group):
    with pytest.raises(ValidationError, match="season_kind must be one of"):
        perform(session, seasons.set_season_kind, owner, group.id, "week")


def test_the_period_tapped_is_remembered_per_person(session, owner, member):
    assert perform(session, preferences.get_preferences, owner).season_choice is None
    perform(session, preferences.remember_season_choice, owner, "this")
    assert perform(session, preferences.get_preferences, owner).season_choice == "this"
    assert perform(session, preferences.get_preferences, member).season_choice is None
    with pytest.raises(ValidationError):
        perform(session, preferences.remember_season_choice, owner, "next")
