"""Shared fixtures of the Dutch Scorer test suite.

Real services, not stand-ins:

- PostgreSQL: ``postgres_url``, ``fresh_postgres_database`` and ``migrated_postgres_database``
  (server from the environment variable ``DUTCH_TEST_POSTGRES_URL``, set by ``make test``).
- Firebase Auth emulator: ``firebase_auth_emulator`` (address from
  ``FIREBASE_AUTH_EMULATOR_HOST``, default ``127.0.0.1:9099``).
- Streamlit: ``streamlit_server`` runs ``streamlit run`` on a free port.
- Chromium through Playwright: ``browser``, ``browser_page``, ``phone_page``, ``page_factory``,
  and ``screenshot`` to save pictures of pages.

When a service cannot be reached the test is skipped on a developer's machine, but fails when
``CI=true``: a green CI run always means the service was really exercised.

Tests using these fixtures get the matching marker (``postgres``, ``firebase``, ``e2e``)
automatically, so ``pytest -m "not e2e"`` leaves out the browser tests.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NoReturn

import psycopg
import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from psycopg import sql
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from tests.servers import (
    PROJECT_ROOT,
    StreamlitRun,
    log_tail,
    spawn_logged,
    start_streamlit,
    stop_process_group,
    wait_until,
)

ARTIFACTS_DIR = PROJECT_ROOT / "test-artifacts"
SCREENSHOT_DIR = PROJECT_ROOT / "docs" / "screenshots"

POSTGRES_URL_ENV = "DUTCH_TEST_POSTGRES_URL"
AUTH_EMULATOR_ENV = "FIREBASE_AUTH_EMULATOR_HOST"
DEFAULT_AUTH_EMULATOR_HOST = "127.0.0.1:9099"
FIREBASE_PROJECT_ID = "demo-dutch"
FIREBASE_CLI = PROJECT_ROOT / "tests" / "node_modules" / ".bin" / "firebase"

# Debian's headless shell of Chromium (the same engine without the browser around it) costs
# about a quarter less CPU per page than the full Chromium, which only the few tests marked
# ``screen`` need (it has a screen to keep awake).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP_VIEWPORT = (1280, 900)
PHONE_VIEWPORT = (390, 844)

_FIXTURE_MARKERS = {
    "postgres_url": "postgres",
    "fresh_postgres_database": "postgres",
    "module_postgres_url": "postgres",
    "migrated_postgres_database": "postgres",
    "firebase_auth_emulator": "firebase",
    "streamlit_server": "e2e",
    "browser": "e2e",
    "screen_browser": "e2e",
    "browser_page": "e2e",
    "phone_page": "e2e",
    "page_factory": "e2e",
    "screenshot": "screenshot",
}
_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()


# --- CI mode ---------------------------------------------------------------------------------


def running_in_ci() -> bool:
    """Whether the suite runs under CI (``CI=true``), where missing services are failures."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _service_unavailable(reason: str) -> NoReturn:
    if running_in_ci():
        pytest.fail(f"{reason} (CI=true: a missing service fails the test)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def ci_mode() -> bool:
    """True when ``CI=true``: tests needing an unreachable service fail instead of skipping."""
    return running_in_ci()


@pytest.fixture(scope="session")
def service_unavailable() -> Callable[[str], NoReturn]:
    """``service_unavailable(reason)``: fail the test under CI, skip it elsewhere."""
    return _service_unavailable


@pytest.fixture(scope="session")
def messages_template(tmp_path_factory):
    """Every message of the app, extracted by Babel as ``make translations`` does."""
    from dutch_app.catalogues import read_catalogue

    template = tmp_path_factory.mktemp("translations") / "messages.pot"
    subprocess.run(
        ["make", "--no-print-directory", "-s", "messages-template", f"POT={template}"],
        cwd=PROJECT_ROOT,
        check=True,
    )
    return read_catalogue(template)


# --- Password hashing ------------------------------------------------------------------------

QUICK_ARGON2 = {"time_cost": 1, "memory_cost": 1024, "parallelism": 1}
"""Argon2id parameters for passwords hashed in the test process (see ``quick_password_hashes``)."""


@pytest.fixture(autouse=True)
def quick_password_hashes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords hashed in the test process use argon2id at a low cost.

    The app's cost (argon2's defaults: 3 passes over 64 MiB) takes 0.1-0.3 s a hash on the
    suite's machine, and most tests sign someone up or in without testing the hash itself;
    the same algorithm at a low cost checks the same behaviour. Tests marked
    ``real_password_cost`` keep the app's cost: those that pin it, rehash to it, or rely on
    its weight. Servers started by the browser tests always hash at the app's cost.
    """
    if request.node.get_closest_marker("real_password_cost"):
        return
    from argon2 import PasswordHasher

    from dutch_app.accounts import passwords

    monkeypatch.setattr(
        passwords, "PasswordHasher", functools.partial(PasswordHasher, **QUICK_ARGON2)
    )


@pytest.fixture
def rounds_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many rounds each read of a game's rounds for a view returned, in order."""
    from dutch_app.services import _present

    counts: list[int] = []
    real = _present.round_views

    def counted(*args, **kwargs):
        found = real(*args, **kwargs)
        counts.append(len(found))
        return found

    monkeypatch.setattr(_present, "round_views", counted)
    return counts


class FakeClock:
    """The real time moved on by however much a test advanced it (never backwards)."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def advance(self, **duration: float) -> None:
        self.offset += timedelta(**duration)


@pytest.fixture
def clock() -> FakeClock:
    """A clock for the account backends that a test can move on (a module may replace it)."""
    return FakeClock()


# --- Markers and failure reports -------------------------------------------------------------


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests by the services they use, and everything under tests/e2e as ``e2e``."""
    e2e_dir = PROJECT_ROOT / "tests" / "e2e"
    for item in items:
        fixture_names = getattr(item, "fixturenames", ())
        markers = {marker for name, marker in _FIXTURE_MARKERS.items() if name in fixture_names}
        if e2e_dir in item.path.parents:
            markers.add("e2e")
        if "firebase" in markers or item.get_closest_marker("firebase"):
            # The emulator is one store that tests empty: a test that uses it is kept out
            # of parallel runs. A test that asks for it only while it runs (a parametrized
            # backend) says so with the ``firebase`` marker on that parameter.
            markers.add("serial")
        for marker in sorted(markers):
            item.add_marker(marker)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item) -> Iterator[None]:
    """Keep each phase's report on the test, so fixtures can tell at teardown if it failed."""
    report = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    if report.failed and "Timeout" in report.longreprtext and item.get_closest_marker("postgres"):
        report.sections.append(("PostgreSQL when the test timed out", _postgres_activity()))
    return report


def _test_failed(request: pytest.FixtureRequest) -> bool:
    reports = request.node.stash.get(_REPORTS, {})
    return any(report.failed for report in reports.values())


# --- SQLite ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with the schema at the newest migration, for tests to copy (migrating
    a new file takes about half a second; copying this one, a few milliseconds)."""
    from dutch_app.storage.db import make_engine, upgrade

    path = tmp_path_factory.mktemp("schema") / "template.db"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return path


# --- PostgreSQL ------------------------------------------------------------------------------


def _libpq_url(url: URL) -> str:
    """The same server and database as a plain ``postgresql://`` URL for psycopg."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _postgres_activity() -> str:
    """What the server's sessions of this test process were doing, and the locks they
    waited for: what a test that hangs in a query needs to say why."""
    raw = os.environ.get(POSTGRES_URL_ENV, "").strip()
    pattern = f"dutch_test_{os.getpid()}_%"
    try:
        server = make_url(raw).set(database="postgres")
        with psycopg.connect(_libpq_url(server), connect_timeout=5) as conn:
            sessions = conn.execute(
                "SELECT pid, state, wait_event_type, wait_event, now() - query_start,"
                " left(query, 300) FROM pg_stat_activity WHERE datname LIKE %s",
                (pattern,),
            ).fetchall()
            waits = conn.execute(
                "SELECT pid, locktype, relation::regclass, mode, pg_blocking_pids(pid)"
                " FROM pg_locks WHERE NOT granted"
            ).fetchall()
    except Exception as error:  # a report of a failure must not fail itself
        return f"could not ask the server: {error!r}"
    lines = [f"session {row}" for row in sessions] + [f"waiting {row}" for row in waits]
    return "\n".join(lines) or "no sessions of this process"


def _create_database(server: URL, template: str | None = None) -> URL:
    name = f"dutch_test_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template is not None:
        create += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
    with psycopg.connect(_libpq_url(server), autocommit=True, connect_timeout=10) as conn:
        conn.execute(create)
    return server.set(database=name)


def _drop_database(server: URL, name: str) -> None:
    """Drop the database, ending what is still connected to it.

    FORCE ends the test's own leftover connections, but it is refused when an autovacuum
    worker happens to be in the database (a process of no role the test role may end);
    a plain DROP then stops that worker itself, so it is tried next, a few times, each
    time after ending the test role's own connections to it (a reader's idle ones, which
    would otherwise make every try fail).
    """
    drop = sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name))
    own = (
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = %s AND usename = current_user AND pid <> pg_backend_pid()"
    )
    with psycopg.connect(_libpq_url(server), autocommit=True, connect_timeout=10) as conn:
        try:
            conn.execute(drop + sql.SQL(" WITH (FORCE)"))
            return
        except psycopg.errors.InsufficientPrivilege:
            pass
        for attempt in range(5):
            try:
                conn.execute(own, (name,))
                conn.execute(drop)
                return
            except psycopg.errors.ObjectInUse:
                if attempt == 4:
                    raise
                time.sleep(1)


@contextlib.contextmanager
def _databases(server: URL, template: str | None = None) -> Iterator[Callable[[], str]]:
    """``make() -> URL`` of a new database on ``server`` (a copy of ``template`` if given,
    else empty); every one made is dropped when the block ends."""
    made: list[URL] = []

    def make() -> str:
        database = _create_database(server, template)
        made.append(database)
        return database.render_as_string(hide_password=False)

    try:
        yield make
    finally:
        for database in made:
            _drop_database(server, database.database or "")


@pytest.fixture(scope="session")
def postgres_server() -> URL:
    """The PostgreSQL server named by ``DUTCH_TEST_POSTGRES_URL``, checked to answer.

    Its role must be allowed to create databases. Fails under CI, skips elsewhere, when the
    variable is unset or the server does not answer.
    """
    raw = os.environ.get(POSTGRES_URL_ENV)
    if not raw:
        _service_unavailable(f"{POSTGRES_URL_ENV} is not set (make test sets it)")
    try:
        server = make_url(raw.strip())
    except ArgumentError:
        # Say what was given (without a password) so a stray line from a start-up script shows.
        shown = re.sub(r":[^:/@\s]*@", ":***@", raw)
        pytest.fail(f"{POSTGRES_URL_ENV} is not a database URL: {shown!r}", pytrace=False)
    if server.database is None:
        server = server.set(database="postgres")
    try:
        with psycopg.connect(_libpq_url(server), connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.OperationalError as error:
        shown = server.render_as_string(hide_password=True)
        _service_unavailable(f"PostgreSQL at {shown} is unreachable: {error}".strip())
    return server


@pytest.fixture(scope="session")
def postgres_url(postgres_server: URL) -> Iterator[str]:
    """SQLAlchemy URL (``postgresql+psycopg://...``) of an empty database made for this session.

    The database gets a unique name, is shared by every test of the session and is dropped at
    the end; tests that need a database of their own use ``fresh_postgres_database``.
    """
    with _databases(postgres_server) as make:
        yield make()


@pytest.fixture(scope="module")
def module_postgres_url(postgres_server: URL) -> Iterator[str]:
    """SQLAlchemy URL of an empty database made for the tests of one module (dropped after
    them), for a module that starts its servers once."""
    with _databases(postgres_server) as make:
        yield make()


@pytest.fixture
def fresh_postgres_database(postgres_server: URL) -> Iterator[Callable[[], str]]:
    """Factory ``fresh_postgres_database() -> str``: the URL of a new, empty database.

    Each call makes another uniquely named database; all are dropped when the test ends.
    """
    with _databases(postgres_server) as make:
        yield make


@pytest.fixture(scope="session")
def migrated_postgres_template(postgres_server: URL) -> Iterator[str]:
    """The name of a database of this session with the schema at the newest migration, for
    ``migrated_postgres_database`` to copy; nothing connects to it after it is made."""
    from dutch_app.storage.db import make_engine, upgrade

    with _databases(postgres_server) as make:
        url = make()
        engine = make_engine(url)
        try:
            upgrade(engine)
        finally:
            engine.dispose()
        yield make_url(url).database or ""


@pytest.fixture
def migrated_postgres_database(
    postgres_server: URL, migrated_postgres_template: str
) -> Iterator[Callable[[], str]]:
    """Factory ``migrated_postgres_database() -> str``: the URL of a new database with the
    schema at the newest migration and no rows (a copy of the session's template: creating
    and migrating a database takes about 0.8 s here, copying one about 0.4 s).

    Each call makes another; all are dropped when the test ends.
    """
    with _databases(postgres_server, migrated_postgres_template) as make:
        yield make


# --- Firebase Auth emulator ------------------------------------------------------------------


@dataclass(frozen=True)
class AuthEmulator:
    """A running Firebase Auth emulator: where it listens and how to empty it."""

    host: str
    project_id: str = FIREBASE_PROJECT_ID

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT`` of the emulator."""
        return f"http://{self.host}"

    def clear(self) -> None:
        """Delete every account of the project from the emulator."""
        response = requests.delete(
            f"{self.base_url}/emulator/v1/projects/{self.project_id}/accounts", timeout=10
        )
        response.raise_for_status()


def _auth_emulator_answers(host: str) -> bool:
    url = f"http://{host}/emulator/v1/projects/{FIREBASE_PROJECT_ID}/config"
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


def _start_auth_emulator(host: str, workdir: Path) -> tuple[subprocess.Popen[bytes], Path]:
    address, _, port = host.rpartition(":")
    config = workdir / "firebase.json"
    settings = {
        "emulators": {
            "auth": {"host": address, "port": int(port)},
            "ui": {"enabled": False},
            "singleProjectMode": True,
        }
    }
    config.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    log_path = workdir / "emulator.log"
    command = [
        str(FIREBASE_CLI),
        "emulators:start",
        "--only",
        "auth",
        "--project",
        FIREBASE_PROJECT_ID,
        "--config",
        str(config),
    ]
    env = {**os.environ, "CI": "true", "NO_UPDATE_NOTIFIER": "1"}
    return spawn_logged(command, workdir, env, log_path), log_path


@pytest.fixture(scope="session")
def firebase_auth_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AuthEmulator]:
    """The Firebase Auth emulator for project ``demo-dutch``, running and answering.

    Uses the one at ``FIREBASE_AUTH_EMULATOR_HOST`` (default ``127.0.0.1:9099``) when it
    answers, otherwise starts one from ``tests/node_modules/.bin/firebase`` and stops it at the
    end of the session. Sets ``os.environ["FIREBASE_AUTH_EMULATOR_HOST"]`` so firebase-admin
    talks to it. Yields an ``AuthEmulator`` with ``host``, ``project_id``, ``base_url`` and
    ``clear()``.
    """
    host = os.environ.get(AUTH_EMULATOR_ENV) or DEFAULT_AUTH_EMULATOR_HOST
    process = None
    if not _auth_emulator_answers(host):
        if not FIREBASE_CLI.exists():
            _service_unavailable(
                f"No Firebase Auth emulator at {host} and no Firebase CLI at {FIREBASE_CLI}"
                " (make test installs it)"
            )
        process, log_path = _start_auth_emulator(host, tmp_path_factory.mktemp("auth-emulator"))
        wait_until(lambda: process.poll() is not None or _auth_emulator_answers(host), timeout=90)
        if process.poll() is not None or not _auth_emulator_answers(host):
            stop_process_group(process, signal.SIGINT)
            _service_unavailable(
                f"The Firebase Auth emulator did not start at {host}:\n{log_tail(log_path)}"
            )
    previous = os.environ.get(AUTH_EMULATOR_ENV)
    os.environ[AUTH_EMULATOR_ENV] = host
    try:
        yield AuthEmulator(host=host)
    finally:
        if previous is None:
            os.environ.pop(AUTH_EMULATOR_ENV, None)
        else:
            os.environ[AUTH_EMULATOR_ENV] = previous
        if process is not None:
            stop_process_group(process, signal.SIGINT)


# --- Streamlit server ------------------------------------------------------------------------


@pytest.fixture
def streamlit_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., str]]:
    """Factory ``start(env: dict | None = None, app: str = "serve.py") -> str`` (the base URL).

    Each call runs ``python -m streamlit run APP`` (by default the app's web server, which
    serves ``app.py``) headless on a free port of 127.0.0.1, from
    the project root (so ``.streamlit/config.toml`` applies), and returns once
    ``/_stcore/health`` answers. Unless ``env`` says otherwise, ``DUTCH_DATABASE_URL`` points
    at an empty SQLite file of the test's own, never at data/. Every server is stopped when the
    test ends; if the test failed, the server logs are printed.
    """
    log_dir = tmp_path_factory.mktemp("streamlit")
    runs: list[StreamlitRun] = []

    def start(env: dict[str, str] | None = None, app: str = "serve.py") -> str:
        database = log_dir / f"dutch-{len(runs)}.db"
        full_env = {
            **os.environ,
            "DUTCH_DATABASE_URL": f"sqlite:///{database}",
            "DUTCH_SECRET_KEY": "test-secret-key-not-for-production",
            "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
            **(env or {}),
        }
        run = start_streamlit(app, full_env, log_dir)
        runs.append(run)
        return run.url

    yield start
    for run in runs:
        stop_process_group(run.process)
    if _test_failed(request):
        for run in runs:
            print(f"\n----- streamlit log {run.url} -----\n{log_tail(run.log_path, 200)}")


# --- Browser ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    """Playwright's sync API, for the session's browsers. ``expect`` assertions wait up to
    20 s, as Streamlit pages render over a websocket."""
    expect.set_options(timeout=20_000)
    with sync_playwright() as playwright:
        yield playwright


def _launch(playwright: Playwright, path: str) -> Iterator[Browser]:
    if not Path(path).exists():
        _service_unavailable(f"{path} is not installed (make test installs it)")
    chromium = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="session")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    """Debian's Chromium headless shell (``/usr/bin/chromium-headless-shell``), driven by
    Playwright (which cannot download browsers here)."""
    yield from _launch(playwright_driver, HEADLESS_SHELL)


@pytest.fixture(scope="session")
def screen_browser(playwright_driver: Playwright) -> Iterator[Browser]:
    """Debian's full Chromium, headless: for the tests marked ``screen``."""
    yield from _launch(playwright_driver, CHROMIUM)


@pytest.fixture
def page_factory(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """Factory ``new_page(width=1280, height=900, **context_options) -> Page``.

    Every page has its own browser context (cookies, storage), closed when the test ends,
    in the full Chromium for a test marked ``screen``, else in the headless shell.
    ``context_options`` go to ``Browser.new_context`` (e.g. ``is_mobile=True``). When the test
    fails, a screenshot of every page is saved under test-artifacts/failures/.
    """
    contexts: list[BrowserContext] = []
    if request.node.get_closest_marker("screen"):
        browser = request.getfixturevalue("screen_browser")

    def new_page(
        width: int = DESKTOP_VIEWPORT[0], height: int = DESKTOP_VIEWPORT[1], **context_options
    ) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": height}, **context_options
        )
        contexts.append(context)
        return context.new_page()

    yield new_page
    if _test_failed(request):
        failures = ARTIFACTS_DIR / "failures"
        failures.mkdir(parents=True, exist_ok=True)
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in request.node.nodeid)
        for number, page in enumerate(p for c in contexts for p in c.pages):
            with contextlib.suppress(PlaywrightError):
                page.screenshot(path=failures / f"{stem}-{number}.png", full_page=True)
    for context in contexts:
        context.close()


@pytest.fixture
def browser_page(page_factory: Callable[..., Page]) -> Page:
    """A fresh desktop page (1280×900) in its own browser context."""
    return page_factory()


@pytest.fixture
def phone_page(page_factory: Callable[..., Page]) -> Page:
    """A fresh phone-sized page (390×844, touch, mobile) in its own browser context."""
    return page_factory(*PHONE_VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2)


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    """``screenshot(page, name, full_page=True) -> Path``: save a PNG of the page.

    With ``DUTCH_UPDATE_SCREENSHOTS=1`` the picture goes to docs/screenshots/NAME.png (the
    committed pictures of the app); otherwise to test-artifacts/screenshots/NAME.png, so an
    ordinary test run leaves the committed pictures alone.
    """
    update = os.environ.get("DUTCH_UPDATE_SCREENSHOTS", "") in {"1", "true", "yes"}
    folder = SCREENSHOT_DIR if update else ARTIFACTS_DIR / "screenshots"

    def save(page: Page, name: str, full_page: bool = True) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        page.screenshot(path=path, full_page=full_page)
        return path

    return save
