"""The sign-in page with the Firebase backend: an account made through Firebase's public
sign-up with a password the app would refuse must choose a new one before it signs in
(against the Firebase Auth emulator)."""

from __future__ import annotations

import pytest
import requests
import streamlit as st

from dutch_app.ui.context import resources
from tests.app.apptools import messages, open_app

EMAIL = "weak@example.com"
STRONG = "Battery staple 77"


@pytest.fixture
def firebase_app_resources(tmp_path, monkeypatch, firebase_auth_emulator):
    """The app on a fresh SQLite file, with its accounts in the Auth emulator."""
    firebase_auth_emulator.clear()
    monkeypatch.setenv("DUTCH_DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    monkeypatch.setenv("DUTCH_SECRET_KEY", "app-test-secret-key-that-is-long-enough")
    monkeypatch.setenv("DUTCH_AUTH_BACKEND", "firebase")
    monkeypatch.setenv("DUTCH_FIREBASE_PROJECT_ID", firebase_auth_emulator.project_id)
    monkeypatch.setenv("DUTCH_FIREBASE_API_KEY", "demo-api-key")
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", firebase_auth_emulator.host)
    st.cache_resource.clear()
    st.cache_data.clear()
    url = f"{firebase_auth_emulator.base_url}/identitytoolkit.googleapis.com/v1/accounts:signUp"
    body = {"email": EMAIL, "password": "abcdef", "displayName": "Wendy\u202e"}
    assert requests.post(url, params={"key": "demo-api-key"}, json=body, timeout=10).ok
    yield resources()
    resources().engine.dispose()
    st.cache_resource.clear()
    st.cache_data.clear()


def _sign_in(at, password):
    at.text_input(key="signin_email").input(EMAIL)
    at.text_input(key="signin_password").input(password)
    at.button(key="FormSubmitter:signin_form-Sign in").click()
    at.run()
    assert not at.exception, at.exception


def test_a_weak_password_from_outside_is_replaced_before_signing_in(firebase_app_resources):
    at = open_app()
    _sign_in(at, "abcdef")
    assert "account" not in at.session_state
    assert any("does not meet this app's rules" in text for text in messages(at))

    at.text_input(key="signin_replace_current").input("abcdef")
    at.text_input(key="signin_replace_new").input(STRONG)
    at.text_input(key="signin_replace_again").input(STRONG)
    at.button(key="FormSubmitter:signin_replace_form-Set the new password and sign in").click()
    at.run()
    assert not at.exception, at.exception
    account = at.session_state["account"]
    assert (account.email, account.display_name) == (EMAIL, "weak")
    assert firebase_app_resources.accounts.sign_in(EMAIL, STRONG).user_id == account.user_id
