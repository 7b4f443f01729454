"""Invite-code guessing is throttled, and groups, demo groups and players are capped.

Every test runs on SQLite and PostgreSQL; the parallel ones use threads with a
session of their own each, released together.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dutch_app.config import limits
from dutch_app.services import csv_import
from dutch_app.services.demo import load_demo_group
from dutch_app.services.errors import LimitReached, NotFound
from dutch_app.services.groups import create_group, join_group, leave_group, list_groups
from dutch_app.services.players import add_player
from dutch_app.services.setup import start_game_with_players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Player, ThrottleCounter
from dutch_core import PRESETS
from tests.integration.threads import at_once

NETWORK = "198.51.100.66"


@pytest.fixture
def caps(monkeypatch) -> Callable[..., None]:
    """``caps(max_players_per_group=6, ...)``: run the test with smaller caps."""

    def set_caps(**values: int) -> None:
        for name, value in values.items():
            monkeypatch.setenv(f"DUTCH_{name.upper()}", str(value))
        limits.cache_clear()

    yield set_caps
    limits.cache_clear()


@pytest.fixture
def patient_limits(monkeypatch) -> None:
    """Invite-code rules whose first wait is already the longest (15 minutes): none runs out."""
    from dutch_app.services import groups

    for name in ("INVITE_GUESSES", "INVITE_GUESSES_FROM"):
        rule = getattr(groups, name)
        monkeypatch.setattr(groups, name, replace(rule, first_wait=timedelta(hours=1)))


def kinds(outcomes: list[object]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for outcome in outcomes:
        counted[type(outcome).__name__] = counted.get(type(outcome).__name__, 0) + 1
    return counted


# --- Invite codes ----------------------------------------------------------------------------


def test_guessing_invite_codes_is_slowed_after_ten_wrong_ones(
    session, make_user, group, patient_limits
):
    ben = make_user("Ben")
    for number in range(10):
        with pytest.raises(NotFound):
            perform(session, join_group, ben, f"WRONG{number:03d}", client=NETWORK)
    with pytest.raises(LimitReached) as waiting:
        perform(
            session, join_group, ben, group.invite_code, client=NETWORK
        )  # even the right code waits
    assert str(waiting.value) == "Too many wrong invite codes. Try again in 15 minutes."
    assert waiting.value.field == "invite_code"
    assert [g.id for g in perform(session, list_groups, ben)] == []


def test_a_right_code_does_not_count_against_the_person(session, make_user, group, owner):
    ben = make_user("Ben")
    others = [perform(session, create_group, owner, f"Club {n}") for n in range(12)]
    for other in others:
        perform(session, join_group, ben, other.invite_code, client=NETWORK)
    assert len(perform(session, list_groups, ben)) == 12


def test_one_network_guessing_for_many_people_is_slowed(session, make_user, group, patient_limits):
    guessers = [make_user(f"Guesser{n}") for n in range(4)]
    for number in range(30):
        with pytest.raises(NotFound):
            perform(session, join_group, guessers[number % 4], f"WRONG{number:03d}", client=NETWORK)
    with pytest.raises(LimitReached):
        perform(session, join_group, guessers[0], "WRONG999", client=NETWORK)
    # The group's members elsewhere are not slowed.
    cleo = make_user("Cleo")
    assert (
        perform(session, join_group, cleo, group.invite_code, client="203.0.113.10").id == group.id
    )


def test_parallel_invite_guesses_are_counted_exactly(
    engine, session, make_user, group, patient_limits
):
    ben = make_user("Ben")
    jobs = [
        lambda own, n=n: perform(own, join_group, ben, f"WRONG{n:03d}", client=NETWORK)
        for n in range(30)
    ]
    assert kinds(at_once(engine, jobs)) == {"NotFound": 10, "LimitReached": 20}
    with Session(engine) as check:
        failures = check.scalar(
            select(ThrottleCounter.failures).where(ThrottleCounter.scope == "invite_user")
        )
    assert failures == 10


# --- Caps ------------------------------------------------------------------------------------


def test_the_defaults_are_far_beyond_a_real_group(caps):
    assert limits().max_groups_per_person == 50
    assert limits().max_players_per_group == 300
    assert limits().max_demo_groups_per_day == 3


def test_a_person_in_the_most_groups_can_neither_create_nor_join_another(
    session, make_user, owner, group, caps
):
    caps(max_groups_per_person=3)
    ben = make_user("Ben")
    perform(session, create_group, ben, "One")
    perform(session, create_group, ben, "Two")
    perform(session, join_group, ben, group.invite_code)
    message = (
        "You are in 3 groups, the most one person can be in. "
        "Leave a group before you create or join another."
    )
    with pytest.raises(LimitReached) as refused:
        perform(session, create_group, ben, "Four")
    assert str(refused.value) == message
    other = perform(session, create_group, owner, "Other")
    with pytest.raises(LimitReached, match="the most one person can be in"):
        perform(session, join_group, ben, other.invite_code)
    perform(session, join_group, ben, group.invite_code)  # already a member: nothing changes
    perform(session, leave_group, ben, group.id)
    assert perform(session, create_group, ben, "Four").name == "Four"


def test_groups_created_at_the_same_moment_stay_within_the_cap(engine, session, make_user, caps):
    caps(max_groups_per_person=3)
    ben = make_user("Ben")
    outcomes = at_once(
        engine, [lambda own, n=n: perform(own, create_group, ben, f"G{n}") for n in range(8)]
    )
    assert kinds(outcomes) == {"GroupView": 3, "LimitReached": 5}


def test_a_full_group_refuses_more_players_with_a_clear_message(session, owner, group, caps):
    caps(max_players_per_group=4)
    for name in ("Ann", "Bo", "Cy"):  # and Olga, the owner's own player
        perform(session, add_player, owner, group.id, name)
    with pytest.raises(LimitReached) as refused:
        perform(session, add_player, owner, group.id, "Eve")
    assert str(refused.value) == (
        "A group can have at most 4 players (merged players count too); this one has 4."
    )
    assert refused.value.field == "name"
    with pytest.raises(LimitReached):
        perform(
            session, start_game_with_players, owner, group.id, ["Eve", "Fay"], PRESETS["classic"]
        )
    assert session.scalar(select(func.count()).select_from(Player)) == 4


def test_players_added_at_the_same_moment_stay_within_the_cap(engine, session, owner, group, caps):
    caps(max_players_per_group=5)
    jobs = [lambda own, n=n: perform(own, add_player, owner, group.id, f"P{n}") for n in range(10)]
    # Olga, the owner, is the group's first player.
    assert kinds(at_once(engine, jobs)) == {"PlayerView": 4, "LimitReached": 6}


def test_an_import_that_would_overfill_the_group_is_refused(session, owner, group, caps):
    caps(max_players_per_group=2)
    header = (
        "game,game_started_at,game_status,rules,round,played_at,seat,player,cards,hand_total,"
        "caller,call_type,outcome,penalty_cards_due,penalty,penalty_points,round_score,"
        "game_total\n"
    )
    rows = "".join(
        f'1,2025-01-01T18:00:00Z,ended,"{{""allow_no_caller"":true}}",1,'
        f"2025-01-01T18:05:00Z,{seat},{name},{total},"
        f"{total},,,,0,,0,{total},{total}\n"
        for seat, (name, total) in enumerate([("Ann", 5), ("Bo", 7), ("Cy", 9)])
    )
    with pytest.raises(LimitReached, match="at most 2 players"):
        perform(session, csv_import.import_rounds_csv, owner, group.id, (header + rows).encode())
    assert session.scalar(select(func.count()).select_from(Player)) == 1  # the owner's own


def test_demo_groups_are_limited_per_day(session, make_user, caps):
    caps(max_demo_groups_per_day=2)
    ben = make_user("Ben")
    perform(session, load_demo_group, ben)
    perform(session, load_demo_group, ben)
    with pytest.raises(LimitReached) as refused:
        perform(session, load_demo_group, ben)
    assert str(refused.value) == "You can load 2 demo groups a day. Try again in 24 hours."
    assert len(perform(session, list_groups, ben)) == 2
