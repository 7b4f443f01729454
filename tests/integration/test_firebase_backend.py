"""What only the Firebase backend does, checked against the Firebase Auth emulator."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import requests
from firebase_admin import auth
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from dutch_app.accounts import (
    AuthFailed,
    EmailTaken,
    NotSupported,
    PasswordChangeRequired,
    RateLimited,
    ServiceUnavailable,
    WeakPassword,
    make_backend,
)
from dutch_app.accounts.firebase import FirebaseBackend
from dutch_app.accounts.firebase_app import check_settings, firebase_app
from dutch_app.accounts.firebase_rest import IdentityToolkit
from dutch_app.accounts.local import LocalBackend
from dutch_app.config import ConfigError, FirebaseSettings, Settings
from dutch_app.storage.db import make_engine, make_session_factory
from dutch_app.storage.models import LocalCredential, User

KEY = b"a test key that signs session tokens"
PASSWORD = "Correct horse 42"
NEW_PASSWORD = "Battery staple 77"


@pytest.fixture
def sessions(migrated_sqlite, tmp_path) -> Iterator[sessionmaker[Session]]:
    path = tmp_path / "dutch.db"
    shutil.copy(migrated_sqlite, path)
    engine = make_engine(f"sqlite:///{path}")
    yield make_session_factory(engine)
    engine.dispose()


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
def backend(sessions, settings) -> FirebaseBackend:
    return FirebaseBackend(sessions, settings, secret_key=KEY)


@pytest.fixture
def app(settings):
    return firebase_app(settings)


@pytest.fixture
def rest(settings) -> IdentityToolkit:
    return IdentityToolkit(settings.api_key, settings.auth_emulator_host)


def out_of_band_codes(emulator, email: str) -> list[str]:
    """The password-reset codes the emulator would have emailed to ``email``."""
    url = f"{emulator.base_url}/emulator/v1/projects/{emulator.project_id}/oobCodes"
    codes = requests.get(url, timeout=10).json()["oobCodes"]
    return [
        c["oobCode"] for c in codes if c["email"] == email and c["requestType"] == "PASSWORD_RESET"
    ]


def reset_password(emulator, code: str, new_password: str) -> None:
    """What the page behind the emailed link does."""
    url = f"{emulator.base_url}/identitytoolkit.googleapis.com/v1/accounts:resetPassword"
    answer = requests.post(
        url,
        params={"key": "demo-api-key"},
        json={"oobCode": code, "newPassword": new_password},
        timeout=10,
    )
    answer.raise_for_status()


def test_sign_up_makes_a_firebase_user_and_a_local_row_without_a_password(backend, app, sessions):
    ann = backend.sign_up("Ann@example.com", PASSWORD, " Ann ")
    record = auth.get_user_by_email("ann@example.com", app=app)
    assert (record.email, record.display_name) == ("ann@example.com", "Ann")
    with sessions() as session:
        row = session.get(User, ann.user_id)
        assert (row.auth_provider, row.auth_subject) == ("firebase", record.uid)
        assert (row.email, row.display_name) == ("ann@example.com", "Ann")
        assert session.scalars(select(LocalCredential)).all() == []


def test_signing_in_a_user_made_elsewhere_creates_the_local_row(backend, app, sessions):
    made = auth.create_user(
        email="bob@example.com", password=PASSWORD, display_name="Bobby", app=app
    )
    bob = backend.sign_in("bob@example.com", PASSWORD)
    assert (bob.email, bob.display_name, bob.provider) == ("bob@example.com", "Bobby", "firebase")
    auth.update_user(made.uid, display_name="Robert", app=app)
    assert backend.sign_in("bob@example.com", PASSWORD) == bob.__class__(
        bob.user_id, "bob@example.com", "Robert", "firebase"
    )
    with sessions() as session:
        assert session.scalars(select(User.auth_subject)).all() == [made.uid]


def test_a_user_without_a_display_name_gets_one_from_the_address(backend, app):
    auth.create_user(email="cid.smith@example.com", password=PASSWORD, app=app)
    assert backend.sign_in("cid.smith@example.com", PASSWORD).display_name == "cid.smith"


def test_renaming_reaches_firebase(backend, app):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    backend.change_display_name(ann.user_id, "Annie")
    assert auth.get_user_by_email("ann@example.com", app=app).display_name == "Annie"


def made_a_minute_ago(app, email: str) -> str:
    """Date back when Firebase last revoked the user's tokens (it counts whole seconds)."""
    uid = auth.get_user_by_email(email, app=app).uid
    a_minute_ago = int((datetime.now(UTC) - timedelta(minutes=1)).timestamp())
    auth.update_user(uid, valid_since=a_minute_ago, app=app)
    return uid


def test_the_reset_email_is_sent_and_the_new_password_ends_old_sessions(backend, emulator, app):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    made_a_minute_ago(app, "ann@example.com")
    token = backend.issue_token(ann.user_id, now=datetime.now(UTC) - timedelta(seconds=30))
    assert backend.resume(token) == ann
    assert backend.password_reset_by_email

    backend.send_password_reset("Ann@Example.com")
    [code] = out_of_band_codes(emulator, "ann@example.com")
    reset_password(emulator, code, NEW_PASSWORD)

    assert backend.resume(token) is None
    with pytest.raises(AuthFailed):
        backend.sign_in("ann@example.com", PASSWORD)
    assert backend.sign_in("ann@example.com", NEW_PASSWORD) == ann
    assert backend.resume(backend.issue_token(ann.user_id)) == ann


def test_a_reset_for_an_unknown_address_says_nothing(backend, emulator):
    backend.send_password_reset("nobody@example.com")
    assert out_of_band_codes(emulator, "nobody@example.com") == []


def test_passwords_are_changed_only_by_the_reset_email(backend):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with pytest.raises(NotSupported):
        backend.change_password(ann.user_id, PASSWORD, NEW_PASSWORD)


def test_signing_out_revokes_firebase_refresh_tokens(backend, app):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    uid = made_a_minute_ago(app, "ann@example.com")
    before = auth.get_user(uid, app=app).tokens_valid_after_timestamp
    backend.sign_out(ann.user_id)
    after = auth.get_user(uid, app=app).tokens_valid_after_timestamp
    assert after - before >= 59_000


def test_a_disabled_firebase_user_can_neither_resume_nor_sign_in(backend, app):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    auth.update_user(auth.get_user_by_email("ann@example.com", app=app).uid, disabled=True, app=app)
    assert backend.resume(token) is None
    with pytest.raises(AuthFailed, match="Email or password is incorrect"):
        backend.sign_in("ann@example.com", PASSWORD)


def test_a_user_deleted_in_firebase_cannot_resume(backend, app):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    auth.delete_user(auth.get_user_by_email("ann@example.com", app=app).uid, app=app)
    assert backend.resume(token) is None


def test_deleting_the_account_deletes_the_firebase_user(backend, app):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    backend.delete_account(ann.user_id, PASSWORD)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("ann@example.com", app=app)


def test_an_address_already_in_firebase_is_taken(backend, app, sessions):
    auth.create_user(email="ann@example.com", password=PASSWORD, app=app)
    with pytest.raises(EmailTaken, match="already has an account") as refused:
        backend.sign_up("ann@example.com", NEW_PASSWORD, "Ann")
    assert refused.value.field == "email"
    with sessions() as session:
        assert session.scalars(select(User)).all() == []


def test_an_unreachable_firebase_is_reported_plainly(sessions, settings):
    dead = IdentityToolkit(settings.api_key, "127.0.0.1:9")  # nothing listens on port 9
    backend = FirebaseBackend(sessions, settings, secret_key=KEY, rest=dead)
    with pytest.raises(ServiceUnavailable, match="not possible right now"):
        backend.sign_in("ann@example.com", PASSWORD)


def test_apps_are_named_per_project_so_several_can_coexist(settings):
    other = FirebaseSettings(
        project_id="demo-other", auth_emulator_host=settings.auth_emulator_host
    )
    assert firebase_app(settings) is firebase_app(settings)
    assert firebase_app(other).project_id == "demo-other"
    assert firebase_app(other) is not firebase_app(settings)


def test_make_backend_builds_the_firebase_backend_from_settings(sessions, settings):
    # With the emulator, no web API key or service account is needed.
    emulated = FirebaseSettings(
        project_id=settings.project_id, auth_emulator_host=settings.auth_emulator_host
    )
    configured = Settings(
        database_url="sqlite://", auth_backend="firebase", secret_key="k", firebase=emulated
    )
    backend = make_backend(sessions, configured)
    assert isinstance(backend, FirebaseBackend)
    assert backend.sign_up("ann@example.com", PASSWORD, "Ann").provider == "firebase"


@pytest.mark.parametrize(
    ("firebase", "missing"),
    [
        (FirebaseSettings(api_key="k", credentials={"type": "service_account"}), "project_id"),
        (FirebaseSettings(project_id="p", credentials={"type": "service_account"}), "api_key"),
        (FirebaseSettings(project_id="p", api_key="k"), "credentials"),
    ],
)
def test_missing_firebase_settings_are_named(firebase, missing):
    with pytest.raises(ConfigError, match=f"firebase.{missing}"):
        check_settings(firebase)


def test_reprs_show_no_key_or_token(backend, rest):
    signed = rest.sign_up("ann@example.com", PASSWORD, "Ann")
    shown = " ".join(map(repr, (backend, rest, signed)))
    assert "demo-api-key" not in shown
    assert signed.id_token not in shown


def test_parallel_guesses_reach_firebase_only_as_often_as_the_limit_allows(sessions, settings):
    """Twelve guesses at the same moment through two servers: Firebase checks exactly five."""
    servers = [FirebaseBackend(sessions, settings, secret_key=KEY) for _ in range(2)]
    servers[0].sign_up("ann@example.com", PASSWORD, "Ann")
    barrier = threading.Barrier(12)
    outcomes: list[str] = []

    def guess(server: FirebaseBackend) -> None:
        barrier.wait(timeout=30)
        try:
            server.sign_in("ann@example.com", NEW_PASSWORD, client="198.51.100.66")
        except (AuthFailed, RateLimited) as error:
            outcomes.append(type(error).__name__)

    threads = [threading.Thread(target=guess, args=(servers[i % 2],)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(outcomes) == ["AuthFailed"] * 5 + ["RateLimited"] * 7


def test_a_failing_firebase_does_not_count_as_a_wrong_password(sessions, settings):
    dead = IdentityToolkit(settings.api_key, "127.0.0.1:9")  # nothing listens on port 9
    backend = FirebaseBackend(sessions, settings, secret_key=KEY, rest=dead)
    for _ in range(8):
        with pytest.raises(ServiceUnavailable):
            backend.sign_in("ann@example.com", PASSWORD, client="198.51.100.66")


def test_register_answers_alike_for_an_address_firebase_already_has(backend, app, sessions):
    auth.create_user(email="ann@example.com", password=PASSWORD, app=app)
    assert backend.register("ann@example.com", NEW_PASSWORD, "Eve", client="198.51.100.66") is None
    with sessions() as session:
        assert session.scalars(select(User)).all() == []
    assert backend.register("bob@example.com", PASSWORD, "Bob") is None
    assert backend.sign_in("bob@example.com", PASSWORD).display_name == "Bob"


# --- Accounts made outside the app -----------------------------------------------------------


def public_sign_up(emulator, email: str, password: str, display_name: str) -> None:
    """Make an account as anyone can with the web API key: Firebase's public sign-up,
    bypassing the app and its rules."""
    url = f"{emulator.base_url}/identitytoolkit.googleapis.com/v1/accounts:signUp"
    body = {"email": email, "password": password, "displayName": display_name}
    answer = requests.post(url, params={"key": "demo-api-key"}, json=body, timeout=10)
    assert answer.ok, answer.text


def local_users(sessions) -> list[User]:
    with sessions() as session:
        return list(session.scalars(select(User)))


def test_a_weak_password_made_outside_the_app_must_be_replaced_before_signing_in(
    emulator, backend, sessions
):
    public_sign_up(emulator, "weak@example.com", "abcdef", "Wendy")
    with pytest.raises(PasswordChangeRequired) as required:
        backend.sign_in("weak@example.com", "abcdef")
    assert "use at least 10 characters" in required.value.message
    assert local_users(sessions) == []  # not signed in, nothing kept yet
    with pytest.raises(WeakPassword):
        backend.replace_weak_password("weak@example.com", "abcdef", "abcdefgh")
    with pytest.raises(AuthFailed):
        backend.replace_weak_password("weak@example.com", "wrong one", NEW_PASSWORD)

    account = backend.replace_weak_password("weak@example.com", "abcdef", NEW_PASSWORD)
    assert (account.email, account.display_name) == ("weak@example.com", "Wendy")
    assert backend.sign_in("weak@example.com", NEW_PASSWORD).user_id == account.user_id
    with pytest.raises(AuthFailed):
        backend.sign_in("weak@example.com", "abcdef")


def test_a_local_account_never_needs_the_replacement(backend, sessions):
    local = LocalBackend(sessions, secret_key=KEY)
    with pytest.raises(NotSupported):
        local.replace_weak_password("ann@example.com", PASSWORD, NEW_PASSWORD)


@pytest.mark.parametrize(
    "display_name",
    ["", "Eve\x00", "Eve\u202egnirts", "E" * 200, "\ud83d", "Eve\nNewline"],
    ids=["empty", "nul", "direction-override", "too-long", "lone-surrogate", "newline"],
)
def test_a_display_name_made_outside_the_app_is_replaced_before_use(
    emulator, backend, sessions, display_name
):
    public_sign_up(emulator, "eve.b@example.com", PASSWORD, display_name)
    account = backend.sign_in("eve.b@example.com", PASSWORD)
    expected = "Eve Newline" if display_name == "Eve\nNewline" else "eve.b"
    assert account.display_name == expected
    assert [user.display_name for user in local_users(sessions)] == [expected]
    # Renamed in the app, the name holds at the next sign-in.
    backend.change_display_name(account.user_id, "Eve")
    assert backend.sign_in("eve.b@example.com", PASSWORD).display_name == "Eve"
