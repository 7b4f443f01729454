"""The whole password reset in Chromium, on a real server with a real SMTP server."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from dutch_app.accounts import make_backend
from dutch_app.config import load_settings
from dutch_app.storage.db import get_engine, make_session_factory
from tests.e2e.streamlit_ui import PASSWORD, SESSION_COOKIE, expect_clean_page, expect_title, fill
from tests.mailbox import Mailbox, smtp_server  # noqa: F401 (a fixture)

NEW_PASSWORD = "Battery staple 77"
LINK = re.compile(r"http://127\.0\.0\.1:\d+/\?reset=[A-Za-z0-9_-]+")


def test_forgot_password_by_email_to_signed_in_with_the_new_one(
    streamlit_server,
    page_factory,
    smtp_server: Mailbox,  # noqa: F811
    tmp_path,
):
    """Ann asks for a link on the sign-in page, opens it from the email, chooses a new
    password and signs in with it; her other browser is signed out, and the link does not
    work a second time."""
    database = f"sqlite:///{tmp_path / 'dutch.db'}"
    environ = {
        "DUTCH_DATABASE_URL": database,
        "DUTCH_SECRET_KEY": "e2e-secret-key-long-enough-to-sign-session-tokens",
        "DUTCH_AUTH_BACKEND": "local",
        "DUTCH_SMTP_HOST": smtp_server.settings.host,
        "DUTCH_SMTP_PORT": str(smtp_server.settings.port),
        "DUTCH_SMTP_FROM": smtp_server.settings.sender,
        "DUTCH_SMTP_TLS": "none",
    }
    engine = get_engine(database)
    backend = make_backend(make_session_factory(engine), load_settings({}, environ))
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    url = streamlit_server(environ)

    other = page_factory()  # Ann's phone, still signed in from earlier
    other.context.add_cookies(
        [{"name": SESSION_COOKIE, "value": backend.issue_token(ann.user_id), "url": url}]
    )
    other.goto(url)
    expect_title(other, "Play")

    page = page_factory()
    page.goto(url)
    expect_title(page, "Dutch Scorer")
    page.get_by_text("Forgot your password?").click()
    fill(page, "signin_reset_email", "ann@example.com")
    page.get_by_role("button", name="Email me a reset link").click()
    expect(page.get_by_text("a link to choose a new password is on its way")).to_be_visible()

    body = smtp_server.wait_for(1)[0].get_content()
    link = LINK.search(body).group(0)
    assert link.startswith(url + "/?reset=")
    page.goto(link)
    expect_title(page, "Choose a new password")
    expect(page).not_to_have_url(re.compile("reset="))
    fill(page, "reset_new_password", NEW_PASSWORD)
    fill(page, "reset_new_password_again", NEW_PASSWORD)
    page.get_by_role("button", name="Choose this password").click()
    expect(page.get_by_text("Your password is changed")).to_be_visible()
    expect_clean_page(page)

    other.reload()
    expect_title(other, "Dutch Scorer")  # the session on the other device has ended

    page.get_by_role("button", name="Sign in").click()
    expect_title(page, "Dutch Scorer")
    fill(page, "signin_email", "ann@example.com")
    fill(page, "signin_password", NEW_PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect_title(page, "Play")

    again = page_factory()
    again.goto(link)
    expect_title(again, "Choose a new password")
    expect(again.get_by_text("expired or has already been used")).to_be_visible()
    engine.dispose()
