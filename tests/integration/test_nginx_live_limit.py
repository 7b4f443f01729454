"""deploy/nginx.conf lets one address hold only so many requests on the live route.

Real sockets: nginx runs the kept configuration in front of a small server whose live
route holds every request, as the app's does while a game stands still, until the test has
seen the refusals (or for at most HOLD seconds): a refusal that waited for a held request to
end would come only after HOLD, however busy the machine.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tests.servers import NGINX, serving_in_thread, start_balancer, stop_process_group

PER_ADDRESS = 100  # deploy/nginx.conf: limit_conn dutch_live 100
HOLD = 30.0  # the most seconds the stand-in server holds a live request
RELEASE = threading.Event()  # set once the test has every refusal it expects


async def hold(request: Request) -> Response:
    deadline = time.monotonic() + HOLD
    while not RELEASE.is_set() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return PlainTextResponse('{"version": 1}')


async def health(request: Request) -> Response:
    return PlainTextResponse("ok")


STAND_IN = Starlette(
    routes=[Route("/_dutch/live", hold), Route("/_stcore/health", health)],
)


def test_one_address_holds_at_most_the_limit_of_live_requests(tmp_path, service_unavailable):
    if not Path(NGINX).exists():
        service_unavailable(f"nginx is not installed at {NGINX} (scripts/system-deps.sh)")
    RELEASE.clear()
    with serving_in_thread(STAND_IN) as backend:
        balancer = start_balancer([backend], tmp_path / "nginx")
        try:

            async def many() -> tuple[list[int], float]:
                limits = httpx.Limits(max_connections=PER_ADDRESS + 20)
                async with httpx.AsyncClient(base_url=balancer.url, limits=limits) as http:
                    started = time.monotonic()

                    refusals = 0

                    async def one() -> tuple[int, float]:
                        nonlocal refusals
                        answer = await http.get("/_dutch/live", params={"game": 1, "since": 1})
                        if answer.status_code == 429:
                            refusals += 1
                            if refusals == 20:
                                RELEASE.set()
                        return answer.status_code, time.monotonic() - started

                    answers = await asyncio.gather(*(one() for _ in range(PER_ADDRESS + 20)))
                refused = [after for status, after in answers if status == 429]
                return sorted(status for status, _ in answers), max(refused, default=HOLD)

            statuses, refused_after = asyncio.run(many())
        finally:
            stop_process_group(balancer.process)
    assert statuses == [200] * PER_ADDRESS + [429] * 20
    assert refused_after < HOLD  # refused at once, not after waiting
