"""Settings: Streamlit secrets first (only when a secrets file exists), then the environment."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from dutch_app.config import ConfigError, database_url, load_settings

PROJECT_ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "Gq7vN2xPz0Lr8TbWc4YhJm6KsDf1EaUo9IiQ3lRnVe5"


def test_the_default_is_an_sqlite_file_in_the_projects_data_folder(tmp_path):
    settings = load_settings(secrets={}, environ={}, project_root=tmp_path)
    assert settings.database_url == f"sqlite:///{tmp_path.as_posix()}/data/dutch.db"
    assert (settings.auth_backend, settings.session_days) == ("local", 30)


def test_the_database_url_alone_makes_no_secret_key(tmp_path):
    assert database_url(secrets={}, environ={}, project_root=tmp_path).endswith("/data/dutch.db")
    assert not (tmp_path / "data").exists()


def test_the_environment_overrides_the_default_and_secrets_override_both(tmp_path):
    environ = {
        "DUTCH_DATABASE_URL": "postgresql+psycopg://env/dutch",
        "DUTCH_SESSION_DAYS": "7",
        "DUTCH_SECRET_KEY": STRONG_KEY,
    }
    from_env = load_settings(secrets={}, environ=environ, project_root=tmp_path)
    assert (from_env.database_url, from_env.session_days) == ("postgresql+psycopg://env/dutch", 7)
    secrets = {"database_url": "postgresql+psycopg://secret/dutch", "auth_backend": "firebase"}
    from_secrets = load_settings(secrets=secrets, environ=environ, project_root=tmp_path)
    assert from_secrets.database_url == "postgresql+psycopg://secret/dutch"
    assert from_secrets.auth_backend == "firebase"


def test_firebase_settings_come_from_their_own_section(tmp_path):
    secrets = {"firebase": {"project_id": "demo-dutch", "credentials": {"type": "x"}}}
    environ = {"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"}
    firebase = load_settings(secrets=secrets, environ=environ, project_root=tmp_path).firebase
    assert (firebase.project_id, firebase.auth_emulator_host) == ("demo-dutch", "127.0.0.1:9099")
    assert firebase.credentials == {"type": "x"}


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"DUTCH_AUTH_BACKEND": "ldap"}, "auth_backend must be 'local' or 'firebase', not 'ldap'"),
        ({"DUTCH_SESSION_DAYS": "forever"}, "session_days must be a whole number"),
    ],
)
def test_unusable_settings_are_named(tmp_path, environ, message):
    with pytest.raises(ConfigError, match=message):
        load_settings(secrets={}, environ=environ, project_root=tmp_path)


def test_a_local_secret_key_is_made_once_and_kept_private(tmp_path):
    first = load_settings(secrets={}, environ={}, project_root=tmp_path).secret_key
    again = load_settings(secrets={}, environ={}, project_root=tmp_path).secret_key
    assert first == again and len(first) >= 32
    key_file = tmp_path / "data" / ".secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    given = load_settings(
        secrets={}, environ={"DUTCH_SECRET_KEY": STRONG_KEY}, project_root=tmp_path
    )
    assert given.secret_key == STRONG_KEY


def read_url_in(folder: Path, environ: dict[str, str]) -> list[str]:
    """Load the settings in a fresh interpreter started in ``folder`` with HOME there too."""
    program = (
        "import sys; from dutch_app.config import load_settings; "
        "print(load_settings().database_url); print('streamlit' in sys.modules)"
    )
    finished = subprocess.run(
        [sys.executable, "-c", program],
        cwd=folder,
        env={
            **os.environ,
            "HOME": str(folder),
            "PYTHONPATH": str(PROJECT_ROOT),
            "DUTCH_SECRET_KEY": STRONG_KEY,
            **environ,
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return finished.stdout.split()


def test_without_a_secrets_file_streamlit_is_not_even_asked(tmp_path):
    url, asked = read_url_in(tmp_path, {"DUTCH_DATABASE_URL": "sqlite:////tmp/from-env.db"})
    assert (url, asked) == ("sqlite:////tmp/from-env.db", "False")


def test_a_secrets_file_is_read_through_streamlit(tmp_path):
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        'database_url = "sqlite:////tmp/from-secrets.db"\n', encoding="utf-8"
    )
    url, asked = read_url_in(tmp_path, {"DUTCH_DATABASE_URL": "sqlite:////tmp/from-env.db"})
    assert (url, asked) == ("sqlite:////tmp/from-secrets.db", "True")


def test_hosted_is_off_by_default_and_read_as_true_or_false(tmp_path):
    def hosted(secrets, environ):
        keyed = {"DUTCH_SECRET_KEY": "Xq3-rT9_wL2mZ8vB1nK7yH4cF6dJ0sPa-hosted", **environ}
        return load_settings(secrets=secrets, environ=keyed, project_root=tmp_path).hosted

    assert hosted({}, {}) is False
    assert hosted({}, {"DUTCH_HOSTED": "true"}) is True
    assert hosted({"hosted": True}, {"DUTCH_HOSTED": "no"}) is True  # a secrets file's TOML bool
    assert hosted({"hosted": False}, {"DUTCH_HOSTED": "1"}) is False
    with pytest.raises(ConfigError, match="hosted must be true or false, not 'maybe'"):
        hosted({}, {"DUTCH_HOSTED": "maybe"})


# --- The secret key -------------------------------------------------------------------------

EXAMPLE = PROJECT_ROOT / ".streamlit" / "secrets.toml.example"


def example_placeholder() -> str:
    import tomllib

    return tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))["secret_key"]


@pytest.mark.parametrize(
    ("key", "fault"),
    [
        (example_placeholder(), "is a placeholder"),
        ("replace-with-a-long-random-value-please-0123456789", "is a placeholder"),
        ("x", "has 1 characters; it needs at least 32"),
        ("Short-but-varied-key-1234", "has 25 characters"),
        ("k" * 64, "repeats a few characters"),
        ("abcdefghij" * 4, "repeats a few characters"),
        ("abababababababababababababababababab", "repeats a few characters"),
    ],
)
def test_a_weak_or_placeholder_key_is_refused_with_a_clear_message(tmp_path, key, fault):
    for given in ({"DUTCH_SECRET_KEY": key}, {}):
        secrets = {} if given else {"secret_key": key}
        with pytest.raises(ConfigError, match=rf"^secret_key .*the secret key {fault}.*token_"):
            load_settings(secrets=secrets, environ=given, project_root=tmp_path)


@pytest.mark.parametrize(
    "settings",
    [
        {"database_url": "postgresql+psycopg://host/dutch"},
        {"auth_backend": "firebase"},
    ],
    ids=["postgresql", "firebase"],
)
def test_a_hosted_set_up_will_not_start_without_a_key_of_its_own(tmp_path, settings):
    with pytest.raises(ConfigError, match=r"^secret_key: a hosted set-up .* the same on every"):
        load_settings(secrets=settings, environ={}, project_root=tmp_path)
    assert not (tmp_path / "data").exists()  # no local key file is made for it either
    hosted = load_settings(secrets={**settings, "secret_key": STRONG_KEY}, environ={})
    assert hosted.secret_key == STRONG_KEY


def test_an_empty_or_weak_key_file_is_refused_not_used(tmp_path):
    (tmp_path / "data").mkdir()
    key_file = tmp_path / "data" / ".secret_key"
    for content in ("", "short\n"):
        key_file.write_text(content, encoding="utf-8")
        with pytest.raises(ConfigError, match=r"\.secret_key: the secret key has"):
            load_settings(secrets={}, environ={}, project_root=tmp_path)


def test_the_data_folder_key_file_and_database_are_the_owners_alone(tmp_path):
    from dutch_app.storage.db import get_engine

    settings = load_settings(secrets={}, environ={}, project_root=tmp_path)
    engine = get_engine(settings.database_url)
    engine.dispose()
    data = tmp_path / "data"
    modes = {
        path.name: stat.S_IMODE(path.stat().st_mode)
        for path in (data, data / ".secret_key", data / "dutch.db")
    }
    assert modes == {"data": 0o700, ".secret_key": 0o600, "dutch.db": 0o600}


def test_an_existing_database_readable_by_others_is_made_private(tmp_path):
    from dutch_app.storage.db import make_engine

    path = tmp_path / "old.db"
    path.write_bytes(b"")
    path.chmod(0o644)
    make_engine(f"sqlite:///{path}").dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


RACE = """
import sys, time
from pathlib import Path
from dutch_app.config import local_secret_key
start = float(sys.argv[2])
while time.time() < start:
    pass
print(local_secret_key(Path(sys.argv[1])))
"""


@pytest.mark.parametrize("trial", range(3))
def test_servers_starting_together_on_a_fresh_data_folder_agree_on_one_key(tmp_path, trial):
    """Several processes make the key file at the same moment: all read the same key."""
    import time

    start = time.time() + 1.5
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACE, str(tmp_path), str(start)],
            env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    keys = []
    for racer in racers:
        out, err = racer.communicate(timeout=60)
        assert racer.returncode == 0, err
        keys.append(out.strip())
    assert len(set(keys)) == 1 and len(keys[0]) >= 32
    assert keys[0] == (tmp_path / "data" / ".secret_key").read_text(encoding="utf-8")
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == [".secret_key"]


def test_the_settings_check_refuses_to_start_with_a_clear_message(tmp_path):
    def check(environ: dict[str, str]) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "dutch_app.config"],
            cwd=tmp_path,
            env={**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(PROJECT_ROOT), **environ},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    weak = check({"DUTCH_SECRET_KEY": example_placeholder()})
    assert weak.returncode == 1
    assert weak.stderr.startswith("Dutch Scorer cannot start: secret_key")
    hosted = check({"DUTCH_DATABASE_URL": "postgresql+psycopg://h/d", "DUTCH_SECRET_KEY": ""})
    assert hosted.returncode == 1 and "hosted set-up" in hosted.stderr
    good = check({"DUTCH_SECRET_KEY": STRONG_KEY})
    assert good.returncode == 0, good.stderr


def test_a_key_file_is_never_read_half_written_even_on_a_slow_disk(tmp_path, monkeypatch):
    """While one server is still writing a fresh key file, the others starting with it must
    not read it empty: they wait for, or link in, a whole key, and all agree on one."""
    import threading

    from dutch_app import config

    real_fdopen = os.fdopen

    class SlowFile:
        def __init__(self, handle):
            self._handle = handle

        def __enter__(self):
            self._handle.__enter__()
            return self

        def __exit__(self, *exc):
            return self._handle.__exit__(*exc)

        def write(self, text):
            # A slow disk: the file exists, its key is not in it yet, until all the servers
            # are writing one (a server that reads a file instead never gets here, and
            # the wait breaks).
            writing.wait(timeout=10)
            return self._handle.write(text)

        def __getattr__(self, name):
            return getattr(self._handle, name)

    monkeypatch.setattr(config.os, "fdopen", lambda *a, **k: SlowFile(real_fdopen(*a, **k)))
    keys: list[str] = []
    errors: list[BaseException] = []

    def start_server() -> None:
        try:
            keys.append(config.local_secret_key(tmp_path))
        except BaseException as error:
            errors.append(error)

    servers = [threading.Thread(target=start_server) for _ in range(4)]
    writing = threading.Barrier(len(servers))
    for server in servers:
        server.start()
    for server in servers:
        server.join(timeout=30)
    assert errors == []
    assert len(keys) == 4 and len(set(keys)) == 1 and len(keys[0]) >= 32


def test_hosted_true_alone_also_needs_a_key_of_its_own(tmp_path):
    """A server marked as hosted signs cookies that must hold on every server: no made-up key."""
    with pytest.raises(ConfigError, match=r"^secret_key: a hosted set-up"):
        load_settings(secrets={}, environ={"DUTCH_HOSTED": "true"}, project_root=tmp_path)


def test_limits_come_from_the_secrets_or_the_environment_and_bad_ones_are_named():
    from dutch_app.config import Limits, load_limits

    assert load_limits({}, {}) == Limits()
    read = load_limits(
        {"limits": {"trusted_proxies": 1, "hashing_wait_seconds": "2.5"}},
        {"DUTCH_MAX_PLAYERS_PER_GROUP": "400", "DUTCH_TRUSTED_PROXIES": "3"},
    )
    assert (read.trusted_proxies, read.hashing_wait_seconds) == (1, 2.5)
    assert read.max_players_per_group == 400
    for bad in ("many", "0", "-1", "2.5"):
        with pytest.raises(ConfigError, match=r"^limits\.max_groups_per_person must be"):
            load_limits({}, {"DUTCH_MAX_GROUPS_PER_PERSON": bad})
