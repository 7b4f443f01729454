"""Settings, read from Streamlit secrets, then the environment, then local defaults.

Streamlit secrets are consulted only when a secrets file exists, so scripts and
tests run without one. Keys (all optional)::

    database_url = "postgresql+psycopg://user:password@host/dutch"
    auth_backend = "firebase"            # or "local"
    session_days = 30
    secret_key = "..."                   # signs session tokens
    [firebase]
    project_id = "..."
    api_key = "..."                      # web API key, for password sign-in
    auth_emulator_host = "localhost:9099"
    [firebase.credentials]               # a service account, as in its JSON file
    type = "service_account"
    [limits]                             # see `Limits` and docs/limits.md
    trusted_proxies = 1

The environment variables are ``DUTCH_DATABASE_URL``, ``DUTCH_AUTH_BACKEND``,
``DUTCH_SESSION_DAYS``, ``DUTCH_SECRET_KEY``, ``DUTCH_FIREBASE_PROJECT_ID``,
``DUTCH_FIREBASE_API_KEY`` and ``FIREBASE_AUTH_EMULATOR_HOST``.
"""

from __future__ import annotations

import functools
import os
import secrets as token_source
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
AUTH_BACKENDS = ("local", "firebase")


class ConfigError(ValueError):
    """A setting has a value the app cannot use."""


@dataclass(frozen=True)
class FirebaseSettings:
    """What the Firebase sign-in needs; empty strings when not configured."""

    project_id: str = ""
    api_key: str = ""
    auth_emulator_host: str = ""
    credentials: Mapping[str, Any] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Limits:
    """Caps and throttling knobs; the defaults are far beyond what a real group ever needs.

    Read from the ``[limits]`` section of the secrets, or from ``DUTCH_<NAME>`` environment
    variables (``DUTCH_MAX_PLAYERS_PER_GROUP=400``).
    """

    trusted_proxies: int = 0
    """Reverse proxies in front of the app whose ``X-Forwarded-For`` entries are trusted
    (0: throttle by the connection's own address, which a proxy would hide)."""
    max_groups_per_person: int = 50
    """Groups one person can belong to, made or joined."""
    max_demo_groups_per_day: int = 3
    """Demo groups one person can load in a day."""
    max_players_per_group: int = 300
    """Players in one group, merged ones included (each keeps its row)."""
    hashing_slots: int = 1
    """Password checks or hashes one server process runs at the same time."""
    hashing_wait_seconds: float = 5.0
    """How long a sign-in waits for a free slot before it is told to try again."""


@dataclass(frozen=True)
class Settings:
    """Everything the app reads from its surroundings."""

    database_url: str
    auth_backend: str = "local"
    session_days: int = 30
    secret_key: str = field(default="", repr=False)
    firebase: FirebaseSettings = FirebaseSettings()
    limits: Limits = Limits()


def default_database_url(project_root: Path = PROJECT_ROOT) -> str:
    """The embedded SQLite database in ``data/`` of the project (made on first use)."""
    return f"sqlite:///{(project_root / 'data' / 'dutch.db').as_posix()}"


def streamlit_secrets() -> Mapping[str, Any]:
    """Streamlit's secrets as a plain dict, or {} when no secrets file exists."""
    candidates = (
        Path.home() / ".streamlit" / "secrets.toml",
        Path.cwd() / ".streamlit" / "secrets.toml",
    )
    if not any(path.is_file() for path in candidates):
        return {}
    import streamlit as st

    return st.secrets.to_dict()


def _pick(secrets: Mapping[str, Any], environ: Mapping[str, str], key: str, env_key: str) -> str:
    value = secrets.get(key)
    if value is None or value == "":
        value = environ.get(env_key, "")
    return str(value)


def database_url(
    secrets: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    project_root: Path = PROJECT_ROOT,
) -> str:
    """Only the database URL (what migrations and the engine need)."""
    secrets = streamlit_secrets() if secrets is None else secrets
    environ = os.environ if environ is None else environ
    return _pick(secrets, environ, "database_url", "DUTCH_DATABASE_URL") or (
        default_database_url(project_root)
    )


def load_settings(
    secrets: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    project_root: Path = PROJECT_ROOT,
) -> Settings:
    """Read the settings; ``secrets`` and ``environ`` default to the real ones."""
    secrets = streamlit_secrets() if secrets is None else secrets
    environ = os.environ if environ is None else environ

    def pick(key: str, env_key: str, default: str = "") -> str:
        return _pick(secrets, environ, key, env_key) or default

    auth_backend = pick("auth_backend", "DUTCH_AUTH_BACKEND", "local").lower()
    if auth_backend not in AUTH_BACKENDS:
        raise ConfigError(f"auth_backend must be 'local' or 'firebase', not {auth_backend!r}")
    days_text = pick("session_days", "DUTCH_SESSION_DAYS", "30")
    if not days_text.isdigit() or int(days_text) < 1:
        raise ConfigError(f"session_days must be a whole number of days, not {days_text!r}")
    return Settings(
        database_url=database_url(secrets, environ, project_root),
        auth_backend=auth_backend,
        session_days=int(days_text),
        secret_key=pick("secret_key", "DUTCH_SECRET_KEY") or local_secret_key(project_root),
        firebase=_firebase_settings(secrets.get("firebase") or {}, environ),
        limits=load_limits(secrets, environ),
    )


def _firebase_settings(section: Mapping[str, Any], environ: Mapping[str, str]) -> FirebaseSettings:
    credentials = section.get("credentials")
    return FirebaseSettings(
        project_id=str(section.get("project_id") or environ.get("DUTCH_FIREBASE_PROJECT_ID", "")),
        api_key=str(section.get("api_key") or environ.get("DUTCH_FIREBASE_API_KEY", "")),
        auth_emulator_host=str(
            section.get("auth_emulator_host") or environ.get("FIREBASE_AUTH_EMULATOR_HOST", "")
        ),
        credentials=dict(credentials) if credentials else None,
    )


def local_secret_key(project_root: Path = PROJECT_ROOT) -> str:
    """The key kept in ``data/.secret_key`` for local use, made the first time it is needed."""
    path = project_root / "data" / ".secret_key"
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = token_source.token_urlsafe(48)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it a moment ago
        return path.read_text(encoding="utf-8").strip()
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(key)
    return key


LIMIT_NAMES = tuple(Limits.__dataclass_fields__)


def load_limits(
    secrets: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> Limits:
    """Read the limits; a value that is not a number of the right kind is named in the error."""
    secrets = streamlit_secrets() if secrets is None else secrets
    environ = os.environ if environ is None else environ
    section = secrets.get("limits") or {}
    values: dict[str, Any] = {}
    for name in LIMIT_NAMES:
        raw = section.get(name)
        if raw is None or raw == "":
            raw = environ.get(f"DUTCH_{name.upper()}", "")
        if raw == "":
            continue
        default = getattr(Limits, name)
        try:
            value = type(default)(str(raw).strip())
        except ValueError:
            value = None
        smallest = 0 if name == "trusted_proxies" else 1
        if value is None or value < smallest:
            raise ConfigError(f"limits.{name} must be a number of at least {smallest}, not {raw!r}")
        values[name] = value
    return Limits(**values)


@functools.cache
def limits() -> Limits:
    """The limits in force in this process (read once; ``limits.cache_clear()`` rereads)."""
    return load_limits()
