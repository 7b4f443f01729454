"""Two app servers on one PostgreSQL database behind the nginx of ``deploy/nginx.conf``.

The browsers reach the servers only through nginx, so what is tested is the configuration a
host runs: sticky sessions by the balancer's route cookie, the websocket passed through, the
security headers. Ann's browser is kept on server A and Ben's on server B; each server keeps
its own caches. What one of them stores, the other shows on its next rerun, and a correction
made on one server that clashes with a correction made on the other is refused without
losing either. The servers and nginx start once for the module's tests in each phase of
the suite (the live update's deadline is measured alone, the rest run beside other browser
tests), and every test plays in a group of its own on them; the tests that stop a server
have servers of their own.
"""

from __future__ import annotations

import os
import re
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from dutch_app.accounts import Account, AccountBackend, make_backend
from dutch_app.config import load_settings
from dutch_app.services import games, groups, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_core import PRESETS
from tests.e2e.conftest import report_server_logs
from tests.e2e.streamlit_ui import (
    PASSWORD,
    SESSION_COOKIE,
    UNEXPECTED_ERROR,
    expect_clean_page,
    expect_standings,
    expect_title,
    field,
    fill,
    fill_round,
    open_page,
    press,
    save_button,
)
from tests.servers import (
    Balancer,
    largest_script,
    sent_bytes,
    start_balancer,
    start_streamlit,
    stop_process_group,
    wait_until,
)

SECRET_KEY = "two-servers-secret-key-shared-by-every-server"
NAMES = ("Ann", "Ben", "Cleo")


@dataclass(frozen=True)
class SharedDatabase:
    """Two servers on one database, Ann and Ben in one group, and a game of three going on."""

    server_a: str
    server_b: str
    balancer: Balancer
    accounts: AccountBackend
    sessions: object
    ann: Account
    ben: Account
    player_ids: dict[str, int]
    game_id: int

    def as_ann(self, service, *args):
        """Run a service as Ann, straight on the database."""
        with self.sessions() as session:
            return perform(session, service, self.ann.user_id, *args)

    def standings(self) -> list[tuple[int, str, int]]:
        """(rank, player, game total) of the game as stored now."""
        game = self.as_ann(games.get_game, self.game_id)
        return [(s.rank, s.player, s.game_total) for s in game.standings]

    def server_of(self, route: str) -> str:
        """The server nginx sends a browser with this route cookie to (from its access log)."""
        probe = uuid.uuid4().hex
        url = f"{self.balancer.url}/_stcore/health?probe={probe}"
        requests.get(url, cookies={"dutch_route": route}, timeout=10)
        access_log = self.balancer.prefix / "access.log"

        def logged() -> list[str]:  # nginx writes the line just after answering
            return [line for line in access_log.read_text().splitlines() if probe in line]

        assert wait_until(lambda: bool(logged()), timeout=10), f"no access-log line for {probe}"
        (line,) = logged()
        assert f"route={route}" in line, line
        return "http://" + re.search(r"upstream=(\S+)", line).group(1)

    def route_to(self, server: str) -> str:
        """A route cookie value that nginx sends to ``server``."""
        for number in range(200):
            if self.server_of(f"route-{number}") == server:
                return f"route-{number}"
        raise AssertionError(f"no route key reaches {server}")


@dataclass(frozen=True)
class TwoServers:
    """Two ``streamlit run`` processes on one PostgreSQL database, behind nginx."""

    server_a: str
    server_b: str
    balancer: Balancer
    accounts: AccountBackend
    sessions: object
    logs: tuple[Path, ...]
    """The servers' logs and nginx's error log."""


@contextmanager
def two_servers(url: str, workdir: Path) -> Iterator[TwoServers]:
    """Serve the database at ``url`` (migrated here, before the servers start, as
    docs/hosting.md says) by two servers behind the nginx of ``deploy/nginx.conf``."""
    env = {"DUTCH_DATABASE_URL": url, "DUTCH_SECRET_KEY": SECRET_KEY, "DUTCH_AUTH_BACKEND": "local"}
    engine = get_engine(url)
    sessions = make_session_factory(engine)
    accounts = make_backend(sessions, load_settings(secrets={}, environ=env))
    server_env = {**os.environ, **env, "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"}
    runs = []
    try:
        runs = [start_streamlit("serve.py", server_env, workdir) for _ in range(2)]
        balancer = start_balancer([run.url for run in runs], workdir / "nginx")
        try:
            logs = (*(run.log_path for run in runs), balancer.prefix / "error.log")
            yield TwoServers(runs[0].url, runs[1].url, balancer, accounts, sessions, logs)
        finally:
            stop_process_group(balancer.process)
    finally:
        for run in runs:
            stop_process_group(run.process)
        engine.dispose()


def a_table(servers: TwoServers) -> SharedDatabase:
    """Ann and Ben (new accounts) in a new group with Cleo, and a game of three going on."""
    accounts, sessions = servers.accounts, servers.sessions
    suffix = uuid.uuid4().hex[:8]
    ann = accounts.sign_up(f"ann-{suffix}@example.com", PASSWORD, "Ann")
    ben = accounts.sign_up(f"ben-{suffix}@example.com", PASSWORD, "Ben")
    with sessions() as session:
        group = perform(session, groups.create_group, ann.user_id, "Friday cards")
        perform(session, groups.join_group, ben.user_id, group.invite_code)
        # Ann and Ben are players of the group from the moment they are members; Cleo is a guest.
        perform(session, players.add_player, ann.user_id, group.id, "Cleo")
        ids = {p.name: p.id for p in perform(session, players.list_players, ann.user_id, group.id)}
        assert set(ids) == set(NAMES)
        game = perform(
            session,
            games.start_game,
            ann.user_id,
            group.id,
            [ids[name] for name in NAMES],
            PRESETS["classic"],
        )
    return SharedDatabase(
        servers.server_a,
        servers.server_b,
        servers.balancer,
        accounts,
        sessions,
        ann,
        ben,
        ids,
        game.id,
    )


@pytest.fixture(scope="module")
def module_servers(
    module_postgres_url: str, tmp_path_factory: pytest.TempPathFactory, browser
) -> Iterator[TwoServers]:
    """The module's two servers and nginx, started once: each test has a group of its own
    on them (starting two servers and nginx took 7-8 s of every test)."""
    with two_servers(module_postgres_url, tmp_path_factory.mktemp("two-servers")) as servers:
        yield servers


@pytest.fixture
def shared(module_servers: TwoServers, request: pytest.FixtureRequest) -> SharedDatabase:
    """Ann, Ben and a game of their own, served by the module's two servers."""
    report_server_logs(request, module_servers.logs)
    return a_table(module_servers)


@pytest.fixture
def servers_of_its_own(
    fresh_postgres_database, tmp_path, request: pytest.FixtureRequest
) -> Iterator[SharedDatabase]:
    """Two servers and nginx for one test (one that stops a server)."""
    with two_servers(fresh_postgres_database(), tmp_path) as servers:
        report_server_logs(request, servers.logs)
        yield a_table(servers)


def signed_in(page: Page, server: str, shared: SharedDatabase, account: Account) -> Page:
    """``page`` signed in as ``account`` through the session cookie, opened through nginx
    with a route cookie that keeps it on ``server``."""
    token = shared.accounts.issue_token(account.user_id)
    url = shared.balancer.url
    page.context.add_cookies(
        [
            {"name": SESSION_COOKIE, "value": token, "url": url},
            {"name": "dutch_route", "value": shared.route_to(server), "url": url},
        ]
    )
    page.goto(url)
    expect_title(page, "Play")
    return page


def first_round_saved(shared: SharedDatabase) -> None:
    """Round 1 stored straight on the database: Ann 3 (caller, lowest), Ben 10, Cleo 12."""
    ids = shared.player_ids
    shared.as_ann(
        rounds.add_round,
        shared.game_id,
        {ids["Ann"]: "3", ids["Ben"]: "10", ids["Cleo"]: "12"},
        ids["Ann"],
        "dutch",
    )


def upstreams_of(log: Path, route: str) -> set[str]:
    """Every server that answered a request carrying ``route``, by nginx's access log."""
    lines = [line for line in log.read_text().splitlines() if f"route={route}" in line]
    return {re.search(r"upstream=(\S+)", line).group(1) for line in lines}


def correct_hands(page: Page, hands: list[str]) -> None:
    """Type new hands into the History page's correction form (the caller stays as loaded)."""
    for seat, hand in enumerate(hands):
        fill(page, f"history_edit_hand_{seat}", hand)


def test_a_round_saved_through_one_server_shows_on_the_other_at_its_next_rerun(
    shared, page_factory
):
    """Ann saves a round on server A; Ben's Play and Stats pages on server B, both shown
    (and Stats cached) before, show it as soon as they rerun."""
    ann = signed_in(page_factory(), shared.server_a, shared, shared.ann)
    ben = signed_in(page_factory(), shared.server_b, shared, shared.ben)
    open_page(ben, "Stats")
    expect(ben.get_by_text("This group has no rounds yet")).to_be_visible()
    open_page(ben, "Play")
    expect_standings(ben, [(1, "Ann", 0), (1, "Ben", 0), (1, "Cleo", 0)])

    fill_round(ann, "play_round", ["3", "10", "12"], "Ann")
    press(ann.get_by_role("button", name="Save the round"))
    stored = [(1, "Ann", 3), (2, "Ben", 10), (3, "Cleo", 12)]
    expect_standings(ann, stored)
    assert shared.standings() == stored

    open_page(ben, "Play")  # Ben's next rerun, on the other server
    expect_standings(ben, stored)
    expect(ben.get_by_role("heading", name="Round 2")).to_be_visible()
    open_page(ben, "Stats")
    expect(ben.get_by_text(re.compile(r"\b1 games? and 1 rounds? in this view"))).to_be_visible()
    expect_clean_page(ben)


@pytest.mark.deadline  # a live update within 3 s: measured on a machine no other test loads
def test_a_round_saved_through_one_server_shows_live_on_the_other(shared, page_factory):
    """Ben's Play page, kept on server B, waits on B's live route through nginx; Ann's round
    saved on server A shows on it within 3 s with nothing done on Ben's phone."""
    ann = signed_in(page_factory(), shared.server_a, shared, shared.ann)
    ben = signed_in(page_factory(), shared.server_b, shared, shared.ben)
    expect(ben.get_by_role("heading", name="Round 1")).to_be_visible()
    fill_round(ann, "play_round", ["3", "10", "12"], "Ann")
    press(ann.get_by_role("button", name="Save the round"))
    expect(ann.get_by_text("Round 1 saved.")).to_be_visible()
    expect(ben.get_by_role("heading", name="Round 2")).to_be_visible(timeout=3_000)
    expect_standings(ben, [(1, "Ann", 3), (2, "Ben", 10), (3, "Cleo", 12)])
    (route,) = [c["value"] for c in ben.context.cookies() if c["name"] == "dutch_route"]
    log = shared.balancer.prefix / "access.log"

    def live_answers() -> list[str]:
        return [
            line
            for line in log.read_text().splitlines()
            if "/_dutch/live?" in line and f"route={route}" in line and '" 200 ' in line
        ]

    assert wait_until(lambda: bool(live_answers()), timeout=10)
    served = {re.search(r"upstream=(\S+)", line).group(1) for line in live_answers()}
    assert served == {shared.server_b.removeprefix("http://")}, served
    expect_clean_page(ben)


def test_clashing_corrections_on_two_servers_one_is_refused_and_nothing_is_lost(
    shared, page_factory
):
    """Ann and Ben open round 1 for correction on different servers. Ann saves first; Ben's
    correction, made to the round as it was before, is refused and Ann's stays stored. Ben
    can then load the round as it is now."""
    first_round_saved(shared)
    ann = signed_in(page_factory(), shared.server_a, shared, shared.ann)
    ben = signed_in(page_factory(), shared.server_b, shared, shared.ben)
    for page in (ann, ben):
        open_page(page, "History")
        expect(field(page, "history_edit_hand_1")).to_have_value("10")

    correct_hands(ann, ["3", "8", "12"])
    press(ann.get_by_role("button", name="Save the correction"))
    expect(ann.get_by_text("Round 1 corrected: Ben 10 → 8.")).to_be_visible()
    corrected = [(1, "Ann", 3), (2, "Ben", 8), (3, "Cleo", 12)]
    assert shared.standings() == corrected

    correct_hands(ben, ["3", "10", "20"])
    press(ben.get_by_role("button", name="Save the correction"))
    expect(ben.get_by_text("was changed by someone else")).to_be_visible()
    assert shared.standings() == corrected
    (stored,) = shared.as_ann(games.get_game, shared.game_id).rounds
    assert [hand.round_score for hand in stored.hands] == [3, 8, 12]
    assert stored.version == 2

    press(ben.get_by_role("button", name="Load the round as it is now"))
    expect(field(ben, "history_edit_hand_1")).to_have_value("8")
    expect_standings(ben, corrected)
    expect_clean_page(ben)


def test_a_new_browser_gets_a_route_and_every_request_of_it_reaches_one_server(
    shared, page_factory
):
    """A browser with no route cookie is handed one by nginx on its first answer; the page,
    its scripts, the websocket and every rerun of that browser then reach the same server."""
    page = page_factory()
    page.goto(shared.balancer.url)
    expect_title(page, "Dutch Scorer")
    (route,) = [c["value"] for c in page.context.cookies() if c["name"] == "dutch_route"]
    (cookie,) = [c for c in page.context.cookies() if c["name"] == "dutch_route"]
    assert cookie["httpOnly"]
    fill(page, "signin_email", "nobody@example.com")
    press(page.get_by_role("button", name="Sign in", exact=True))
    expect(page.get_by_text(re.compile("password", re.IGNORECASE)).first).to_be_visible()
    page.context.close()  # nginx logs the websocket when it closes
    log = shared.balancer.prefix / "access.log"

    def stream_logged() -> bool:
        return any(
            "/_stcore/stream" in line and f"route={route}" in line and '" 101 ' in line
            for line in log.read_text().splitlines()
        )

    assert wait_until(stream_logged, timeout=10)
    served = upstreams_of(log, route)
    assert len(served) == 1, served


def test_the_apps_security_headers_reach_the_browser_through_nginx_once_each(shared):
    """The app cannot be framed by another site, and answers are not sniffed: the servers'
    headers pass through nginx unchanged and are not doubled."""
    for path in ("/", "/_stcore/health", "/play"):
        answer = requests.get(f"{shared.balancer.url}{path}", timeout=10)
        raw = answer.raw.headers
        for name in ("X-Frame-Options", "Content-Security-Policy", "X-Content-Type-Options"):
            assert len(raw.getlist(name)) == 1, (path, name, raw.getlist(name))
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_nginx_sends_the_page_and_the_largest_script_gzipped_with_their_caching(shared):
    """Through nginx, the page and Streamlit's largest script arrive gzipped (a third of
    their size at most), the script kept a year as immutable and the page revalidated."""
    script = largest_script(shared.balancer.url)
    for url, kept in ((f"{shared.balancer.url}/", "no-cache"), (script, "immutable")):
        plain, plain_size = sent_bytes(url, {"Accept-Encoding": "identity"})
        zipped, zipped_size = sent_bytes(url, {"Accept-Encoding": "gzip"})
        assert zipped.headers["Content-Encoding"] == "gzip", url
        assert zipped_size * 3 < plain_size, (url, zipped_size, plain_size)
        assert zipped.headers["Cache-Control"] == plain.headers["Cache-Control"]
        assert kept in zipped.headers["Cache-Control"]


def test_when_a_server_stops_its_browsers_carry_on_signed_in_on_the_other(
    servers_of_its_own, page_factory
):
    """Server A goes away (a restart, a crash): nginx sends Ann's next load to server B, where
    her session cookie signs her straight back in and the game is as stored."""
    shared = servers_of_its_own
    first_round_saved(shared)
    ann = signed_in(page_factory(), shared.server_a, shared, shared.ann)
    expect_standings(ann, [(1, "Ann", 3), (2, "Ben", 10), (3, "Cleo", 12)])
    port_a = shared.server_a.rsplit(":", 1)[1]
    subprocess.run(["pkill", "-f", rf"server\.port {port_a}( |$)"], check=True)
    ann.reload()
    expect_title(ann, "Play")
    expect_standings(ann, [(1, "Ann", 3), (2, "Ben", 10), (3, "Cleo", 12)])


def test_a_round_saved_as_its_server_stops_is_kept_and_stored_once_through_the_other(
    servers_of_its_own, page_factory
):
    """Server A goes away just as Ann taps Save: her phone keeps the round and sends it
    again, nginx takes it to server B, and it is stored once."""
    shared = servers_of_its_own
    ann = signed_in(page_factory(), shared.server_a, shared, shared.ann)
    fill_round(ann, "play_round", ["3", "10", "12"], "Ann")
    port_a = shared.server_a.rsplit(":", 1)[1]
    subprocess.run(["pkill", "-f", rf"server\.port {port_a}( |$)"], check=True)
    save_button(ann).click()
    done = re.compile(r"Round 1 (saved|sent)\.")
    expect(ann.locator(".dutch-entry-savebox")).to_contain_text(done, timeout=20_000)
    game = shared.as_ann(games.get_game, shared.game_id)
    assert [[h.hand_total for h in r.hands] for r in game.rounds] == [[3, 10, 12]]
    expect(ann.get_by_text(UNEXPECTED_ERROR)).to_have_count(0)
