"""The live route: an open page asks here whether its game moved on, and waits for it.

Each open Play page or table view holds one request to this route open (a long
poll): ``GET /_dutch/live?game=7&since=12`` (or ``group=…``). The answer comes as
soon as the game is no longer at version 12, or after :data:`WAIT_SECONDS` with
the version unchanged; either way it is ``{"version": N}`` and nothing else
(``null`` once the game is gone). The page then asks again, or, when the version
moved, reruns its live fragment, which draws the new state.

Every request is checked first: the session cookie must stand for a signed-in
person whose session has not ended (one query by primary key), and that person
must be a member of the game's group (one indexed query, which also gives the
current version). Without a valid session the answer is 401; for an unknown id
and for someone who is not a member alike, 404, so an id cannot be probed.

While requests wait, one :class:`VersionWatcher` per server process reads the
versions of everything waited on, in one indexed query per kind every
:data:`WATCH_EVERY` seconds, however many pages are open. Versions live in the
database, so any server behind the balancer answers correctly, whichever of
them stored the change.

A waiting request ends early in two cases, so that nothing holds a server up: when the
page that asked has gone (its tab closed, the connection dropped), and when the server is
told to stop (SIGTERM or SIGINT, see :func:`dutch_app.web.lifespan`): every waiting page
then gets 503 at once and asks again, through the balancer, of a server that is running.
Without this a stopping server would wait up to :data:`WAIT_SECONDS` for the last page.

A page that changes its game itself (a round saved from it) draws the new version in the
run that follows, so its own change need not wake its own request: such a wake-up used
to cost one more run of the page, and on a busy server, where the watcher often sees the
change before that run has reached the phone, it came after nearly every save. Each tab
therefore names itself in its requests (``&tab=…``, a random name kept in its session),
and the page notes in :data:`own_changes` the version its own save produced; a request
of that tab treats that version as the one it was drawn at and goes on waiting. Any
other change still answers it at once, and a request whose time runs out is answered
as before, so a tab whose run never came still catches up. The note lives in the
server process, which the balancer keeps each tab on; a request that reaches another
server is answered as if there were no note.

Every waiting request holds an open connection, and a process has only so many open
files: one person holding a thousand would shut everyone else out. So each server
process lets one person hold at most ``live_waits_per_person`` waiting requests, and one
network address (behind ``trusted_proxies`` proxies, the address they saw) at most
``live_waits_per_network`` (:class:`WaitCaps`, read from the ``[limits]``); a request
beyond either is answered 429 at once, and that page asks by itself instead (as when
the route cannot be reached). A phone needs one per open tab.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from cachetools import FIFOCache
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dutch_app.accounts.tokens import parse_token
from dutch_app.config import Limits, limits
from dutch_app.round_payload import LARGEST_NUMBER
from dutch_app.services.errors import ServiceError
from dutch_app.services.live import Key, Watched, member_version, versions
from dutch_app.services.unit_of_work import perform
from dutch_app.throttle import client_key
from dutch_app.web.assets import asset_path
from dutch_app.web.cookie import SESSION_COOKIE, no_store
from dutch_app.web.open_files import Sparse

log = logging.getLogger(__name__)

WATCH_EVERY = 1.0  # seconds between two reads of the watched versions
WAIT_SECONDS = 40.0  # the longest a request waits; well under the balancer's read timeout
MAX_WAITING = 20_000  # requests one process holds open at once; more get 503
_TAB = re.compile(r"[A-Za-z0-9_-]{8,64}")  # a tab's name, as :func:`new_tab_name` makes it


class OwnChanges:
    """The versions tabs produced themselves: (what they follow, the tab) → the version
    their own last change made. Bounded: the oldest notes go first (a forgotten note
    only costs that tab one more run). Safe to use from any thread."""

    def __init__(self, most: int = 50_000) -> None:
        self._notes: FIFOCache[tuple[Key, str], int] = FIFOCache(most)
        self._lock = threading.Lock()

    def note(self, key: Key, tab: str, version: int) -> None:
        """Tab ``tab`` changed ``key`` to ``version`` and its next run draws it."""
        with self._lock:
            self._notes[(key, tab)] = version  # a note written again is the newest

    def of(self, key: Key, tab: str | None) -> int | None:
        """The version tab ``tab``'s own last change of ``key`` made (None: none noted)."""
        if tab is None:
            return None
        with self._lock:
            return self._notes.get((key, tab))


own_changes = OwnChanges()
"""The server process's notes of the changes tabs made themselves."""


@dataclass(frozen=True)
class WaitCaps:
    """How many requests may wait at once in one server process, per person and per
    network address, and how many proxies' ``X-Forwarded-For`` entries to trust."""

    per_person: int = Limits.live_waits_per_person
    per_network: int = Limits.live_waits_per_network
    trusted_proxies: int = Limits.trusted_proxies


class _Account(Protocol):
    @property
    def user_id(self) -> int: ...


class _Accounts(Protocol):
    def check_session(self, token: str) -> _Account | None: ...


class LiveResources(Protocol):
    """What the route needs of the app: its database sessions and its account store."""

    @property
    def sessions(self) -> sessionmaker[Session]: ...

    @property
    def accounts(self) -> _Accounts: ...


def live_route_path(base_url_path: str = "") -> str:
    """The absolute path of the live route under Streamlit's ``server.baseUrlPath``."""
    return asset_path("live", base_url_path)


class Stopping(Exception):
    """The server is stopping: the request should be asked again of a running one."""


class VersionWatcher:
    """Tells waiting requests when the version they wait on changes.

    It runs only while somebody waits: every ``every`` seconds it reads the versions
    of all waited-on keys with one call of ``read`` (in a worker thread) and answers
    each waiter whose key is no longer at the version it holds.
    """

    def __init__(
        self, read: Callable[[Iterable[Key]], dict[Key, int]], every: float = WATCH_EVERY
    ) -> None:
        self._read = read
        self._every = every
        self._waiting: dict[Key, dict[asyncio.Future[int | None], int]] = {}
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.reads = 0  # how many times the versions were read (for tests and benchmarks)

    @property
    def waiting(self) -> int:
        """How many requests wait now."""
        return sum(len(futures) for futures in self._waiting.values())

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called: no request waits any more."""
        return self._stopping

    def stop(self) -> None:
        """End every wait with :class:`Stopping`, now and from now on (the server stops)."""
        self._stopping = True
        for futures in self._waiting.values():
            for future in futures:
                if not future.done():
                    future.set_exception(Stopping())

    async def wait(self, key: Key, since: int, timeout: float) -> int | None:
        """The version of ``key`` once it is no longer ``since`` (None: gone), or ``since``
        after ``timeout`` seconds; raises :class:`Stopping` once the server stops."""
        if self._stopping:
            raise Stopping
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, {})[future] = since
        if self._task is None:
            self._task = asyncio.create_task(self._watch())
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return since
        finally:
            futures = self._waiting.get(key, {})
            futures.pop(future, None)
            if not futures:
                self._waiting.pop(key, None)

    async def _watch(self) -> None:
        try:
            while self._waiting:
                await asyncio.sleep(self._every)
                keys = list(self._waiting)
                if not keys:
                    break
                try:
                    found = await run_in_threadpool(self._read, keys)
                except Exception:  # a passing database hiccup: the next round tries again
                    log.warning("reading the live versions failed", exc_info=True)
                    continue
                self.reads += 1
                for key in keys:
                    now = found.get(key)
                    for future, since in self._waiting.get(key, {}).items():
                        if now != since and not future.done():
                            future.set_result(now)
        finally:
            self._task = None


@dataclass(frozen=True)
class _Asked:
    kind: Watched
    ident: int
    since: int
    tab: str | None = None


def _number(text: str | None) -> int | None:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 10:
        return None
    number = int(text)
    return number if number <= LARGEST_NUMBER else None


def _asked(request: Request) -> _Asked | None:
    """What the request asks about, or None when its query is not exactly one of ours."""
    params = request.query_params
    kinds = [kind for kind in Watched if kind.value in params]
    if len(kinds) != 1 or not {kinds[0].value, "since"} <= set(params) <= {
        kinds[0].value,
        "since",
        "tab",
    }:
        return None
    ident, since = _number(params[kinds[0].value]), _number(params["since"])
    tab = params.get("tab")
    if ident is None or since is None or (tab is not None and not _TAB.fullmatch(tab)):
        return None
    return _Asked(kinds[0], ident, since, tab)


async def _gone(request: Request) -> None:
    """Return once the client that sent ``request`` has gone (the connection dropped)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass  # the (empty) body of the GET: what follows it is the disconnect


def _answer(version: int | None) -> Response:
    return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})


class LiveRoute:
    """The route's handler, bound to the app's resources and the process's watcher."""

    def __init__(
        self,
        resources: Callable[[], LiveResources],
        wait_seconds: float = WAIT_SECONDS,
        watch_every: float = WATCH_EVERY,
        own: OwnChanges | None = None,
        caps: WaitCaps | None = None,
    ) -> None:
        self._resources = resources
        self.wait_seconds = wait_seconds
        self.watcher = VersionWatcher(self._read_versions, watch_every)
        self.own = own_changes if own is None else own
        if caps is not None:
            self.caps = caps
        self._holding: Counter[str] = Counter()  # waiting requests per person and network
        self._refusals = Sparse()

    @functools.cached_property
    def caps(self) -> WaitCaps:
        """The caps in force (the ``[limits]`` settings unless given or set)."""
        given = limits()
        return WaitCaps(
            given.live_waits_per_person, given.live_waits_per_network, given.trusted_proxies
        )

    def routes(self, base_url_path: str = "") -> list[Route]:
        """The route itself, under Streamlit's ``server.baseUrlPath``."""
        return [Route(live_route_path(base_url_path), self.respond, methods=["GET"])]

    def stop(self) -> None:
        """The server is stopping: answer every waiting page now (503), and every later one."""
        self.watcher.stop()

    def _read_versions(self, keys: Iterable[Key]) -> dict[Key, int]:
        with self._resources().sessions() as session:
            return perform(session, versions, keys)

    def _checked_version(self, token: str, asked: _Asked) -> tuple[int, int | None]:
        """The cookie's person and the version for them, None when they may not see it;
        raises PermissionError for a session that is not (or no longer) valid."""
        resources = self._resources()
        account = resources.accounts.check_session(token)
        if account is None:
            raise PermissionError("no valid session")
        try:
            with resources.sessions() as session:
                version = perform(session, member_version, account.user_id, asked.kind, asked.ident)
        except ServiceError:
            version = None
        return account.user_id, version

    def _holders(self, request: Request, user_id: int) -> list[tuple[str, int]]:
        """Whom a waiting request counts against, each with their cap."""
        caps = self.caps
        holders = [(f"person {user_id}", caps.per_person)]
        forwarded = request.headers.get("x-forwarded-for") if caps.trusted_proxies else None
        network = client_key(
            request.client.host if request.client else None, forwarded, caps.trusted_proxies
        )
        if network is not None:
            holders.append((f"network {network}", caps.per_network))
        return holders

    async def respond(self, request: Request) -> Response:
        """Answer one open page (see the module's text)."""
        if request.headers.get("sec-fetch-site", "same-origin") != "same-origin":
            return no_store(403)
        asked = _asked(request)
        if asked is None:
            return no_store(400)
        token = request.cookies.get(SESSION_COOKIE, "")
        if not token:
            return no_store(401)
        # A flood from one person is refused before it costs any query: by the id the
        # cookie names, unchecked (a forged one can only refuse its own sender), and again
        # by the checked one below.
        claimed = parse_token(token)
        if claimed is not None and self._full(self._holders(request, claimed[0].user_id)):
            return no_store(429)
        try:
            user_id, version = await run_in_threadpool(self._checked_version, token, asked)
        except PermissionError:
            return no_store(401)
        except Exception:  # the database is away: the page tries again, then asks by itself
            log.warning("checking a live request failed", exc_info=True)
            return no_store(503)
        if version is None:
            return no_store(404)
        key = (asked.kind, asked.ident)
        if version != asked.since and version != self.own.of(key, asked.tab):
            return _answer(version)
        if self.watcher.waiting >= MAX_WAITING or self.watcher.stopping:
            return no_store(503)
        holders = self._holders(request, user_id)
        if self._full(holders):
            return no_store(429)
        self._holding.update(holder for holder, _cap in holders)
        try:
            return await self._answer_when_moved(request, key, version, asked.tab)
        finally:
            self._holding -= Counter(holder for holder, _cap in holders)  # drops the zeros

    def _full(self, holders: list[tuple[str, int]]) -> bool:
        """Whether any of ``holders`` holds as many waiting requests as it may (logged at
        most once a minute)."""
        full = [holder for holder, cap in holders if self._holding[holder] >= cap]
        if full and (left_out := self._refusals.due()) is not None:
            log.warning(
                "live route: %s holds as many waiting requests as it may; refused with 429 "
                "(%s more like it left out of this log)",
                full[0],
                left_out,
            )
        return bool(full)

    async def _answer_when_moved(
        self, request: Request, key: Key, version: int, tab: str | None = None
    ) -> Response:
        """Wait for ``key`` to move on from ``version`` to a version other than the tab's
        own change, unless the page goes first."""
        gone = asyncio.ensure_future(_gone(request))
        deadline = time.monotonic() + self.wait_seconds
        try:
            while True:
                left = max(0.0, deadline - time.monotonic())
                waiting = asyncio.ensure_future(self.watcher.wait(key, version, left))
                try:
                    await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    if not waiting.done():  # the page has gone: stop waiting for it
                        waiting.cancel()
                        await asyncio.wait({waiting})
                if waiting.cancelled():
                    return no_store(503)  # nobody is left to read it
                try:
                    moved = waiting.result()
                except Stopping:
                    return no_store(503)
                if moved == version or moved is None or moved != self.own.of(key, tab):
                    return _answer(moved)
                version = moved  # the tab's own change: its next run draws it
        finally:
            gone.cancel()


def is_tab_name(text: object) -> bool:
    """Whether ``text`` is a tab's name as :func:`new_tab_name` makes them."""
    return isinstance(text, str) and _TAB.fullmatch(text) is not None


def new_tab_name() -> str:
    """A random name for a browser tab's requests (see the module's text)."""
    return secrets.token_urlsafe(12)
