"""A Firebase account disabled, deleted or revoked in Firebase loses its open sessions.

Every open tab, the live route and the round route check a session with
``check_session``, which reads the project's database on every call and asks Firebase
about the person at most once per ``firebase_check_seconds`` (cached per person).
Checked against the Firebase Auth emulator, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import httpx
import pytest
from firebase_admin import auth
from firebase_admin.exceptions import UnavailableError
from starlette.applications import Starlette

from dutch_app import web
from dutch_app.accounts.firebase import FirebaseBackend
from dutch_app.accounts.firebase_app import firebase_app
from dutch_app.accounts.standing import RETRY_SECONDS
from dutch_app.config import FirebaseSettings
from dutch_app.web.live import LiveRoute, OwnChanges, live_route_path
from dutch_app.web.round_route import RoundRoute, round_route_path

KEY = b"a test key that signs session tokens"
PASSWORD = "Correct horse 42"
EVERY = 180  # seconds an answer of Firebase is trusted


@pytest.fixture
def emulator(firebase_auth_emulator):
    firebase_auth_emulator.clear()
    return firebase_auth_emulator


@pytest.fixture
def settings(emulator) -> FirebaseSettings:
    return FirebaseSettings(
        project_id=emulator.project_id, api_key="demo-api-key", auth_emulator_host=emulator.host
    )


@pytest.fixture
def backend(sessions, settings, clock) -> FirebaseBackend:
    return FirebaseBackend(sessions, settings, secret_key=KEY, clock=clock, check_every=EVERY)


@pytest.fixture
def app(settings):
    return firebase_app(settings)


def uid_of(app, email: str) -> str:
    return auth.get_user_by_email(email, app=app).uid


@pytest.mark.parametrize(
    "change",
    [
        lambda uid, app: auth.update_user(uid, disabled=True, app=app),
        lambda uid, app: auth.delete_user(uid, app=app),
    ],
    ids=["disabled", "deleted"],
)
def test_a_disabled_or_deleted_user_loses_every_session_within_the_check_interval(
    backend, app, clock, change
):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    phone, laptop = backend.issue_token(ann.user_id), backend.issue_token(ann.user_id)
    assert backend.check_session(phone) == ann
    change(uid_of(app, "ann@example.com"), app)
    clock.advance(seconds=EVERY + 1)
    assert backend.check_session(phone) is None
    # The app's own sessions were ended: the laptop is refused by the database alone.
    calls = backend.firebase_look_ups
    assert backend.check_session(laptop) is None
    assert backend.firebase_look_ups == calls


def test_firebase_is_asked_once_per_person_per_interval(backend, clock):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    bob = backend.sign_up("bob@example.com", PASSWORD, "Bob")
    tokens = [backend.issue_token(person.user_id) for person in (ann, bob) for _ in range(3)]
    calls = backend.firebase_look_ups
    for _ in range(20):
        assert all(backend.check_session(token) is not None for token in tokens)
    assert backend.firebase_look_ups - calls <= 2  # one per person, none after sign-up
    clock.advance(seconds=EVERY + 1)
    for _ in range(20):
        assert all(backend.check_session(token) is not None for token in tokens)
    assert backend.firebase_look_ups - calls <= 4


def test_revoked_refresh_tokens_end_older_sessions_and_keep_newer_ones(backend, app, clock):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    # Firebase counts a new user's tokens from its creation, in whole seconds: date it back.
    a_minute_ago = int((datetime.now(UTC) - timedelta(minutes=1)).timestamp())
    auth.update_user(uid_of(app, "ann@example.com"), valid_since=a_minute_ago, app=app)
    old = backend.issue_token(ann.user_id, now=clock() - timedelta(seconds=30))
    clock.advance(seconds=EVERY + 1)
    assert backend.check_session(old) == ann
    auth.revoke_refresh_tokens(uid_of(app, "ann@example.com"), app=app)
    clock.advance(seconds=EVERY + 1)
    new = backend.issue_token(ann.user_id)
    assert backend.check_session(old) is None
    assert backend.check_session(new) == ann  # a sign-in after the revocation stays


def test_a_firebase_that_cannot_be_reached_keeps_sessions_and_is_asked_again_soon(
    backend, clock, monkeypatch
):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    clock.advance(seconds=EVERY + 1)

    def unavailable(*args, **kwargs):
        raise UnavailableError("Firebase is down")

    monkeypatch.setattr(auth, "get_user", unavailable)
    assert backend.check_session(token) == ann  # an outage signs nobody out
    calls = backend.firebase_look_ups
    assert backend.check_session(token) == ann
    assert backend.firebase_look_ups == calls  # not asked again at once
    clock.advance(seconds=RETRY_SECONDS + 1)
    monkeypatch.undo()
    assert backend.check_session(token) == ann
    assert backend.firebase_look_ups == calls + 1


def run(coroutine):
    """Run ``coroutine`` in an event loop of its own thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, coroutine).result()


def test_the_live_and_round_routes_refuse_a_disabled_user(backend, app, sessions, clock):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    resources = SimpleNamespace(sessions=sessions, accounts=backend)
    live = LiveRoute(lambda: resources, wait_seconds=0.1, own=OwnChanges())
    rounds = RoundRoute(lambda: resources, own=OwnChanges())
    asgi = Starlette(routes=web.routes("", live, rounds))

    async def statuses() -> tuple[int, int]:
        transport = httpx.ASGITransport(app=asgi)
        cookies = {"dutch_session": token}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://app", cookies=cookies
        ) as http:
            waited = await http.get(live_route_path(""), params={"game": 999, "since": 0})
            stored = await http.post(round_route_path(""), json={"game": 999, "round": 1})
            return waited.status_code, stored.status_code

    assert run(statuses()) == (404, 404)  # signed in; no such game
    auth.update_user(uid_of(app, "ann@example.com"), disabled=True, app=app)
    clock.advance(seconds=EVERY + 1)
    assert run(statuses()) == (401, 401)
