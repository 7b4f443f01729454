"""The test harness works before the app does: Streamlit in Chromium, PostgreSQL, Auth emulator.

These tests check the shared fixtures themselves, with a throwaway Streamlit script instead of
the real app, so a red e2e test elsewhere points at the app rather than at the set-up.
"""

import uuid

import requests
from playwright.sync_api import expect
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

GREETING_APP = """
import streamlit as st

st.title("Harness check")
st.write("Scores are kept here.")
"""

COUNTER_APP = """
import streamlit as st

st.session_state.setdefault("rounds", 0)
if st.button("Add round"):
    st.session_state.rounds += 1
st.write(f"Rounds played: {st.session_state.rounds}")
"""


def test_streamlit_script_renders_in_chromium(tmp_path, streamlit_server, browser_page):
    """A script served by the streamlit_server fixture shows its text in a desktop page."""
    script = tmp_path / "greeting.py"
    script.write_text(GREETING_APP, encoding="utf-8")
    url = streamlit_server(app=str(script))

    browser_page.goto(url)

    expect(browser_page.get_by_role("heading", name="Harness check")).to_be_visible()
    expect(browser_page.get_by_text("Scores are kept here.")).to_be_visible()


def test_button_tap_on_phone_page_reaches_the_server(tmp_path, streamlit_server, phone_page):
    """On a phone-sized page a tapped button reruns the script and the new text shows."""
    script = tmp_path / "counter.py"
    script.write_text(COUNTER_APP, encoding="utf-8")
    url = streamlit_server(app=str(script))

    phone_page.goto(url)
    expect(phone_page.get_by_text("Rounds played: 0")).to_be_visible()
    phone_page.get_by_role("button", name="Add round").tap()

    expect(phone_page.get_by_text("Rounds played: 1")).to_be_visible()
    assert phone_page.evaluate("window.innerWidth") == 390


def test_postgres_url_is_a_working_database_of_its_own(postgres_url):
    """The session database answers queries and is not the server's default database."""
    engine = create_engine(postgres_url)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("SELECT 1")).scalar_one() == 1
            current = connection.execute(text("SELECT current_database()")).scalar_one()
    finally:
        engine.dispose()

    assert current == make_url(postgres_url).database
    assert current.startswith("dutch_test_")


def test_fresh_postgres_databases_are_empty_and_separate(fresh_postgres_database):
    """A table made in one fresh database does not appear in the next one."""
    first, second = fresh_postgres_database(), fresh_postgres_database()
    assert first != second

    engine = create_engine(first)
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE scores (player text, points int)"))
        assert inspect(engine).get_table_names() == ["scores"]
    finally:
        engine.dispose()

    engine = create_engine(second)
    try:
        assert inspect(engine).get_table_names() == []
    finally:
        engine.dispose()


def test_auth_emulator_signs_up_a_user_and_clear_forgets_it(firebase_auth_emulator):
    """Sign-up works through the emulator's REST API; clear() removes the account again."""
    sign_up_url = (
        f"{firebase_auth_emulator.base_url}"
        "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key"
    )
    account = {
        "email": f"harness-{uuid.uuid4().hex[:8]}@example.com",
        "password": "correct-horse-battery",
        "returnSecureToken": True,
    }

    created = requests.post(sign_up_url, json=account, timeout=10)
    assert created.status_code == 200, created.text
    assert created.json()["email"] == account["email"]

    duplicate = requests.post(sign_up_url, json=account, timeout=10)
    assert duplicate.status_code == 400
    assert "EMAIL_EXISTS" in duplicate.text

    firebase_auth_emulator.clear()

    again = requests.post(sign_up_url, json=account, timeout=10)
    assert again.status_code == 200, again.text
    firebase_auth_emulator.clear()
