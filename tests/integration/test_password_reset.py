"""Password reset for local accounts: one-time links by email or printed for the host.

Every test runs on SQLite and on PostgreSQL. Emails go to a real SMTP server on
loopback; the clock is passed in, so expiry is tested without waiting.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from sqlalchemy import event, func, select

from dutch_app import throttle
from dutch_app.accounts import AuthFailed, WeakPassword, make_backend
from dutch_app.accounts.local import LocalBackend
from dutch_app.accounts.passwords import PasswordHashes
from dutch_app.accounts.reset import (
    RESET_MINUTES,
    ResetLinkInvalid,
    ResetRequestsLimited,
)
from dutch_app.config import ConfigError, SmtpSettings, load_settings
from dutch_app.storage.models import PasswordReset, ThrottleCounter
from tests.mailbox import Mailbox, smtp_server  # noqa: F401 (a fixture)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
KEY = b"a test key that signs session tokens"
PASSWORD = "Correct horse 42"
NEW_PASSWORD = "Battery staple 77"
BASE_URL = "https://scores.example.org"
LINK = re.compile(re.escape(BASE_URL) + r"/\?reset=([A-Za-z0-9_-]+)")


def local_backend(sessions, clock, smtp: SmtpSettings | None = None) -> LocalBackend:
    hashes = PasswordHashes(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    resets = {"base_url": BASE_URL, "smtp": smtp or SmtpSettings()}
    return LocalBackend(sessions, secret_key=KEY, clock=clock, hashes=hashes, resets=resets)


@pytest.fixture
def backend(sessions, clock, smtp_server: Mailbox) -> LocalBackend:  # noqa: F811
    made = local_backend(sessions, clock, smtp_server.settings)
    made.sign_up("ann@example.com", PASSWORD, "Ann")
    return made


def emailed_token(mailbox: Mailbox, count: int = 1) -> str:
    """The token of the link in the ``count``-th email."""
    body = mailbox.wait_for(count)[count - 1].get_content()
    found = LINK.search(body)
    assert found, body
    return found.group(1)


def test_forgot_password_emails_a_one_time_link(backend, smtp_server):  # noqa: F811
    assert backend.reset_email_available
    backend.send_password_reset(" Ann@Example.com ")
    message = smtp_server.wait_for(1)[0]
    assert message["To"] == "ann@example.com"
    assert message["From"] == "Dutch Scorer <scores@example.org>"
    body = message.get_content()
    assert f"within {RESET_MINUTES} minutes" in body
    token = emailed_token(smtp_server)
    assert backend.reset_link_valid(token)


def test_only_a_hash_of_the_token_is_stored(backend, sessions, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    token = emailed_token(smtp_server)
    with sessions() as session:
        rows = session.scalars(select(PasswordReset)).all()
    assert len(rows) == 1
    assert rows[0].token_hash == hashlib.sha256(token.encode()).hexdigest()
    values = [str(getattr(rows[0], c.key)) for c in PasswordReset.__table__.columns]
    assert not any(token in value for value in values)


def test_the_new_password_works_the_old_one_not_and_sessions_end(backend, smtp_server):  # noqa: F811
    ann = backend.sign_in("ann@example.com", PASSWORD)
    saved = backend.issue_token(ann.user_id)
    backend.send_password_reset("ann@example.com")
    changed = backend.reset_password(emailed_token(smtp_server), NEW_PASSWORD)
    assert changed == ann
    assert backend.resume(saved) is None
    assert backend.sign_in("ann@example.com", NEW_PASSWORD) == ann
    with pytest.raises(AuthFailed):
        backend.sign_in("ann@example.com", PASSWORD)


def test_the_address_is_told_when_its_password_was_changed(backend, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    backend.reset_password(emailed_token(smtp_server), NEW_PASSWORD)
    notice = smtp_server.wait_for(2)[1]
    assert notice["To"] == "ann@example.com"
    assert notice["Subject"] == "Your Dutch Scorer password was changed"
    assert "signed out on every device" in notice.get_content()
    assert "?reset=" not in notice.get_content()


def test_changing_the_password_voids_a_link_made_before(backend, clock, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    token = emailed_token(smtp_server)
    ann = backend.sign_in("ann@example.com", PASSWORD)
    clock.advance(seconds=1)
    backend.change_password(ann.user_id, PASSWORD, NEW_PASSWORD)
    assert not backend.reset_link_valid(token)
    with pytest.raises(ResetLinkInvalid):
        backend.reset_password(token, "Another one 99")
    assert backend.sign_in("ann@example.com", NEW_PASSWORD) == ann


def test_a_link_works_only_once(backend, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    token = emailed_token(smtp_server)
    backend.reset_password(token, NEW_PASSWORD)
    assert not backend.reset_link_valid(token)
    with pytest.raises(ResetLinkInvalid, match="expired or has already been used"):
        backend.reset_password(token, "Another one 99")
    assert backend.sign_in("ann@example.com", NEW_PASSWORD).email == "ann@example.com"


def test_two_uses_at_the_same_moment_change_the_password_once(backend, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    token = emailed_token(smtp_server)
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def use(password: str) -> None:
        start.wait()
        try:
            backend.reset_password(token, password)
            outcomes.append(password)
        except ResetLinkInvalid:
            outcomes.append("refused")

    threads = [threading.Thread(target=use, args=(p,)) for p in ("First pass 111", "Second 222!")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes).count("refused") == 1
    winner = next(outcome for outcome in outcomes if outcome != "refused")
    assert backend.sign_in("ann@example.com", winner).email == "ann@example.com"


def test_a_link_expires_after_thirty_minutes(backend, clock, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    token = emailed_token(smtp_server)
    clock.advance(minutes=RESET_MINUTES - 1)
    assert backend.reset_link_valid(token)
    clock.advance(minutes=1, seconds=1)
    assert not backend.reset_link_valid(token)
    with pytest.raises(ResetLinkInvalid):
        backend.reset_password(token, NEW_PASSWORD)
    assert backend.sign_in("ann@example.com", PASSWORD).email == "ann@example.com"


def test_a_newer_link_replaces_the_older_one(backend, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    older = emailed_token(smtp_server, 1)
    backend.send_password_reset("ann@example.com")
    newer = emailed_token(smtp_server, 2)
    assert not backend.reset_link_valid(older)
    assert backend.reset_link_valid(newer)


@pytest.mark.parametrize(
    "token",
    ["", "x" * 43, "A" * 5000, "ab\udcffcd" * 8, "١٢٣" * 15, None, 42, "../../etc/passwd"],
)
def test_wrong_or_odd_tokens_are_refused_cleanly(backend, token):
    assert not backend.reset_link_valid(token)
    with pytest.raises(ResetLinkInvalid):
        backend.reset_password(token, NEW_PASSWORD)


def test_the_new_password_follows_the_sign_up_rules_and_a_refusal_keeps_the_link(
    backend,
    smtp_server,  # noqa: F811
):
    backend.send_password_reset("ann@example.com")
    token = emailed_token(smtp_server)
    with pytest.raises(WeakPassword, match="at least 10 characters"):
        backend.reset_password(token, "short1")
    with pytest.raises(WeakPassword, match="your email address"):
        backend.reset_password(token, "ann@example.com")
    assert backend.reset_link_valid(token)
    backend.reset_password(token, NEW_PASSWORD)


def test_an_unknown_address_gets_the_same_silence_and_no_email(
    backend,
    sessions,
    smtp_server,  # noqa: F811
):
    assert backend.send_password_reset("nobody@example.com") is None
    backend.send_password_reset("ann@example.com")
    messages = smtp_server.wait_for(1)
    assert [m["To"] for m in messages] == ["ann@example.com"]
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(PasswordReset)) == 1


def statements_of(sessions, work, *args) -> list[str]:
    """The SQL statements ``work(*args)`` sends through the engine of ``sessions``, in order."""
    engine = sessions.kw["bind"]
    sent: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        sent.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", record)
    try:
        work(*args)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return sent


def test_a_request_does_the_same_database_work_with_or_without_an_account(
    backend,
    sessions,
    monkeypatch,
    smtp_server,  # noqa: F811
):
    """Work done only for addresses with an account makes their answer slower, so the
    time of a request would tell whether an address has an account."""
    monkeypatch.setattr(throttle, "CLEAN_UP_CHANCE", 0)  # no housekeeping by chance
    backend.sign_up("bo@example.com", PASSWORD, "Bo")
    for known, unknown in (("ann@example.com", "nobody@example.com"),) * 2 + (
        ("BO@example.com", "nobody-else@example.com"),
    ):
        with_account = statements_of(sessions, backend.send_password_reset, known)
        without = statements_of(sessions, backend.send_password_reset, unknown)
        assert with_account == without
        assert len(with_account) >= 3  # not nothing: the counter, the lookup, the link


def test_reset_requests_are_limited_per_address_the_same_way_with_or_without_an_account(
    backend,
    sessions,
    smtp_server,  # noqa: F811
):
    for address in ("ann@example.com", "nobody@example.com"):
        for _ in range(5):
            backend.send_password_reset(address)
        with pytest.raises(ResetRequestsLimited, match="Try again in 15 minutes") as caught:
            backend.send_password_reset(address)
        assert caught.value.field == "email"
    assert backend.sign_in("ann@example.com", PASSWORD).email == "ann@example.com"
    with sessions() as session:
        keys = set(session.execute(select(ThrottleCounter.scope, ThrottleCounter.key)))
    assert ("reset_address", "ann@example.com") in keys


def test_a_failing_mail_server_does_not_surface(sessions, clock, caplog):
    dead = SmtpSettings(host="127.0.0.1", port=9, sender="scores@example.org", tls="none")
    backend = local_backend(sessions, clock, dead)
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    backend.send_password_reset("ann@example.com")
    for thread in threading.enumerate():
        if thread.name == "reset-mail":
            thread.join(30)
    assert "password-reset email could not be sent" in caplog.text


def test_without_smtp_the_sign_in_page_cannot_email_links(sessions, tmp_path):
    backend = make_backend(sessions, load_settings(secrets={}, environ={}, project_root=tmp_path))
    assert isinstance(backend, LocalBackend)
    assert not backend.reset_email_available and not backend.password_reset_by_email


# --- The host's command ----------------------------------------------------------------------


def run_reset_command(database: str, *args: str) -> subprocess.CompletedProcess:
    environ = {
        **os.environ,
        "DUTCH_DATABASE_URL": database,
        "DUTCH_SECRET_KEY": KEY.decode(),
        "DUTCH_AUTH_BACKEND": "local",
        "DUTCH_BASE_URL": BASE_URL + "/",
    }
    return subprocess.run(
        [sys.executable, "-m", "dutch_app.accounts.reset", *args],
        cwd=PROJECT_ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_host_command_prints_a_one_time_link(database, sessions, clock):
    backend = local_backend(sessions, clock)
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    done = run_reset_command(database, "ANN@example.com")
    assert done.returncode == 0, done.stderr
    link = done.stdout.strip()
    token = LINK.fullmatch(link).group(1)
    assert f"works once, within {RESET_MINUTES} minutes" in done.stderr
    assert backend.reset_password(token, NEW_PASSWORD) == ann
    assert not backend.reset_link_valid(token)


def test_the_host_command_says_when_no_local_account_has_the_address(database, sessions):
    done = run_reset_command(database, "nobody@example.com")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "No local account uses 'nobody@example.com'." in done.stderr
    bad = run_reset_command(database, "not an address")
    assert bad.returncode == 2
    assert "is not a valid email address" in bad.stderr


# --- Settings --------------------------------------------------------------------------------


def test_smtp_and_base_url_settings_come_from_secrets_or_the_environment(tmp_path):
    secrets = {
        "base_url": "https://scores.example.org/",
        "smtp": {"host": "mail.example.org", "port": 2525, "user": "u", "password": "s3cr3t-pw",
                 "from": "scores@example.org", "tls": "SSL"},
    }  # fmt: skip
    settings = load_settings(secrets=secrets, environ={}, project_root=tmp_path)
    assert settings.base_url == "https://scores.example.org"
    assert settings.smtp == SmtpSettings(
        "mail.example.org", 2525, "u", "s3cr3t-pw", "scores@example.org", "ssl"
    )
    assert "s3cr3t-pw" not in repr(settings)
    environ = {"DUTCH_SMTP_HOST": "relay", "DUTCH_SMTP_FROM": "a@example.org"}
    from_env = load_settings(secrets={}, environ=environ, project_root=tmp_path)
    assert from_env.smtp.configured and from_env.smtp.port == 587
    assert from_env.smtp.tls == "starttls"
    assert load_settings(secrets={}, environ={}, project_root=tmp_path).base_url == (
        "http://localhost:8501"
    )


@pytest.mark.parametrize(
    ("secrets", "complaint"),
    [
        ({"smtp": {"host": "relay", "from": "a@b.org", "port": "99999"}}, "smtp port"),
        ({"smtp": {"host": "relay", "from": "a@b.org", "tls": "yes"}}, "smtp tls"),
        ({"smtp": {"host": "relay"}}, "smtp from"),
        ({"base_url": "scores.example.org"}, "base_url"),
        ({"base_url": "javascript:alert(1)"}, "base_url"),
    ],
)
def test_bad_reset_settings_are_refused_by_name(secrets, complaint, tmp_path):
    with pytest.raises(ConfigError, match=complaint):
        load_settings(secrets=secrets, environ={}, project_root=tmp_path)


def test_deleting_the_account_drops_its_reset_links(backend, sessions, smtp_server):  # noqa: F811
    backend.send_password_reset("ann@example.com")
    token = emailed_token(smtp_server)
    ann = backend.sign_in("ann@example.com", PASSWORD)
    backend.delete_account(ann.user_id, PASSWORD)
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(PasswordReset)) == 0
    assert not backend.reset_link_valid(token)
