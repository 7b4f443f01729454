"""Settings, read from Streamlit secrets, then the environment, then local defaults.

Streamlit secrets are consulted only when a secrets file exists, so scripts and
tests run without one. Keys (all optional)::

    database_url = "postgresql+psycopg://user:password@host/dutch"
    auth_backend = "firebase"            # or "local"
    session_days = 30
    secret_key = "..."                   # signs session tokens
    hosted = true                        # served to the public over HTTPS
    base_url = "https://scores.example.com"   # the start of links in emails
    [firebase]
    project_id = "..."
    api_key = "..."                      # web API key, for password sign-in
    auth_emulator_host = "localhost:9099"
    [firebase.credentials]               # a service account, as in its JSON file
    type = "service_account"
    [smtp]                               # sends password-reset links (local accounts)
    host = "smtp.example.com"
    port = 587
    user = "..."
    password = "..."
    from = "Dutch Scorer <scores@example.com>"
    tls = "starttls"                     # or "ssl", or "none" (a relay on this machine)
    [limits]                             # see `Limits` and docs/limits.md
    trusted_proxies = 1

The environment variables are ``DUTCH_DATABASE_URL``, ``DUTCH_AUTH_BACKEND``,
``DUTCH_SESSION_DAYS``, ``DUTCH_SECRET_KEY``, ``DUTCH_HOSTED``, ``DUTCH_FIREBASE_PROJECT_ID``,
``DUTCH_FIREBASE_API_KEY``, ``FIREBASE_AUTH_EMULATOR_HOST``, ``DUTCH_BASE_URL`` and
``DUTCH_SMTP_HOST``/``_PORT``/``_USER``/``_PASSWORD``/``_FROM``/``_TLS``.

The secret key must be real: at least 32 characters of some variety, and not the
example file's placeholder. A hosted set-up (PostgreSQL or Firebase configured)
must be given one, the same on every server; only the embedded set-up makes its
own, once, in ``data/.secret_key`` (owner-only, created atomically so servers
starting together on a fresh ``data/`` all read the same non-empty key).
``python -m dutch_app.config`` checks the settings and says what is wrong.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets as token_source
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
AUTH_BACKENDS = ("local", "firebase")
DEFAULT_BASE_URL = "http://localhost:8501"
SMTP_TLS_MODES = ("starttls", "ssl", "none")

MIN_KEY_LENGTH = 32
"""The fewest characters a secret key may have."""
MIN_KEY_VARIETY = 10
"""The fewest different characters a secret key may have (``"k" * 40`` is no key)."""
PLACEHOLDERS = ("replace-with", "change-me", "changeme", "your-secret-key")
"""Words of examples (the example file's ``replace-with-a-long-random-value``): a key that
holds one is refused."""
MAKE_A_KEY = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'


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
class SmtpSettings:
    """The mail server that sends password-reset links; ``host`` empty when there is none."""

    host: str = ""
    port: int = 587
    user: str = ""
    password: str = field(default="", repr=False)
    sender: str = ""
    """The From address (``from`` in the secrets)."""
    tls: str = "starttls"
    """``starttls`` (upgrade a plain connection), ``ssl`` (TLS from the start) or ``none``."""

    @property
    def configured(self) -> bool:
        """Whether reset links can be emailed."""
        return bool(self.host)


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
    cache_megabytes: int = 512
    """Memory one server process keeps for cached history frames and statistics; the least
    recently used go first when more is needed, and all of it is given back under memory
    pressure (see ``dutch_app.ui.cache.SharedMemory``)."""
    loading_slots: int = 2
    """History frames one server process loads at the same time; more wait for a free
    slot, so groups opening their statistics together (after a restart) do not all hold a
    load's peak memory at once."""
    firebase_check_seconds: int = 180
    """With Firebase accounts: how long what Firebase said about a person (enabled, not
    deleted, no revocation) is trusted before it is asked again; an account disabled in
    Firebase loses its open sessions within this time."""
    live_waits_per_person: int = 8
    """Requests one person may hold waiting on the live route of one server process (one
    per open Play page or table view); more are refused with 429."""
    live_waits_per_network: int = 100
    """Requests one network address (see ``trusted_proxies``) may hold waiting on the live
    route of one server process; more are refused with 429."""


@dataclass(frozen=True)
class Settings:
    """Everything the app reads from its surroundings."""

    database_url: str
    auth_backend: str = "local"
    session_days: int = 30
    secret_key: str = field(default="", repr=False)
    firebase: FirebaseSettings = FirebaseSettings()
    hosted: bool = False  # the session cookie is then Secure even behind a plain-HTTP hop
    base_url: str = DEFAULT_BASE_URL
    """Where people open the app: the start of every link the app sends."""
    smtp: SmtpSettings = SmtpSettings()
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
    url = database_url(secrets, environ, project_root)
    hosted = _yes_or_no("hosted", pick("hosted", "DUTCH_HOSTED", "false"))
    configured_key = pick("secret_key", "DUTCH_SECRET_KEY")
    if configured_key:
        check_secret_key(configured_key, "secret_key (or DUTCH_SECRET_KEY)")
    elif hosted or is_hosted(url, auth_backend):
        raise ConfigError(
            "secret_key: a hosted set-up (hosted = true, PostgreSQL or Firebase) needs a "
            "secret key of its "
            "own, the same on every server. Set secret_key in .streamlit/secrets.toml or "
            f"DUTCH_SECRET_KEY to the output of: {MAKE_A_KEY}"
        )
    return Settings(
        database_url=url,
        auth_backend=auth_backend,
        session_days=int(days_text),
        secret_key=configured_key or local_secret_key(project_root),
        firebase=_firebase_settings(secrets.get("firebase") or {}, environ),
        hosted=hosted,
        base_url=_base_url(pick("base_url", "DUTCH_BASE_URL", DEFAULT_BASE_URL)),
        smtp=_smtp_settings(secrets.get("smtp") or {}, environ),
        limits=load_limits(secrets, environ),
    )


def _yes_or_no(key: str, text: str) -> bool:
    """A setting written as true/false (or yes/no, 1/0, on/off).

    >>> _yes_or_no("hosted", "True"), _yes_or_no("hosted", "0")
    (True, False)
    """
    answer = {"true": True, "yes": True, "1": True, "on": True}
    answer |= {"false": False, "no": False, "0": False, "off": False}
    value = answer.get(text.strip().lower())
    if value is None:
        raise ConfigError(f"{key} must be true or false, not {text!r}")
    return value


def _base_url(text: str) -> str:
    url = text.strip().rstrip("/")
    scheme, _, rest = url.partition("://")
    if scheme not in ("http", "https") or not rest or any(c.isspace() for c in url):
        raise ConfigError(f"base_url must be an http:// or https:// address, not {text!r}")
    return url


def _smtp_settings(section: Mapping[str, Any], environ: Mapping[str, str]) -> SmtpSettings:
    def pick(key: str, default: str = "") -> str:
        return _pick(section, environ, key, f"DUTCH_SMTP_{key.upper()}").strip() or default

    tls = pick("tls", "starttls").lower()
    if tls not in SMTP_TLS_MODES:
        raise ConfigError(f"smtp tls must be 'starttls', 'ssl' or 'none', not {tls!r}")
    port = pick("port", "465" if tls == "ssl" else "587")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"smtp port must be a number from 1 to 65535, not {port!r}")
    host, sender = pick("host"), pick("from")
    if host and not sender:
        raise ConfigError("smtp from must be set when smtp host is: the address mail comes from")
    return SmtpSettings(host, int(port), pick("user"), pick("password"), sender, tls)


def is_hosted(url: str, auth_backend: str) -> bool:
    """Whether the settings name a database server or Firebase (not the embedded set-up)."""
    return not url.startswith("sqlite") or auth_backend == "firebase"


def check_secret_key(key: str, where: str) -> str:
    """``key`` if it can sign sessions; else a `ConfigError` naming ``where`` and the fault.

    >>> check_secret_key("Xq3-rT9_wL2mZ8vB1nK7yH4cF6dJ0sPa", "secret_key")[:4]
    'Xq3-'
    """
    folded = key.strip().casefold()
    if any(marker in folded for marker in PLACEHOLDERS):
        fault = "is a placeholder, not a key"
    elif len(key) < MIN_KEY_LENGTH:
        fault = f"has {len(key)} characters; it needs at least {MIN_KEY_LENGTH}"
    elif len(set(key)) < MIN_KEY_VARIETY or _repeats(key):
        fault = "repeats a few characters over and over; it needs random ones"
    else:
        return key
    raise ConfigError(
        f"{where}: the secret key {fault}. Use a long random value, for example the "
        f"output of: {MAKE_A_KEY}"
    )


def _repeats(key: str) -> bool:
    """Whether ``key`` is a short piece (at most half its length) said again and again.

    >>> _repeats("abcdefghij" * 4), _repeats("abcdefghijklmnopqrstuvwxyz0123456789")
    (True, False)
    """
    return any(
        key == (key[:size] * (len(key) // size + 1))[: len(key)]
        for size in range(1, len(key) // 2 + 1)
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


def private_folder(folder: Path) -> None:
    """Make ``folder`` (and missing parents) if it is missing; a new one is owner-only (700)."""
    if not folder.is_dir():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)


def local_secret_key(project_root: Path = PROJECT_ROOT) -> str:
    """The key kept in ``data/.secret_key`` for local use, made the first time it is needed.

    The file appears whole or not at all: the key is written and synced to a private
    file of its own, which is then linked into place only if no other process got there
    first (a link never replaces a file). Every process that starts together on a fresh
    ``data/`` therefore reads the one key that won. The file is owner-only (600).
    """
    path = project_root / "data" / ".secret_key"
    if not path.exists():
        private_folder(path.parent)
        _place_new_key(path)
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return check_secret_key(path.read_text(encoding="utf-8").strip(), str(path))


def _place_new_key(path: Path) -> None:
    draft = path.with_name(f".secret_key.{os.getpid()}.{token_source.token_hex(8)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(token_source.token_urlsafe(48))
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another process placed its key first
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)


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


def main() -> int:
    """``python -m dutch_app.config``: check the settings; say what is wrong (exit 1) or OK."""
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"Dutch Scorer cannot start: {error}", file=sys.stderr)
        return 1
    print(f"Settings are usable ({settings.auth_backend} accounts).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
