"""deploy/nginx.conf compresses the text answers, passes the caching headers on, leaves the
live route's answer as it comes, and gives every location the forwarded headers.

Real sockets: nginx runs the kept configuration in front of a small server that answers as
the app does (a page, a content-hashed script, a live route that holds its answer a moment)
and notes the headers each request reached it with.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tests.servers import NGINX, serving_in_thread, start_balancer, stop_process_group

HOLD = 1.0  # seconds the stand-in's live route holds its answer
PAGE = "<!DOCTYPE html><html><body>" + "<p>Dutch Scorer</p>" * 400 + "</body></html>"
SCRIPT = "export function score(hand) { return hand.total; }\n" * 2000
A_YEAR = "public, immutable, max-age=31536000"
seen: dict[str, dict[str, str]] = {}


def noted(request: Request) -> None:
    seen[request.url.path] = dict(request.headers)


async def page(request: Request) -> Response:
    noted(request)
    return Response(PAGE, media_type="text/html", headers={"Cache-Control": "no-cache"})


async def script(request: Request) -> Response:
    noted(request)
    return Response(SCRIPT, media_type="application/javascript", headers={"Cache-Control": A_YEAR})


async def live(request: Request) -> Response:
    noted(request)
    await asyncio.sleep(HOLD)
    # Larger than any real answer, so that compression, were it on, would apply.
    return JSONResponse({"version": 2, "padding": "x" * 2000})


async def health(request: Request) -> Response:
    return PlainTextResponse("ok")


STAND_IN = Starlette(
    routes=[
        Route("/_dutch/live", live),
        Route("/_stcore/health", health),
        Route("/static/js/index.abc123.js", script),
        Route("/", page),
    ]
)


@pytest.fixture(scope="module")
def balancer(tmp_path_factory: pytest.TempPathFactory, service_unavailable) -> Iterator[str]:
    """nginx with the kept configuration in front of the stand-in server; its URL."""
    if not Path(NGINX).exists():
        service_unavailable(f"nginx is not installed at {NGINX} (scripts/system-deps.sh)")
    with serving_in_thread(STAND_IN) as backend:
        running = start_balancer([backend], tmp_path_factory.mktemp("nginx"))
        try:
            yield running.url
        finally:
            stop_process_group(running.process)


def over_the_wire(url: str, encoding: str) -> tuple[httpx.Response, int]:
    with httpx.stream("GET", url, headers={"Accept-Encoding": encoding}, timeout=30) as answer:
        size = sum(len(chunk) for chunk in answer.iter_raw())
    return answer, size


@pytest.mark.parametrize(
    ("path", "kept"), [("/", "no-cache"), ("/static/js/index.abc123.js", A_YEAR)]
)
def test_nginx_gzips_the_page_and_scripts_and_passes_their_caching_on(balancer, path, kept):
    """Asked for gzip, nginx compresses the page and the script itself (the server behind is
    not asked to) and keeps the server's Cache-Control."""
    zipped, zipped_size = over_the_wire(balancer + path, "gzip")
    plain, plain_size = over_the_wire(balancer + path, "identity")
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert zipped_size * 3 < plain_size
    assert zipped.headers["cache-control"] == plain.headers["cache-control"] == kept
    assert "accept-encoding" not in seen[path]


def test_the_live_route_is_answered_as_it_comes_uncompressed(balancer):
    """The live route's answer leaves nginx as soon as the server gives it, not gzipped."""
    started = time.monotonic()
    answer, _size = over_the_wire(f"{balancer}/_dutch/live?game=1&since=1", "gzip")
    assert answer.status_code == 200
    assert "content-encoding" not in answer.headers
    assert time.monotonic() - started < HOLD + 1.0


@pytest.mark.parametrize("path", ["/", "/_dutch/live"])
def test_every_location_passes_the_forwarded_headers(balancer, path):
    """The page and the live route reach the server with the client's address and scheme
    and the host asked for (the live route counts waits per network by them)."""
    httpx.get(f"{balancer}{path}", headers={"Host": "scores.example"}, timeout=30)
    headers = seen[path]
    assert headers["host"] == "scores.example"
    assert headers["x-forwarded-for"] == "127.0.0.1"
    assert headers["x-forwarded-proto"] == "http"
