"""The session cookie, set by the web server: ``HttpOnly``, ``SameSite=Strict``, ``Secure``.

A Streamlit script talks to the browser over a websocket, and a websocket cannot set a
cookie. So when someone signs in or out, the script books the change here and gets a
ticket: 256 random bits, good for one use within a minute. The page then shows a hidden
image whose address carries the ticket (:func:`ticket_image`); the browser's request for
that image reaches :func:`set_session_cookie` on the same server process, which answers
with the ``Set-Cookie`` header. The token itself never appears in the page, and no script
in the page can read the cookie. A ticket fetched from another site is refused (the
browser says so in ``Sec-Fetch-Site``), so nobody can sign a visitor into their own account.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from dutch_app.web.assets import asset_path

SESSION_COOKIE = "dutch_session"
COOKIE_ROUTE = "session-cookie"
TICKET_SECONDS = 60.0
MAX_TICKETS = 10_000


@dataclass(frozen=True)
class CookieChange:
    """What one ticket does to the session cookie."""

    value: str  # the signed session token; "" removes the cookie
    max_age: int  # seconds the browser keeps it; 0 removes it
    always_secure: bool  # Secure even when the request arrived over plain HTTP (hosted)
    expires: float  # on the book's clock


class TicketBook:
    """Cookie changes waiting for the browser to fetch them, each fetched at most once.

    >>> book = TicketBook(clock=lambda: 0.0)
    >>> ticket = book.issue("token", 3600, always_secure=False)
    >>> book.redeem(ticket).value, book.redeem(ticket)
    ('token', None)
    """

    def __init__(
        self,
        lifetime: float = TICKET_SECONDS,
        capacity: int = MAX_TICKETS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lifetime = lifetime
        self._capacity = capacity
        self._clock = clock
        self._waiting: dict[str, CookieChange] = {}
        self._lock = threading.Lock()
        self.served = False  # whether this process's web server has the cookie route

    def issue(self, value: str, max_age: int, always_secure: bool) -> str:
        """Book a cookie change and return the ticket that carries it out."""
        ticket = secrets.token_urlsafe(32)
        now = self._clock()
        change = CookieChange(value, max_age, always_secure, now + self._lifetime)
        with self._lock:
            self._waiting = {t: kept for t, kept in self._waiting.items() if kept.expires > now}
            while len(self._waiting) >= self._capacity:  # the oldest unfetched goes first
                del self._waiting[next(iter(self._waiting))]
            self._waiting[ticket] = change
        return ticket

    def redeem(self, ticket: str) -> CookieChange | None:
        """The change a ticket books, once; None for an unknown, used or expired ticket."""
        with self._lock:
            change = self._waiting.pop(ticket, None)
        if change is None or change.expires <= self._clock():
            return None
        return change

    def __len__(self) -> int:
        with self._lock:
            return len(self._waiting)


# The one book of this server process: the scripts (which issue tickets) and the web
# server's route (which redeems them) run in the same process and must share it.
TICKETS = TicketBook()


def cookie_route_path(base_url_path: str = "") -> str:
    """The absolute path of the cookie route under Streamlit's ``server.baseUrlPath``."""
    return asset_path(COOKIE_ROUTE, base_url_path)


def ticket_image(ticket: str, base_url_path: str = "") -> str:
    """The hidden image whose request makes the browser carry out a ticket.

    >>> ticket_image("abc")
    '<img hidden alt="" src="/_dutch/session-cookie?ticket=abc">'
    """
    src = f"{cookie_route_path(base_url_path)}?ticket={quote(ticket, safe='')}"
    return f'<img hidden alt="" src="{escape(src)}">'


def no_store(status_code: int) -> Response:
    """An empty answer with this status that no cache keeps."""
    return Response(status_code=status_code, headers={"Cache-Control": "no-store"})


async def set_session_cookie(request: Request) -> Response:
    """Carry out the ticket in the query: answer with the cookie it books (204), or refuse.

    Refused with 403 when the request came from another site, 404 for a ticket that is
    unknown, already used or expired.
    """
    if request.headers.get("sec-fetch-site", "same-origin") != "same-origin":
        return no_store(403)
    change = TICKETS.redeem(request.query_params.get("ticket", ""))
    if change is None:
        return no_store(404)
    response = no_store(204)
    response.set_cookie(
        SESSION_COOKIE,
        change.value,
        max_age=change.max_age,
        path="/",
        secure=change.always_secure or request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    return response


def cookie_routes(base_url_path: str = "") -> list[Route]:
    """The web server's route that sets and removes the session cookie."""
    TICKETS.served = True
    return [Route(cookie_route_path(base_url_path), set_session_cookie, methods=["GET"])]
