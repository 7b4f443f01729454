"""The limits as the pages show them: wrong invite codes slowed, caps refused plainly."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from dutch_app.config import limits
from dutch_app.services import groups
from tests.app.apptools import messages, open_app
from tests.views import get_group

PAGE = "pages/group.py"


def submit(at, form: str, label: str):
    at.button(key=f"FormSubmitter:{form}-{label}").click().run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def loner(app_resources):
    """Someone signed up who is in no group yet."""
    return app_resources.accounts.sign_up("zoe@example.com", "correct horse 42", "Zoe")


def test_guessing_invite_codes_on_the_group_page_is_slowed(loner, table, monkeypatch):
    # The first wait at the longest (15 minutes), so it cannot run out while the page reruns.
    rule = groups.INVITE_GUESSES
    monkeypatch.setattr(groups, "INVITE_GUESSES", replace(rule, first_wait=timedelta(hours=1)))
    at = open_app(loner, PAGE)
    for number in range(10):
        at.text_input(key="group_join_code").input(f"WRONG{number:03d}")
        submit(at, "group_join_form", "Join the group")
    assert "No group with invite code 'WRONG009'." in messages(at)
    code = table.call(get_group, table.group_id).invite_code  # even the right code waits
    at.text_input(key="group_join_code").input(code)
    submit(at, "group_join_form", "Join the group")
    assert "Too many wrong invite codes. Try again in 15 minutes." in messages(at)
    assert "No group with invite code 'WRONG009'." not in messages(at)


def test_a_full_group_refuses_another_player_with_a_clear_message(table, monkeypatch):
    monkeypatch.setenv("DUTCH_MAX_PLAYERS_PER_GROUP", "4")
    limits.cache_clear()
    try:
        at = open_app(table.account, PAGE)
        at.text_input(key="group_add_player_name").input("Eve")
        submit(at, "group_add_player_form", "Add the player")
        assert messages(at) == [
            "A group can have at most 4 players (merged players count too); this one has 4."
        ]
    finally:
        limits.cache_clear()
