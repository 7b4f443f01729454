"""The sign-in gate: what a visitor sees before and after signing in."""

from tests.app.apptools import messages, open_app


def sign_up(password: str):
    """Fill in and send the create-account form as Ann."""
    at = open_app()
    at.text_input(key="signup_name").input("Ann")
    at.text_input(key="signup_email").input("ann@example.com")
    at.text_input(key="signup_password").input(password)
    at.button(key="FormSubmitter:signup_form-Create account").click()
    at.run()
    assert not at.exception
    return at


def test_a_visitor_sees_only_the_public_pages(app_resources):
    at = open_app()
    assert at.title[0].value == "Dutch Scorer"
    assert at.text_input(key="signin_email") is not None


def test_signing_up_signs_the_person_in(app_resources):
    at = sign_up("correct horse 42")
    assert at.session_state["account"].display_name == "Ann"


def test_a_wrong_password_gets_one_message_that_reveals_nothing(table):
    at = open_app()
    at.text_input(key="signin_email").input("ann@example.com")
    at.text_input(key="signin_password").input("wrong password 1")
    at.button(key="FormSubmitter:signin_form-Sign in").click()
    at.run()
    assert not at.exception
    assert "Email or password is incorrect." in messages(at)
    assert "account" not in at.session_state


def test_a_weak_password_is_refused_with_a_clear_message(app_resources):
    at = sign_up("short")
    assert any("assword" in text for text in messages(at))
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
