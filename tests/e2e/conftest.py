"""Fixtures of the browser tests: one app server per test process, and people made up front.

The shared ``streamlit_server`` fixture starts a server per test; the journeys here run
against one ``streamlit run serve.py`` per test process (each worker of a parallel run has
its own), on its own SQLite file, with local accounts: starting a server costs about 2.5 s
of CPU, as much as a test. Tests on one server keep apart by their accounts (each module
signs up its own addresses). A module that needs a server no other test has used defines
``app_database`` and ``app_server`` of its own with `new_app_database` and `serve_app`.
People, groups and games that a test only needs as a starting point are written straight
through the services into that file, and the browser is signed in with their session cookie.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError
from sqlalchemy.orm import Session, sessionmaker

from dutch_app.accounts import Account, AccountBackend, make_backend
from dutch_app.config import load_settings
from dutch_app.services import games, groups, players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_core import PRESETS
from tests.conftest import PHONE_VIEWPORT
from tests.e2e.streamlit_ui import PASSWORD, SESSION_COOKIE, expect_title
from tests.servers import PROJECT_ROOT, log_tail, start_streamlit, stop_process_group

FAILURES_DIR = PROJECT_ROOT / "test-artifacts" / "failures"
SECRET_KEY = "e2e-secret-key-long-enough-to-sign-session-tokens"
DESKTOP = {"width": 1280, "height": 900}
_SERVER_LOGS = pytest.StashKey[list[Path]]()


@dataclass(frozen=True)
class AppServer:
    """A running ``streamlit run serve.py``: its address, database, log file and process id."""

    url: str
    database_url: str
    log_path: Path
    pid: int


@dataclass(frozen=True)
class Table:
    """Someone signed up with a group and its players, as the services stored them."""

    account: Account
    email: str
    group_id: int
    player_ids: dict[str, int]
    accounts: AccountBackend
    sessions: sessionmaker[Session]

    def call(self, service, *args, **kwargs):
        """Run a service as this person, as a page would."""
        with self.sessions() as session:
            return perform(session, service, self.account.user_id, *args, **kwargs)

    def session_cookie(self, url: str) -> dict[str, str]:
        """A fresh ``dutch_session`` cookie for ``url``, as sign-in would set it."""
        token = self.accounts.issue_token(self.account.user_id)
        return {"name": SESSION_COOKIE, "value": token, "url": url}


def _environment(database_url: str) -> dict[str, str]:
    return {
        "DUTCH_DATABASE_URL": database_url,
        "DUTCH_SECRET_KEY": SECRET_KEY,
        "DUTCH_AUTH_BACKEND": "local",
    }


def new_app_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The SQLAlchemy URL of a new SQLite file, migrated and empty."""
    url = f"sqlite:///{tmp_path_factory.mktemp('e2e-db') / 'dutch.db'}"
    get_engine(url).dispose()
    return url


def serve_app(
    app_database: str, tmp_path_factory: pytest.TempPathFactory, browser: Browser
) -> Iterator[AppServer]:
    """``streamlit run serve.py`` (the app) on ``app_database``, on a free port, until the
    fixture that yields from it ends.

    Takes ``browser`` so that a machine without Chromium skips (or, under CI, fails)
    before a server is started for nothing.
    """
    env = {**os.environ, **_environment(app_database), "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"}
    run = start_streamlit("serve.py", env, tmp_path_factory.mktemp("e2e-server"))
    try:
        yield AppServer(run.url, app_database, run.log_path, run.process.pid)
    finally:
        stop_process_group(run.process)


@pytest.fixture(scope="session")
def app_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The SQLAlchemy URL of the test process's SQLite file, migrated and empty at first."""
    return new_app_database(tmp_path_factory)


@pytest.fixture(scope="session")
def app_server(
    app_database: str, tmp_path_factory: pytest.TempPathFactory, browser: Browser
) -> Iterator[AppServer]:
    """The app, served for every test of the process that asks for it."""
    yield from serve_app(app_database, tmp_path_factory, browser)


@pytest.fixture(scope="module")
def make_table(app_database: str) -> Iterator[Callable[..., Table]]:
    """Factory ``make_table(name, email, group_name, player_names) -> Table``.

    Signs someone up and gives them a group with players, straight through the services
    into the app server's database.
    """
    settings = load_settings(secrets={}, environ=_environment(app_database))
    engine = get_engine(settings.database_url)
    sessions = make_session_factory(engine)
    backend = make_backend(sessions, settings)

    def make(name: str, email: str, group_name: str, player_names: list[str]) -> Table:
        account = backend.sign_up(email, PASSWORD, name)
        with sessions() as session:
            group = perform(session, groups.create_group, account.user_id, group_name)
            own = perform(session, players.list_players, account.user_id, group.id)
        ids = {p.name: p.id for p in own if p.name in player_names}  # the person plays too
        for player in player_names:
            if player in ids:
                continue
            with sessions() as session:
                ids[player] = perform(
                    session, players.add_player, account.user_id, group.id, player
                ).id
        return Table(account, email, group.id, ids, backend, sessions)

    yield make
    engine.dispose()


@pytest.fixture(scope="module")
def module_context(browser: Browser) -> Iterator[BrowserContext]:
    """One desktop browser context (1280×900) shared by the tests of a module."""
    context = browser.new_context(viewport=DESKTOP)
    yield context
    context.close()


@pytest.fixture(scope="module")
def tab(module_context: BrowserContext) -> Page:
    """The one tab a module's journey runs in, kept from test to test."""
    return module_context.new_page()


@pytest.fixture(autouse=True)
def _report_failures(request: pytest.FixtureRequest) -> Iterator[None]:
    """Remember the module's server log, so a failure report can show it."""
    if "app_server" in request.fixturenames:
        report_server_logs(request, [request.getfixturevalue("app_server").log_path])
    yield


def report_server_logs(request: pytest.FixtureRequest, paths: Iterable[Path]) -> None:
    """Show the ends of these server logs in the report of the test, should it fail (for
    a test that starts servers of its own)."""
    request.node.stash.setdefault(_SERVER_LOGS, []).extend(paths)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """On a failure, attach the server log and save a picture of every open tab."""
    report = yield
    if report.failed and report.when == "call":
        for log_path in item.stash.get(_SERVER_LOGS, []):
            if log_path.exists():
                report.sections.append((f"log {log_path.name}", log_tail(log_path, 150)))
        FAILURES_DIR.mkdir(parents=True, exist_ok=True)
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in item.nodeid)
        values = getattr(item, "funcargs", {}).values()
        pages = list({id(v): v for v in values if isinstance(v, Page)}.values())
        for number, page in enumerate(pages):
            with contextlib.suppress(PlaywrightError):
                page.screenshot(path=FAILURES_DIR / f"{stem}-{number}.png")
    return report


@pytest.fixture
def phone_at_table(app_server, make_table, page_factory) -> Callable[..., tuple]:
    """``phone_at_table(names, rules, script=None, **page_options)``: a phone (390x844,
    touch) on the Play page of a new game of ``names`` (the first owns the group), with
    ``script`` run in every page first; returns (the table, the game id, the page)."""

    def sit_down(names, rules=PRESETS["classic"], script=None, **page_options):
        stamp = time.monotonic_ns()
        owner = names[0]
        table = make_table(owner, f"{owner.lower()}{stamp}@example.com", "Card night", list(names))
        seats = [table.player_ids[name] for name in names]
        game = table.call(games.start_game, table.group_id, seats, rules)
        page = page_factory(*PHONE_VIEWPORT, is_mobile=True, has_touch=True, **page_options)
        if script is not None:
            page.context.add_init_script(script)
        page.context.add_cookies([table.session_cookie(app_server.url)])
        page.goto(app_server.url)
        expect_title(page, "Play")
        expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
        return table, game.id, page

    return sit_down
