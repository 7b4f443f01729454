"""With Firebase accounts, an account disabled in Firebase loses its open tab within the
check interval (three minutes), against the Auth emulator."""

from __future__ import annotations

import functools

import pytest
import streamlit as st
from firebase_admin import auth

from dutch_app.accounts import make_backend
from dutch_app.accounts.firebase_app import firebase_app
from dutch_app.config import Limits
from dutch_app.services import players
from dutch_app.ui import context
from dutch_app.ui.context import ENDED_ELSEWHERE, resources
from tests.app.apptools import make_table, messages, open_app

GROUP = "pages/group.py"


@pytest.fixture
def firebase_app_resources(tmp_path, monkeypatch, migrated_sqlite, firebase_auth_emulator, clock):
    """The app on a fresh SQLite file, its accounts in the Auth emulator, its clock the
    test's (Firebase is asked about a person at most once per check interval)."""
    firebase_auth_emulator.clear()
    monkeypatch.setenv("DUTCH_DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    monkeypatch.setenv("DUTCH_SECRET_KEY", "app-test-secret-key-that-is-long-enough")
    monkeypatch.setenv("DUTCH_AUTH_BACKEND", "firebase")
    monkeypatch.setenv("DUTCH_FIREBASE_PROJECT_ID", firebase_auth_emulator.project_id)
    monkeypatch.setenv("DUTCH_FIREBASE_API_KEY", "demo-api-key")
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", firebase_auth_emulator.host)
    monkeypatch.setattr(context, "make_backend", functools.partial(make_backend, clock=clock))
    st.cache_resource.clear()
    st.cache_data.clear()
    yield resources()
    resources().engine.dispose()
    st.cache_resource.clear()
    st.cache_data.clear()


def test_a_tab_of_an_account_disabled_in_firebase_ends_and_changes_nothing(
    firebase_app_resources, clock
):
    table = make_table(firebase_app_resources)
    at = open_app(table.account, GROUP)
    app = firebase_app(firebase_app_resources.settings.firebase)
    uid = auth.get_user_by_email("ann@example.com", app=app).uid
    auth.update_user(uid, disabled=True, app=app)
    clock.advance(seconds=Limits.firebase_check_seconds + 1)
    at.text_input(key="group_add_player_name").input("Mallory")
    at.button(key="FormSubmitter:group_add_player_form-Add the player").click().run()
    assert not at.exception, at.exception
    assert "Mallory" not in [p.name for p in table.call(players.list_players, table.group_id)]
    assert ENDED_ELSEWHERE in messages(at)
    assert "account" not in at.session_state
