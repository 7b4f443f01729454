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


def test_the_default_is_an_sqlite_file_in_the_projects_data_folder(tmp_path):
    settings = load_settings(secrets={}, environ={}, project_root=tmp_path)
    assert settings.database_url == f"sqlite:///{tmp_path.as_posix()}/data/dutch.db"
    assert (settings.auth_backend, settings.session_days) == ("local", 30)


def test_the_database_url_alone_makes_no_secret_key(tmp_path):
    assert database_url(secrets={}, environ={}, project_root=tmp_path).endswith("/data/dutch.db")
    assert not (tmp_path / "data").exists()


def test_the_environment_overrides_the_default_and_secrets_override_both(tmp_path):
    environ = {"DUTCH_DATABASE_URL": "postgresql+psycopg://env/dutch", "DUTCH_SESSION_DAYS": "7"}
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
    given = load_settings(secrets={}, environ={"DUTCH_SECRET_KEY": "k" * 40}, project_root=tmp_path)
    assert given.secret_key == "k" * 40


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
            "DUTCH_SECRET_KEY": "s" * 40,
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
