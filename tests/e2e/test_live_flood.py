"""One member's flood of live requests leaves a real ``streamlit run serve.py`` serving others.

A member once held 1,100 requests on the live route of a server started with 1,024 open
files: the server ran out, logged 20 MB of tracebacks in 15 s and made another person's
page wait 4.7 s. Here the server starts with a soft limit of 256 open files, and one
member sends 600 requests at once.
"""

from __future__ import annotations

import asyncio
import os
import resource
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from dutch_app.accounts import make_backend
from dutch_app.config import Limits, load_settings
from dutch_app.services import games, groups, players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import PASSWORD, SESSION_COOKIE
from tests.servers import start_streamlit, stop_process_group

# Six hundred requests at once load the machine: this runs alone.
pytestmark = pytest.mark.deadline

FLOOD = 600
LOW = 256


def open_file_limit(pid: int) -> int:
    """The soft limit of open files of process ``pid``."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-file limit in /proc")


def test_one_members_flood_is_refused_at_once_and_others_are_served(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2 * FLOOD:
        pytest.skip(f"this machine allows only {hard} open files per process")
    url = f"sqlite:///{tmp_path / 'dutch.db'}"
    env = {
        "DUTCH_DATABASE_URL": url,
        "DUTCH_SECRET_KEY": "a-test-key-for-the-live-flood-0123456789",
        "DUTCH_AUTH_BACKEND": "local",
    }
    engine = get_engine(url)
    sessions = make_session_factory(engine)
    accounts = make_backend(sessions, load_settings(secrets={}, environ=env))
    ann = accounts.sign_up("ann@example.com", PASSWORD, "Ann")
    finn = accounts.sign_up("finn@example.com", PASSWORD, "Finn")
    with sessions() as session:
        group = perform(session, groups.create_group, ann.user_id, "Card night")
        perform(session, players.add_player, ann.user_id, group.id, "Ben")
        seats = [p.id for p in perform(session, players.list_players, ann.user_id, group.id)]
        game = perform(session, games.start_game, ann.user_id, group.id, seats, PRESETS["classic"])
        version = perform(session, games.game_version, ann.user_id, game.id)
        perform(session, groups.join_group, finn.user_id, group.invite_code)
    engine.dispose()
    resource.setrlimit(resource.RLIMIT_NOFILE, (LOW, hard))  # what the server starts with
    try:
        run = start_streamlit("serve.py", {**os.environ, **env}, tmp_path)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    live = "/_dutch/live"
    params = {"game": game.id, "since": version}

    async def flood_then_finn() -> tuple[list[int], float, int, float]:
        limits = httpx.Limits(max_connections=FLOOD + 10)
        ann_cookies = {SESSION_COOKIE: accounts.issue_token(ann.user_id)}
        finn_cookies = {SESSION_COOKIE: accounts.issue_token(finn.user_id)}
        async with (
            httpx.AsyncClient(
                base_url=run.url, cookies=ann_cookies, limits=limits, timeout=60
            ) as flood,
            httpx.AsyncClient(base_url=run.url, cookies=finn_cookies, timeout=30) as other,
        ):
            started = time.monotonic()
            asked = [asyncio.create_task(flood.get(live, params=params)) for _ in range(FLOOD)]
            deadline = time.monotonic() + 60
            while sum(task.done() for task in asked) < FLOOD - Limits.live_waits_per_person:
                assert time.monotonic() < deadline, f"{sum(t.done() for t in asked)} answered"
                await asyncio.sleep(0.05)
            refused_within = time.monotonic() - started
            statuses = [task.result().status_code for task in asked if task.done()]
            asked_at = time.monotonic()
            behind = await other.get(live, params={"game": game.id, "since": version + 1})
            finn_waited = time.monotonic() - asked_at
            for task in asked:
                task.cancel()
            return statuses, refused_within, behind.status_code, finn_waited

    try:
        # In a thread of its own: a browser test before it in this process leaves Playwright's
        # event loop running on the main thread.
        with ThreadPoolExecutor(1) as thread:
            flooded = thread.submit(asyncio.run, flood_then_finn()).result()
        statuses, refused_within, finn_status, finn_waited = flooded
        raised = open_file_limit(run.process.pid)
    finally:
        stop_process_group(run.process)
    log = run.log_path.read_text(encoding="utf-8", errors="replace")
    print(f"refused {len(statuses)} within {refused_within:.2f} s; Finn waited {finn_waited:.3f} s")
    assert statuses == [429] * (FLOOD - Limits.live_waits_per_person)
    assert finn_status == 200 and finn_waited < 1.0
    assert raised == (hard if hard != resource.RLIM_INFINITY else LOW)
    assert log.count("refused with 429") == 1, log[-2000:]
    assert "out of system resource" not in log and "connections refused" not in log
    assert len(log) < 20_000, log[-2000:]
