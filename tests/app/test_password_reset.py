"""Password reset in the app: "Forgot your password?" on the sign-in page and the form a
reset link opens."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from dutch_app.accounts.reset import ResetLinks
from dutch_app.ui.context import resources
from tests.app.apptools import APP, messages, open_app
from tests.mailbox import Mailbox, smtp_server  # noqa: F401 (a fixture)

PASSWORD = "correct horse 42"
NEW_PASSWORD = "Battery staple 77"
SAME_ANSWER = "If an account uses that address, a link to choose a new password is on its way."


@pytest.fixture
def mailing_app(app_resources, monkeypatch, smtp_server: Mailbox):  # noqa: F811
    """The app with an SMTP server (the test's own, on loopback)."""
    smtp = smtp_server.settings
    for key, value in {
        "HOST": smtp.host, "PORT": str(smtp.port), "FROM": smtp.sender, "TLS": smtp.tls
    }.items():  # fmt: skip
        monkeypatch.setenv(f"DUTCH_SMTP_{key}", value)
    monkeypatch.setenv("DUTCH_BASE_URL", "http://127.0.0.1:8501")
    st.cache_resource.clear()
    made = resources()
    made.accounts.sign_up("ann@example.com", PASSWORD, "Ann")
    yield made
    made.engine.dispose()


def ask_for_link(at: AppTest, email: str) -> AppTest:
    at.text_input(key="signin_reset_email").input(email)
    at.button(key="FormSubmitter:signin_reset_form-Email me a reset link").click().run()
    assert not at.exception, at.exception
    return at


def link_token(res) -> str:
    return ResetLinks(res.sessions).link_for("ann@example.com").rpartition("=")[2]


def open_link(token: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["reset"] = token
    at.run()
    assert not at.exception, at.exception
    return at


def choose(at: AppTest, new: str, again: str | None = None) -> AppTest:
    at.text_input(key="reset_new_password").input(new)
    at.text_input(key="reset_new_password_again").input(new if again is None else again)
    at.button(key="FormSubmitter:reset_form-Choose this password").click().run()
    assert not at.exception, at.exception
    return at


def test_asking_for_a_link_gives_the_same_answer_for_any_address(mailing_app, smtp_server):  # noqa: F811
    at = open_app()
    ask_for_link(at, "nobody@example.com")
    assert any(SAME_ANSWER in text for text in messages(at))
    ask_for_link(at, "ann@example.com")
    assert any(SAME_ANSWER in text for text in messages(at))
    assert [m["To"] for m in smtp_server.wait_for(1)] == ["ann@example.com"]
    assert "http://127.0.0.1:8501/?reset=" in smtp_server.messages[0].get_content()


def test_a_malformed_address_is_named(mailing_app):
    at = ask_for_link(open_app(), "not an address")
    assert "Email: 'not an address' is not a valid email address." in at.error.values


def test_without_smtp_the_page_sends_people_to_the_host(app_resources):
    at = open_app()
    assert any("Ask the person who runs this app" in c.value for c in at.caption)
    assert not [b for b in at.button if "signin_reset_form" in (b.key or "")]


def test_a_link_opens_the_form_and_the_new_password_signs_in(mailing_app):
    token = link_token(mailing_app)
    at = open_link(token)
    assert at.title[0].value == "Choose a new password"
    assert "reset" not in at.query_params
    choose(at, NEW_PASSWORD, "Something else 1")
    assert "The two new passwords differ; nothing was changed." in at.error.values
    choose(at, "short")
    assert any("at least 10 characters" in text for text in at.error.values)
    choose(at, NEW_PASSWORD)
    assert any("Your password is changed" in text for text in messages(at))
    assert "account" not in at.session_state
    at.button(key="reset_to_sign_in").click().run()
    assert at.title[0].value == "Dutch Scorer"
    at.text_input(key="signin_email").input("ann@example.com")
    at.text_input(key="signin_password").input(NEW_PASSWORD)
    at.button(key="FormSubmitter:signin_form-Sign in").click().run()
    assert not at.exception, at.exception
    assert at.session_state["account"].email == "ann@example.com"


@pytest.mark.parametrize("token", ["used", "wrong", "x" * 5000, "<b>**bold**</b>"])
def test_a_used_wrong_or_odd_link_says_so_without_a_form(mailing_app, token):
    if token == "used":
        token = link_token(mailing_app)
        mailing_app.accounts.reset_password(token, NEW_PASSWORD)
    at = open_link(token)
    assert any("expired or has already been used" in text for text in at.error.values)
    assert "reset_new_password" not in [field.key for field in at.text_input]
    at.button(key="reset_to_sign_in").click().run()
    assert at.text_input(key="signin_email") is not None


def test_a_signed_in_tab_that_opens_a_link_is_signed_out_by_the_reset(mailing_app):
    ann = mailing_app.accounts.sign_in("ann@example.com", PASSWORD)
    token = link_token(mailing_app)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["account"] = ann
    at.session_state["cookie_checked"] = True
    at.query_params["reset"] = token
    at.run()
    assert at.title[0].value == "Choose a new password"
    assert not at.sidebar.button
    choose(at, NEW_PASSWORD)
    assert "account" not in at.session_state
