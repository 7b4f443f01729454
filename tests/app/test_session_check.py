"""Every open tab checks its session on each rerun: an ending elsewhere ends it too."""

from __future__ import annotations

import pytest

from dutch_app.services import players
from dutch_app.ui.context import ENDED_ELSEWHERE
from tests.app.apptools import make_table, messages, open_app

GROUP = "pages/group.py"
NEW_PASSWORD = "Battery staple 77"


def add_player_named(at, name: str):
    at.text_input(key="group_add_player_name").input(name)
    at.button(key="FormSubmitter:group_add_player_form-Add the player").click().run()
    assert not at.exception, at.exception
    return at


def roster(table) -> list[str]:
    return sorted(p.name for p in table.call(players.list_players, table.group_id))


ENDINGS = {
    "sign-out": lambda table: table.resources.accounts.sign_out(table.account.user_id),
    "password change": lambda table: table.resources.accounts.change_password(
        table.account.user_id, "correct horse 42", NEW_PASSWORD
    ),
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_an_ending_elsewhere_ends_the_open_tab_and_its_next_action_changes_nothing(table, ending):
    at = open_app(table.account, GROUP)
    add_player_named(at, "Eve")  # the tab works
    assert roster(table) == ["Ann", "Ben", "Cleo", "Dan", "Eve"]
    ENDINGS[ending](table)  # in another tab or on another device
    add_player_named(at, "Mallory")
    assert roster(table) == ["Ann", "Ben", "Cleo", "Dan", "Eve"]
    assert ENDED_ELSEWHERE in messages(at)
    assert "account" not in at.session_state
    assert at.title[0].value == "Dutch Scorer"  # the sign-in page
    assert at.text_input(key="signin_email") is not None


def test_a_deleted_accounts_tab_never_acts_as_the_next_account(app_resources):
    """The tab's token was the deleted person's: a new account, whatever its id, is not
    reached from it, and the tab shows the sign-in page."""
    ann = make_table(app_resources)
    at = open_app(ann.account, GROUP)
    app_resources.accounts.delete_account(ann.account.user_id, "correct horse 42")
    bob = make_table(app_resources, "bob@example.com", "Bob")
    add_player_named(at, "Mallory")
    assert roster(bob) == ["Ann", "Ben", "Bob", "Cleo", "Dan"]  # Bob plays in his own group
    assert ENDED_ELSEWHERE in messages(at)
    assert "account" not in at.session_state


def test_a_tab_follows_a_new_display_name_given_elsewhere(table):
    at = open_app(table.account, GROUP)
    table.resources.accounts.change_display_name(table.account.user_id, "Annie")
    at.run()
    assert at.session_state["account"].display_name == "Annie"


def test_signing_in_again_clears_the_notice(table):
    at = open_app(table.account, GROUP)
    table.resources.accounts.sign_out(table.account.user_id)
    at.run()
    at.text_input(key="signin_email").input("ann@example.com")
    at.text_input(key="signin_password").input("correct horse 42")
    at.button(key="FormSubmitter:signin_form-Sign in").click().run()
    assert not at.exception
    assert at.session_state["account"].user_id == table.account.user_id
    assert ENDED_ELSEWHERE not in messages(at)
    assert at.session_state["session_token"]


def test_a_tab_without_a_session_token_is_not_signed_in(table):
    """An account in the tab's state means nothing without a token that still holds."""
    from streamlit.testing.v1 import AppTest

    from tests.app.apptools import APP

    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["account"] = table.account
    at.session_state["cookie_checked"] = True
    at.run()
    assert "account" not in at.session_state
    assert at.text_input(key="signin_email") is not None


def _service_outside_a_checked_run():
    """A script that calls a service where the router has not checked the session
    (as a widget callback or a fragment would)."""
    import streamlit as st

    from dutch_app.services import groups
    from dutch_app.ui.context import CHECKED_KEY, call

    st.session_state.pop(CHECKED_KEY, None)
    st.session_state["groups_seen"] = len(call(groups.list_groups))


def test_a_service_called_outside_a_checked_run_checks_the_session_first(table):
    from streamlit.testing.v1 import AppTest

    from dutch_app.ui.context import NOTICE_KEY
    from tests.app.apptools import sign_in_tab

    at = AppTest.from_function(_service_outside_a_checked_run, default_timeout=60)
    sign_in_tab(at, table.account)
    at.run()
    assert not at.exception and at.session_state["groups_seen"] == 1
    table.resources.accounts.sign_out(table.account.user_id)
    at.session_state["groups_seen"] = None
    at.run()
    assert not at.exception
    assert "groups_seen" not in at.session_state  # the service never ran; the tab was reset
    assert "account" not in at.session_state
    assert at.session_state[NOTICE_KEY] == ENDED_ELSEWHERE


def test_the_notice_shows_once(table):
    at = open_app(table.account, GROUP)
    table.resources.accounts.sign_out(table.account.user_id)
    at.run()
    assert ENDED_ELSEWHERE in messages(at)
    at.run()
    assert ENDED_ELSEWHERE not in messages(at)
    assert at.text_input(key="signin_email") is not None
