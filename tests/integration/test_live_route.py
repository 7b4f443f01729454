"""The live route open pages wait on: who may ask, what it answers, and what it costs.

The route runs in a real Starlette application (httpx speaks HTTP to it in-process) in
front of a real database (SQLite and PostgreSQL) and the local account store; the browser
tests in tests/e2e/test_live_table.py check that pages follow a game through it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from dataclasses import dataclass
from types import SimpleNamespace

import httpx
import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker
from starlette.applications import Starlette

from dutch_app import web
from dutch_app.accounts.local import LocalBackend
from dutch_app.services import games, groups, players, rounds
from dutch_app.services.live import Watched, versions
from dutch_app.services.unit_of_work import perform
from dutch_app.web.live import (
    LiveRoute,
    OwnChanges,
    VersionWatcher,
    WaitCaps,
    live_route_path,
    new_tab_name,
)
from dutch_core import PRESETS
from tests.servers import serving_in_thread
from tests.views import get_group

KEY = b"a-test-key-for-the-live-route-0123456789"
PASSWORD = "correct horse 43"
ROUTE = live_route_path("")
WAIT = 1.5  # seconds a request waits at most here (40 s on a real server)
EVERY = 0.1  # seconds between two reads of the watcher here (1 s on a real server)


@dataclass
class Table:
    sessions: sessionmaker[Session]
    accounts: LocalBackend
    app: Starlette
    live: LiveRoute
    owner: int
    group_id: int
    game_id: int
    seats: list[int]
    tokens: dict[str, str]

    def call(self, service, *args, **kwargs):
        with self.sessions() as session:
            return perform(session, service, self.owner, *args, **kwargs)

    def save_round(self, number: int, tab: str | None = None) -> None:
        """Save round ``number``; from the tab named ``tab`` as the Play page does (its
        own change noted), else as another phone would."""
        hands = dict(zip(self.seats, ["3", "9", "7"], strict=True))
        stored = self.call(
            rounds.add_round, self.game_id, hands, self.seats[0], "dutch", for_round=number
        )
        assert stored.game_version == self.version()
        if tab is not None:
            self.live.own.note((Watched.GAME, self.game_id), tab, stored.game_version)

    def version(self) -> int:
        return self.call(games.game_version, self.game_id)


@dataclass
class People:
    """Ann's group with a game of three (A, B, C); Finn, a member; Sam, signed in but in
    no group: the people the app's routes are asked by."""

    accounts: LocalBackend
    resources: SimpleNamespace
    owner: int
    group_id: int
    game_id: int
    seats: list[int]
    tokens: dict[str, str]


def people_at_a_table(sessions: sessionmaker[Session], key: bytes = KEY) -> People:
    accounts = LocalBackend(sessions, secret_key=key)
    people = {name: accounts.sign_up(f"{name}@example.com", PASSWORD, name) for name in NAMES}
    owner = people["ann"].user_id
    with sessions() as session:
        group = perform(session, groups.create_group, owner, "Card night")
        seats = [
            perform(session, players.add_player, owner, group.id, n).id for n in ("A", "B", "C")
        ]
        perform(session, groups.join_group, people["finn"].user_id, group.invite_code)
        game = perform(session, games.start_game, owner, group.id, seats, PRESETS["classic"])
    resources = SimpleNamespace(sessions=sessions, accounts=accounts)
    tokens = {name: accounts.issue_token(person.user_id) for name, person in people.items()}
    return People(accounts, resources, owner, group.id, game.id, seats, tokens)


@pytest.fixture
def table(sessions) -> Table:
    """Ann's group with a game of three; Finn, a member; Sam, signed in but in no group."""
    at = people_at_a_table(sessions)
    live = LiveRoute(
        lambda: at.resources,
        wait_seconds=WAIT,
        watch_every=EVERY,
        own=OwnChanges(),
        caps=WaitCaps(),
    )
    app = Starlette(routes=web.routes("", live), middleware=web.middleware())
    return Table(
        sessions, at.accounts, app, live, at.owner, at.group_id, at.game_id, at.seats, at.tokens
    )


NAMES = ("ann", "finn", "sam")


def run(coroutine):
    """Run ``coroutine`` in an event loop of its own thread (Playwright may hold the main one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, coroutine).result()


async def until_waiting(table: Table, count: int, within: float = 10.0) -> None:
    """Wait until ``count`` requests wait on the route's watcher: each passes the session
    and membership checks first, which on a busy machine can take longer than any fixed
    pause would allow."""
    deadline = time.monotonic() + within
    while table.live.watcher.waiting < count:
        assert time.monotonic() < deadline, f"{table.live.watcher.waiting} of {count} waiting"
        await asyncio.sleep(0.01)


def client(
    table: Table, who: str | None = None, address: str = "127.0.0.1", **options
) -> httpx.AsyncClient:
    """A browser of ``who`` (None: signed out) connecting from ``address``."""
    cookies = {} if who is None else {"dutch_session": table.tokens[who]}
    transport = httpx.ASGITransport(app=table.app, client=(address, 50000))
    return httpx.AsyncClient(transport=transport, base_url="http://app", cookies=cookies, **options)


def ask(table: Table, who: str | None, **params) -> httpx.Response:
    async def one() -> httpx.Response:
        async with client(table, who) as http:
            return await http.get(ROUTE, params=params)

    return run(one())


def test_without_a_session_the_route_answers_401_and_tells_nothing(table):
    refused = ask(table, None, game=table.game_id, since=0)
    assert (refused.status_code, refused.content) == (401, b"")
    assert refused.headers["cache-control"] == "no-store"
    forged = httpx.Cookies({"dutch_session": table.tokens["ann"][:-2] + "xx"})

    async def with_forged() -> httpx.Response:
        async with client(table) as http:
            http.cookies = forged
            return await http.get(ROUTE, params={"game": table.game_id, "since": 0})

    assert run(with_forged()).status_code == 401


def test_a_session_that_ended_elsewhere_is_refused(table):
    assert ask(table, "finn", game=table.game_id, since=0).status_code == 200
    table.accounts.sign_out(table.call(get_group, table.group_id).members[1].user_id)
    assert ask(table, "finn", game=table.game_id, since=0).status_code == 401


def test_a_signed_in_stranger_and_a_guessed_id_get_the_same_404(table):
    stranger = ask(table, "sam", game=table.game_id, since=0)
    assert (stranger.status_code, stranger.content) == (404, b"")
    for guess in [table.game_id + 1, 0, 2**31 - 1]:
        guessed = ask(table, "ann", game=guess, since=0)
        assert (guessed.status_code, guessed.content) == (404, b"")
    assert ask(table, "sam", group=table.group_id, since=0).status_code == 404
    assert ask(table, "ann", group=table.group_id + 1, since=0).status_code == 404


def test_a_member_behind_gets_the_version_at_once_and_nothing_else(table):
    table.save_round(1)
    started = time.monotonic()
    answer = ask(table, "finn", game=table.game_id, since=1)
    assert time.monotonic() - started < WAIT
    assert answer.status_code == 200
    assert answer.json() == {"version": table.version()}
    assert answer.headers["cache-control"] == "no-store"
    group = ask(table, "finn", group=table.group_id, since=0)
    assert group.json() == {"version": table.call(groups.data_version, table.group_id)}


@pytest.mark.parametrize(
    "params",
    [
        {"game": "1"},
        {"since": "1"},
        {"game": "1", "group": "1", "since": "1"},
        {"game": "x", "since": "1"},
        {"game": "-1", "since": "1"},
        {"game": "1", "since": "1.5"},
        {"game": "1" * 40, "since": "1"},
        {"game": str(2**31), "since": "1"},  # beyond any stored id
        {"game": "\u0661", "since": "1"},  # an Arabic-Indic digit one
        {"game": "1", "since": "1", "user": "2"},
        {"game": "1", "since": "1", "tab": "short"},
        {"game": "1", "since": "1", "tab": "x" * 65},
        {"game": "1", "since": "1", "tab": "a tab with spaces"},
        {"game": "1", "since": "1", "tab": "é" * 16},
    ],
)
def test_an_odd_query_gets_400(table, params):
    assert ask(table, "ann", **params).status_code == 400


def test_a_request_from_another_site_is_refused(table):
    async def cross_site() -> httpx.Response:
        async with client(table, "ann") as http:
            params = {"game": table.game_id, "since": 0}
            return await http.get(ROUTE, params=params, headers={"Sec-Fetch-Site": "cross-site"})

    assert run(cross_site()).status_code == 403


def test_a_waiting_member_hears_of_a_round_saved_meanwhile(table):
    shown = table.version()

    async def wait_and_save() -> tuple[httpx.Response, float]:
        async with client(table, "finn") as http:
            waiting = asyncio.create_task(
                http.get(ROUTE, params={"game": table.game_id, "since": shown})
            )
            await until_waiting(table, 1)
            assert not waiting.done()  # nothing moved yet: the request waits
            await asyncio.to_thread(table.save_round, 1)
            saved = time.monotonic()
            answer = await waiting
            return answer, time.monotonic() - saved

    answer, delay = run(wait_and_save())
    assert answer.json() == {"version": table.version()}
    assert answer.json()["version"] != shown
    assert delay < WAIT


def test_a_tabs_own_save_does_not_wake_it_but_another_phones_save_does(table):
    """The Play page that saved a round draws it in its next run: its waiting request goes
    on waiting through that change (on a busy server it used to wake and cost one more run
    of the page), while a tab that did not save it hears of it at once, and so does the
    saving tab of the next change made elsewhere."""
    shown, mine, theirs = table.version(), new_tab_name(), new_tab_name()

    async def save_here_then_elsewhere() -> tuple[httpx.Response, httpx.Response, int]:
        async with client(table, "ann") as ann, client(table, "finn") as finn:
            params = {"game": table.game_id, "since": shown}
            saving = asyncio.create_task(ann.get(ROUTE, params={**params, "tab": mine}))
            other = asyncio.create_task(finn.get(ROUTE, params={**params, "tab": theirs}))
            await until_waiting(table, 2)
            await asyncio.to_thread(table.save_round, 1, mine)
            answered = await other
            reads, deadline = table.live.watcher.reads, time.monotonic() + 10
            # three more reads of the versions (the watcher reads only while someone waits)
            while table.live.watcher.reads < reads + 3 and not saving.done():
                assert time.monotonic() < deadline, "the watcher stopped reading"
                await asyncio.sleep(EVERY / 2)
            assert not saving.done(), "the saving tab was woken by its own save"
            own_version = table.version()
            await asyncio.to_thread(table.save_round, 2)  # another phone
            return answered, await saving, own_version

    other, saving, own_version = run(save_here_then_elsewhere())
    assert other.json() == {"version": own_version}
    assert saving.json() == {"version": table.version()} != {"version": own_version}


def test_a_tab_behind_only_by_its_own_save_waits_and_is_told_when_its_time_runs_out(table):
    """A request that arrives after the tab's own save, still naming the version from
    before it, is not answered at once; if the run that draws the save never comes, the
    answer at the end of the wait lets the tab catch up."""
    shown, mine = table.version(), new_tab_name()
    table.save_round(1, mine)
    started = time.monotonic()
    answer = ask(table, "ann", game=table.game_id, since=shown, tab=mine)
    assert WAIT <= time.monotonic() - started < WAIT + 1.0
    assert answer.json() == {"version": table.version()} != {"version": shown}
    started = time.monotonic()
    elsewhere = ask(table, "ann", game=table.game_id, since=shown, tab=new_tab_name())
    assert time.monotonic() - started < WAIT
    assert elsewhere.json() == {"version": table.version()}


def test_own_changes_keep_the_latest_version_per_tab_and_forget_the_oldest_first():
    own = OwnChanges(most=2)
    game = (Watched.GAME, 7)
    own.note(game, "tab-one-aaaa", 3)
    own.note(game, "tab-one-aaaa", 4)
    own.note(game, "tab-two-bbbb", 4)
    assert (own.of(game, "tab-one-aaaa"), own.of(game, "tab-two-bbbb")) == (4, 4)
    assert own.of(game, None) is None and own.of((Watched.GROUP, 7), "tab-one-aaaa") is None
    own.note((Watched.GAME, 8), "tab-three-cc", 1)
    assert own.of(game, "tab-one-aaaa") is None  # the oldest note went
    assert own.of(game, "tab-two-bbbb") == 4


def test_a_request_waits_in_vain_at_most_its_time_and_gets_the_same_version(table):
    shown = table.version()
    started = time.monotonic()
    answer = ask(table, "ann", game=table.game_id, since=shown)
    assert WAIT <= time.monotonic() - started < WAIT + 1.0
    assert answer.json() == {"version": shown}


def test_a_stopping_server_answers_every_waiting_page_503_at_once_and_later_ones_too(table):
    """Stopping (see dutch_app/web/lifespan.py) must not wait for the slowest page."""
    table.live.wait_seconds = 30.0  # the wait would outlast the test by far
    shown = table.version()
    params = {"game": table.game_id, "since": shown}

    async def stop_while_waiting() -> tuple[list[httpx.Response], float, httpx.Response]:
        async with client(table, "finn") as http:
            waiting = [asyncio.create_task(http.get(ROUTE, params=params)) for _ in range(3)]
            await until_waiting(table, 3)
            assert not any(task.done() for task in waiting)
            stopped = time.monotonic()
            table.live.stop()
            answers = await asyncio.gather(*waiting)
            return answers, time.monotonic() - stopped, await http.get(ROUTE, params=params)

    answers, delay, later = run(stop_while_waiting())
    assert [answer.status_code for answer in answers] == [503, 503, 503]
    assert delay < 1.0
    assert later.status_code == 503
    assert table.live.watcher.waiting == 0


def test_a_page_that_goes_away_stops_waiting_at_once(table):
    """A closed tab's request is not kept until its wait runs out (it would hold a place
    among the requests a process serves, and hold a stopping server up)."""
    table.live.wait_seconds = 30.0
    shown = table.version()
    cookie = f"dutch_session={table.tokens['finn']}".encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": ROUTE,
        "raw_path": ROUTE.encode(),
        "query_string": f"game={table.game_id}&since={shown}".encode(),
        "headers": [(b"host", b"app"), (b"cookie", cookie)],
        "server": ("app", 80),
        "client": ("127.0.0.1", 5000),
        "root_path": "",
    }

    async def leave_while_waiting() -> tuple[int, float, list[dict]]:
        left = asyncio.Event()
        sent: list[dict] = []
        first = True

        async def receive() -> dict:
            nonlocal first
            if first:
                first = False
                return {"type": "http.request", "body": b"", "more_body": False}
            await left.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        handling = asyncio.create_task(table.app(scope, receive, send))
        await until_waiting(table, 1)
        waiting = table.live.watcher.waiting
        assert not handling.done()
        gone = time.monotonic()
        left.set()
        await asyncio.wait_for(handling, 5)
        return waiting, time.monotonic() - gone, sent

    waiting, delay, sent = run(leave_while_waiting())
    assert waiting == 1
    assert delay < 1.0
    assert table.live.watcher.waiting == 0
    assert sent[0]["status"] == 503  # said to nobody; nothing was held for the page


def test_a_deleted_game_is_reported_as_gone(table):
    shown = table.version()

    async def wait_and_delete() -> httpx.Response:
        async with client(table, "finn") as http:
            waiting = asyncio.create_task(
                http.get(ROUTE, params={"game": table.game_id, "since": shown})
            )
            await until_waiting(table, 1)
            await asyncio.to_thread(table.call, games.delete_game, table.game_id)
            return await waiting

    assert run(wait_and_delete()).json() == {"version": None}


def test_many_waiting_pages_cost_one_query_per_kind_per_read(table, sessions):
    """Thirty open pages of two games and a group: each read of the watcher is two queries."""
    other = table.call(games.start_game, table.group_id, table.seats, PRESETS["classic"])
    statements: list[str] = []
    engine = sessions.kw["bind"]

    def keep(_conn, _cursor, statement, _parameters, _context, _many):
        statements.append(statement)

    asked = [("game", table.game_id), ("game", other.id), ("group", table.group_id)]
    now = {
        "game": {table.game_id: table.version(), other.id: other.version},
        "group": {table.group_id: table.call(groups.data_version, table.group_id)},
    }

    table.live.caps = WaitCaps(per_person=30)  # thirty open pages of one person, on purpose

    async def thirty() -> list[httpx.Response]:
        async with client(table, "ann") as http:
            requests = [
                http.get(ROUTE, params={kind: ident, "since": now[kind][ident]})
                for kind, ident in asked * 10
            ]
            return await asyncio.gather(*requests)

    event.listen(engine, "before_cursor_execute", keep)
    try:
        answers = run(thirty())
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    assert all(answer.status_code == 200 for answer in answers)
    queries = [s for s in statements if s.strip().upper() not in {"BEGIN", "ROLLBACK", "COMMIT"}]
    watcher_reads = [q for q in queries if " IN (" in q.upper()]
    # each request: its session (the person, by primary key) and its membership with the version
    assert len(queries) - len(watcher_reads) == 30 * 2, queries
    game_reads = [q for q in watcher_reads if "FROM games" in q]
    group_reads = [q for q in watcher_reads if "FROM groups" in q]
    assert len(game_reads) + len(group_reads) == len(watcher_reads), watcher_reads
    # each read asks once per kind, for every page waiting on it: at most one read every
    # EVERY seconds (a busy machine reads less often), and it kept reading while they waited
    assert abs(len(game_reads) - len(group_reads)) <= 1, watcher_reads
    assert 3 <= len(game_reads) <= WAIT / EVERY + 2, watcher_reads


def test_versions_reads_each_kind_in_one_query(table, sessions):
    other = table.call(games.start_game, table.group_id, table.seats, PRESETS["classic"])
    statements: list[str] = []
    engine = sessions.kw["bind"]

    def keep(*arguments):
        statements.append(arguments[2])

    event.listen(engine, "before_cursor_execute", keep)
    with sessions() as session:
        found = perform(
            session,
            versions,
            [
                (Watched.GAME, table.game_id),
                (Watched.GAME, other.id),
                (Watched.GAME, 10**9),
                (Watched.GROUP, table.group_id),
            ],
        )
    event.remove(engine, "before_cursor_execute", keep)
    assert found == {
        (Watched.GAME, table.game_id): table.version(),
        (Watched.GAME, other.id): other.version,
        (Watched.GROUP, table.group_id): table.call(groups.data_version, table.group_id),
    }
    queries = [s for s in statements if s.strip().upper() not in {"BEGIN", "ROLLBACK"}]
    assert len(queries) == 2
    assert all(q.lstrip().upper().startswith("SELECT") for q in queries)
    assert not any("round" in q.lower() for q in queries)  # no history read


def test_the_watcher_reads_only_while_someone_waits():
    reads: list[list] = []

    def read(keys):
        reads.append(sorted(keys))
        return {key: 1 for key in keys}

    async def scenario() -> tuple[list[int | None], int]:
        watcher = VersionWatcher(read, every=0.05)
        key = (Watched.GAME, 5)
        results = await asyncio.gather(*(watcher.wait(key, 0, 1.0) for _ in range(10)))
        await asyncio.sleep(0.3)
        return results, watcher.waiting

    results, left = run(scenario())
    assert results == [1] * 10 and left == 0
    assert len(reads) == 1  # one read answered all ten, and then the watcher stopped
    assert reads[0] == [(Watched.GAME, 5)]


# --- How many requests may wait ---------------------------------------------------------------


def test_one_person_holds_only_so_many_waiting_requests(table):
    """A phone holds one request per open tab; a script holding a thousand would hold a
    thousand of the server's open files. Beyond the cap the route answers 429 at once;
    others wait as ever, and a place given back is free again."""
    table.live.caps = WaitCaps(per_person=3)
    shown = table.version()
    params = {"game": table.game_id, "since": shown}

    async def five_of_finn_and_one_of_ann():
        async with client(table, "finn") as finn, client(table, "ann") as ann:
            waiting = [asyncio.create_task(finn.get(ROUTE, params=params)) for _ in range(3)]
            await until_waiting(table, 3)
            started = time.monotonic()
            refused = await asyncio.gather(*(finn.get(ROUTE, params=params) for _ in range(2)))
            refused_within = time.monotonic() - started
            anns = asyncio.create_task(ann.get(ROUTE, params=params))
            await until_waiting(table, 4)
            await asyncio.to_thread(table.save_round, 1)
            answered = await asyncio.gather(*waiting, anns)
            moved = {"game": table.game_id, "since": table.version()}
            again = [asyncio.create_task(finn.get(ROUTE, params=moved)) for _ in range(3)]
            await until_waiting(table, 3)
            await asyncio.to_thread(table.save_round, 2)
            return refused, refused_within, answered, await asyncio.gather(*again)

    refused, refused_within, answered, again = run(five_of_finn_and_one_of_ann())
    assert [answer.status_code for answer in refused] == [429, 429]
    assert all(answer.content == b"" for answer in refused)
    assert refused_within < WAIT
    assert [answer.json() for answer in answered] == [{"version": shown + 1}] * 4
    assert [answer.status_code for answer in again] == [200] * 3
    assert table.live.watcher.waiting == 0


def test_one_network_holds_only_so_many_and_its_address_is_read_behind_the_proxy(table):
    """Ann and Finn at one table share a network; behind the one trusted proxy each
    network is the address that proxy saw, not the proxy's own."""
    table.live.caps = WaitCaps(per_person=10, per_network=2, trusted_proxies=1)
    params = {"game": table.game_id, "since": table.version()}
    home = {"X-Forwarded-For": "198.51.100.7"}
    elsewhere = {"X-Forwarded-For": "203.0.113.9"}

    async def three_at_home_one_elsewhere():
        async with (
            client(table, "ann", headers=home) as ann,
            client(table, "finn", headers=home) as finn,
            client(table, "finn", headers=elsewhere) as finn_away,
        ):
            waiting = [
                asyncio.create_task(ann.get(ROUTE, params=params)),
                asyncio.create_task(finn.get(ROUTE, params=params)),
            ]
            await until_waiting(table, 2)
            refused = await finn.get(ROUTE, params=params)
            away = asyncio.create_task(finn_away.get(ROUTE, params=params))
            await until_waiting(table, 3)
            await asyncio.to_thread(table.save_round, 1)
            return refused, await asyncio.gather(*waiting, away)

    refused, answered = run(three_at_home_one_elsewhere())
    assert refused.status_code == 429
    assert [answer.status_code for answer in answered] == [200, 200, 200]


def test_over_real_connections_one_person_gets_eight_waits_and_then_429(table):
    """Twelve connections of one person to a real server: eight wait (the default cap),
    four are answered 429 at once and closed, so they hold none of its open files."""
    table.live.caps = WaitCaps()
    params = {"game": table.game_id, "since": table.version()}
    cookies = {"dutch_session": table.tokens["finn"]}
    limits = httpx.Limits(max_connections=20)

    async def twelve(url: str):
        async with httpx.AsyncClient(base_url=url, cookies=cookies, limits=limits) as http:
            asked = [asyncio.create_task(http.get(ROUTE, params=params)) for _ in range(12)]
            await until_waiting(table, 8)
            refused = [task for task in asked if task.done()]
            deadline = time.monotonic() + 10
            while len(refused) < 4:
                assert time.monotonic() < deadline, f"{len(refused)} of 4 refused"
                await asyncio.sleep(0.01)
                refused = [task for task in asked if task.done()]
            statuses = sorted(task.result().status_code for task in refused)
            await asyncio.to_thread(table.save_round, 1)
            answered = [(await task).status_code for task in asked if task not in refused]
            return statuses, answered

    with serving_in_thread(table.app) as url:
        statuses, answered = run(twelve(url))
    assert statuses == [429] * 4
    assert answered == [200] * 8
