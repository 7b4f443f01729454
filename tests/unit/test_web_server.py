"""The app's own web-server pieces: cookie tickets, the cookie route and the security headers.

The route and the headers run here in a real Starlette application (httpx speaks HTTP to it
in-process); the browser tests in tests/e2e check them on a running server.
"""

from __future__ import annotations

import asyncio
import concurrent.futures

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from dutch_app import web
from dutch_app.web import cookie
from dutch_app.web.cookie import TicketBook, cookie_route_path, ticket_image
from dutch_app.web.headers import (
    STREAMLIT_INDEX,
    inline_script_hashes,
    script_hash,
    security_headers,
)
from dutch_app.web.table_script import TABLE_SCRIPT

ROUTE = "/_dutch/session-cookie"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_ticket_carries_out_its_change_once():
    book = TicketBook(clock=Clock())
    ticket = book.issue("token-1", 3600, always_secure=True)
    change = book.redeem(ticket)
    assert (change.value, change.max_age, change.always_secure) == ("token-1", 3600, True)
    assert book.redeem(ticket) is None
    assert len(book) == 0


def test_tickets_are_long_random_and_different():
    book = TicketBook()
    tickets = {book.issue("t", 60, always_secure=False) for _ in range(200)}
    assert len(tickets) == 200
    assert all(len(ticket) >= 43 for ticket in tickets)  # 32 random bytes, base64url


def test_a_ticket_expires_after_its_lifetime():
    clock = Clock()
    book = TicketBook(lifetime=60, clock=clock)
    kept, late = book.issue("a", 60, False), book.issue("b", 60, False)
    clock.now += 59.9
    assert book.redeem(kept).value == "a"
    clock.now += 0.2
    assert book.redeem(late) is None


def test_unknown_tickets_change_nothing():
    book = TicketBook()
    ticket = book.issue("a", 60, False)
    assert book.redeem("") is None
    assert book.redeem(ticket + "x") is None
    assert book.redeem(ticket).value == "a"


def test_the_book_forgets_expired_tickets_and_never_holds_more_than_its_capacity():
    clock = Clock()
    book = TicketBook(lifetime=60, capacity=3, clock=clock)
    book.issue("old", 60, False)
    clock.now += 61
    first, *_ = [book.issue(str(n), 60, False) for n in range(4)]
    assert len(book) == 3  # the expired one went, then the oldest waiting one
    assert book.redeem(first) is None


def test_the_cookie_route_lives_under_the_servers_base_path():
    assert cookie_route_path("") == ROUTE
    assert cookie_route_path("scores") == "/scores" + ROUTE
    assert ticket_image("a&b", "/scores/") == (
        f'<img hidden alt="" src="/scores{ROUTE}?ticket=a%26b">'
    )


class Server:
    """A Starlette application answering requests in-process."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    def request(self, method: str, url: str, **options) -> httpx.Response:
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://app") as client:
                return await client.request(method, url, **options)

        # In a thread of its own: the browser tests' Playwright keeps an event loop running
        # in the main thread when both kinds run in one session.
        with concurrent.futures.ThreadPoolExecutor(1) as worker:
            return worker.submit(asyncio.run, send()).result()

    def get(self, url: str, **options) -> httpx.Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options) -> httpx.Response:
        return self.request("POST", url, **options)


@pytest.fixture
def server() -> Server:
    """The app's routes and middleware in front of one plain page, as st.App combines them."""

    async def home(_request):
        return PlainTextResponse("home")

    return Server(Starlette(routes=[*web.routes(), Route("/", home)], middleware=web.middleware()))


def cookie_header(response) -> dict[str, str]:
    """The attributes of the answer's Set-Cookie, by lower-case name ("" for flags)."""
    header = response.headers["set-cookie"]
    name_value, *attributes = [part.strip() for part in header.split(";")]
    parsed = {"": name_value}
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        parsed[key.lower()] = value
    return parsed


def test_the_route_sets_an_http_only_strict_cookie(server):
    ticket = cookie.TICKETS.issue("token-9", 7200, always_secure=False)
    response = server.get(ROUTE, params={"ticket": ticket})
    assert response.status_code == 204
    assert response.headers["cache-control"] == "no-store"
    attributes = cookie_header(response)
    assert attributes[""] == "dutch_session=token-9"
    assert attributes["max-age"] == "7200"
    assert attributes["path"] == "/"
    assert attributes["samesite"].lower() == "strict"
    assert "httponly" in attributes
    assert "secure" not in attributes  # plain HTTP, not hosted


def test_the_cookie_is_secure_over_https_or_when_hosted(server):
    over_https = cookie.TICKETS.issue("t", 60, always_secure=False)
    response = server.get(f"https://app{ROUTE}", params={"ticket": over_https})
    assert "secure" in cookie_header(response)
    hosted = cookie.TICKETS.issue("t", 60, always_secure=True)
    assert "secure" in cookie_header(server.get(ROUTE, params={"ticket": hosted}))


def test_signing_out_removes_the_cookie(server):
    ticket = cookie.TICKETS.issue("", 0, always_secure=False)
    attributes = cookie_header(server.get(ROUTE, params={"ticket": ticket}))
    assert attributes[""] in {'dutch_session=""', "dutch_session="}
    assert attributes["max-age"] == "0"


def test_a_ticket_sent_by_another_site_is_refused_and_stays_unused(server):
    ticket = cookie.TICKETS.issue("token", 60, always_secure=False)
    for site in ["cross-site", "same-site", "none"]:
        refused = server.get(ROUTE, params={"ticket": ticket}, headers={"Sec-Fetch-Site": site})
        assert refused.status_code == 403 and "set-cookie" not in refused.headers
    own = server.get(ROUTE, params={"ticket": ticket}, headers={"Sec-Fetch-Site": "same-origin"})
    assert own.status_code == 204


def test_a_used_or_missing_ticket_gets_nothing(server):
    ticket = cookie.TICKETS.issue("token", 60, always_secure=False)
    assert server.get(ROUTE, params={"ticket": ticket}).status_code == 204
    for params in [{"ticket": ticket}, {"ticket": "guess"}, {}]:
        response = server.get(ROUTE, params=params)
        assert response.status_code == 404 and "set-cookie" not in response.headers
    assert server.post(ROUTE, params={"ticket": "x"}).status_code == 405


def test_every_answer_carries_the_security_headers(server):
    for response in [server.get("/"), server.get(ROUTE), server.get("/missing")]:
        for name, value in security_headers():
            assert response.headers[name] == value
    policy = server.get("/").headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    assert server.get("/").headers["x-frame-options"] == "DENY"


def test_the_policy_allows_exactly_the_inline_scripts_of_streamlits_page_and_the_apps_own():
    hashes = inline_script_hashes(STREAMLIT_INDEX.read_text(encoding="utf-8"))
    assert hashes  # Streamlit's page has one; if it ever has none, nothing inline is allowed
    policy = dict(security_headers())["Content-Security-Policy"]
    script_src = next(part for part in policy.split("; ") if part.startswith("script-src "))
    # blob: is how Streamlit loads a component's module (the live component's)
    assert script_src.split()[1:] == ["'self'", *hashes, script_hash(TABLE_SCRIPT), "blob:"]


def test_inline_script_hashes_skip_scripts_loaded_from_files():
    page = '<script>one()</script><script type="module" src="a.js"></script><script>2</script>'
    assert len(inline_script_hashes(page)) == 2
    assert inline_script_hashes('<script src="a.js"></script>') == []
