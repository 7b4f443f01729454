"""The sign-in gate: what a visitor sees before and after signing in."""

from dataclasses import replace

from dutch_app.accounts import ratelimit
from dutch_app.ui.sign_up import SIGN_UP_ANSWER
from tests.app.apptools import messages, open_app


def sign_up(password: str, email: str = "ann@example.com", name: str = "Ann", at=None):
    """Fill in and send the create-account form."""
    at = at or open_app()
    at.text_input(key="signup_name").input(name)
    at.text_input(key="signup_email").input(email)
    at.text_input(key="signup_password").input(password)
    at.button(key="FormSubmitter:signup_form-Create account").click()
    at.run()
    assert not at.exception
    return at


def sign_in(at, email: str, password: str):
    at.text_input(key="signin_email").input(email)
    at.text_input(key="signin_password").input(password)
    at.button(key="FormSubmitter:signin_form-Sign in").click()
    at.run()
    assert not at.exception
    return at


def test_the_owner_signing_up_again_with_their_own_password_is_simply_signed_in(table):
    at = sign_up("correct horse 42", email="ann@example.com", name="Someone else")
    assert at.session_state["account"].user_id == table.account.user_id
    assert at.session_state["account"].display_name == "Ann"  # nothing of the account changed


def test_a_visitor_sees_only_the_public_pages(app_resources):
    at = open_app()
    assert at.title[0].value == "Dutch Scorer"
    assert at.text_input(key="signin_email") is not None


def test_creating_an_account_signs_the_person_in_and_opens_the_app(app_resources):
    at = sign_up("correct horse 42")
    assert at.session_state["account"].display_name == "Ann"
    assert [title.value for title in at.title] == ["Play"]  # the home page, not the sign-in
    assert SIGN_UP_ANSWER not in messages(at)
    assert "signup_password" not in [field.key for field in at.text_input]
    at.run()  # and still signed in on the next run (its session checked, as every run's)
    assert at.session_state["account"].display_name == "Ann"


def test_signing_up_with_a_taken_address_gets_the_old_answer_and_takes_nothing(table):
    """An address that has an account is not signed in with another password: the answer
    is the one every sign-up got before sign-up signed in, and the impostor's password does
    not open the account (the same as signing in with it would tell)."""
    at = sign_up("another horse 99", email="ANN@example.com", name="Impostor")
    assert messages(at) == [SIGN_UP_ANSWER]
    assert "account" not in at.session_state
    assert at.text_input(key="signin_email").value == "ANN@example.com"
    sign_in(at, "ann@example.com", "another horse 99")
    assert messages(at) == ["Email or password is incorrect."]
    assert "account" not in at.session_state


def test_a_wrong_password_gets_one_message_that_reveals_nothing(table):
    at = sign_in(open_app(), "ann@example.com", "wrong password 1")
    assert "Email or password is incorrect." in messages(at)
    assert "account" not in at.session_state


def test_repeated_wrong_passwords_are_told_to_wait(table, monkeypatch):
    # The first wait at its longest, so that it cannot run out while the page reruns.
    pair = ratelimit.PAIR
    monkeypatch.setattr(ratelimit, "PAIR", replace(pair, first_wait=pair.longest_wait))
    at = open_app()
    for _ in range(5):
        sign_in(at, "ann@example.com", "wrong password 1")
    sign_in(at, "ann@example.com", "correct horse 42")
    [shown] = messages(at)
    assert shown == "Too many failed sign-ins for this address. Try again in 15 minutes."
    assert "account" not in at.session_state


def test_a_weak_password_is_refused_with_a_clear_message(app_resources):
    at = sign_up("short")
    assert any("assword" in text for text in messages(at))
    assert SIGN_UP_ANSWER not in messages(at)
    assert "account" not in at.session_state


def test_a_placeholder_key_stops_the_app_with_a_clear_message(tmp_path, monkeypatch):
    import streamlit as st

    monkeypatch.setenv("DUTCH_DATABASE_URL", f"sqlite:///{tmp_path / 'app.db'}")
    monkeypatch.setenv("DUTCH_SECRET_KEY", "replace-with-a-long-random-value")
    monkeypatch.setenv("DUTCH_AUTH_BACKEND", "local")
    st.cache_resource.clear()
    at = open_app()
    assert [e.value for e in at.error] == [
        "Dutch Scorer cannot start until its settings are fixed: secret_key (or "
        "DUTCH_SECRET_KEY): the secret key is a placeholder, not a key. Use a long random "
        'value, for example the output of: python -c "import secrets; '
        'print(secrets.token_urlsafe(32))"'
    ]
    assert not at.text_input
    assert not (tmp_path / "app.db").exists()
