"""Ratio 7: the server's peak memory with many signed-in browser sessions in many groups.

A host serves many groups at once, each with its own history frame and statistics
in the server's cache. So a database of its own holds :data:`GROUPS` groups of
:data:`GROUP_ROWS` player-round rows each, and each group one member. A fresh
``streamlit run serve.py`` (the app) serves it; Chromium opens the Stats page (the page
that holds the most data) in separate browser contexts, one member of a different
group in each, signed in through a session cookie. Once every page shows its group's
numbers, the server's peak resident memory (``VmHWM`` in /proc) is read. The baseline is
one such session in one such group. Each count of sessions gets a server of its own,
and the two kinds of server take turns. Also reported: the growth per extra group ÷
one group's frame (``memory_usage(deep=True)``), whose goal is at most 2.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from sqlalchemy.orm import Session

from benchmarks.databases import BenchDatabase
from benchmarks.pages import ROOT, SECRET_KEY
from benchmarks.timing import Comparison
from dutch_app.accounts import issue_session_token
from dutch_app.services import demo, groups, history
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_engine
from dutch_app.storage.models import User
from dutch_app.ui.context import SESSION_COOKIE

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
FIRST_PAGE_TIMEOUT_MS = 900_000  # the first visitor waits for a cold Stats page
PAGE_TIMEOUT_MS = 120_000
RELOADS = 2  # a page stuck on a busy machine is loaded again
GROUPS = 20
GROUP_ROWS = 10_000
SHOWN = re.compile(r"[\d,]+ rounds? in this view")  # what the Stats page says once drawn


def member_tokens(database: BenchDatabase, count: int) -> list[str]:
    """Session tokens of ``count`` new members of the group (the group is their only one,
    so it is the one their pages show)."""
    engine = make_engine(database.url)
    try:
        with Session(engine, expire_on_commit=False) as session:
            (invite,) = [
                group.invite_code
                for group in perform(session, groups.list_groups, database.owner_id)
                if group.id == database.group_id
            ]
            user_ids = []
            for number in range(1, count + 1):
                email = f"bench-member-{number}@example.com"
                member = User(
                    auth_provider="local",
                    auth_subject=email,
                    email=email,
                    display_name=f"Member {number}",
                )
                session.add(member)
                session.commit()
                perform(session, groups.join_group, member.id, invite)
                user_ids.append(member.id)
            key = SECRET_KEY.encode()
            return [issue_session_token(session, uid, key=key, days=1) for uid in user_ids]
    finally:
        engine.dispose()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        return requests.get(f"{url}/_stcore/health", timeout=2).status_code == 200
    except requests.RequestException:
        return False


@contextmanager
def streamlit_run(script: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, int]]:
    """``streamlit run SCRIPT`` headless on a free port, from the project root, until it
    answers its health check: (base URL, process id). Stopped (its whole process group)
    when the block ends."""
    port = _free_port()
    command = [
        *(sys.executable, "-m", "streamlit", "run", script),
        *("--server.headless", "true", "--server.address", "127.0.0.1"),
        *("--server.port", str(port), "--browser.gatherUsageStats", "false"),
    ]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(  # noqa: S603 - our own fixed command
            command, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while not _healthy(url):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"{script} did not start:\n{log.read().decode()[-3000:]}")
                time.sleep(0.25)
            yield url, process.pid
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@contextmanager
def app_server(database: BenchDatabase) -> Iterator[tuple[str, int]]:
    """``streamlit run serve.py`` on a free port for ``database``: (base URL, process id)."""
    env = {
        "DUTCH_DATABASE_URL": database.url,
        "DUTCH_SECRET_KEY": SECRET_KEY,
        "DUTCH_AUTH_BACKEND": "local",
        "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
    }
    with streamlit_run("serve.py", env) as server:
        yield server


def peak_rss_mib(pid: int) -> float:
    """The highest resident memory the process has had so far, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"No VmHWM for process {pid}.")


def _wait_for_text(page: Page, text: str | re.Pattern[str], timeout_ms: int) -> None:
    for attempt in range(RELOADS + 1):
        try:
            page.get_by_text(text).first.wait_for(timeout=timeout_ms)
            return
        except PlaywrightTimeout:
            if attempt == RELOADS:
                raise
            page.reload()


def peak_with_sessions(database: BenchDatabase, tokens: list[str], shown) -> float:
    """Peak memory (MiB) of the server after each token's session has opened the Stats
    page."""
    with app_server(database) as (url, pid), sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            for number, token in enumerate(tokens):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": url}])
                page = context.new_page()
                page.goto(f"{url}/stats")
                wait = FIRST_PAGE_TIMEOUT_MS if number == 0 else PAGE_TIMEOUT_MS
                _wait_for_text(page, shown, wait)
            time.sleep(2)  # let the last messages go out
            return peak_rss_mib(pid)
        finally:
            browser.close()


def many_groups(folder: Path, count: int = GROUPS, rows: int = GROUP_ROWS, seed: int = 1):
    """A SQLite database of ``count`` groups of ``rows`` rows, one member each: the
    database, one member's session token per group, and one group's frame size (bytes)."""
    url = f"sqlite:///{folder / 'groups.db'}"
    engine = get_engine(url)
    tokens, frame_bytes = [], 0
    try:
        with Session(engine, expire_on_commit=False) as session:
            for number in range(1, count + 1):
                email = f"bench-host-{number}@example.com"
                member = User(
                    auth_provider="local", auth_subject=email, email=email,
                    display_name=f"Host {number}",
                )  # fmt: skip
                session.add(member)
                session.commit()
                group = perform(session, groups.create_group, member.id, f"Group {number}")
                demo.generate_history(session, group.id, rows, seed + number)
                key = SECRET_KEY.encode()
                tokens.append(issue_session_token(session, member.id, key=key, days=1))
                if number == 1:
                    frame = perform(session, history.load_history, member.id, group.id)
                    frame_bytes = int(frame.memory_usage(deep=True).sum())
                    database = BenchDatabase("sqlite", url, member.id, group.id)
    finally:
        engine.dispose()
    return database, tokens, frame_bytes


def server_memory(_database: BenchDatabase, sessions: int, repeats: int) -> Comparison:
    """7. Peak server memory with ``sessions`` sessions in as many groups ÷ one session in
    one group (of :data:`GROUP_ROWS` rows each; the benchmark database is not used)."""
    with tempfile.TemporaryDirectory(prefix="dutch-groups-") as folder:
        database, tokens, frame_bytes = many_groups(Path(folder), sessions)
        many: list[float] = []
        one: list[float] = []
        for turn in range(repeats):
            order = [(many, tokens), (one, tokens[:1])]
            for peaks, signed_in in order if turn % 2 == 0 else reversed(order):
                peaks.append(peak_with_sessions(database, signed_in, SHOWN))
    per_group = (statistics.median(many) - statistics.median(one)) / max(sessions - 1, 1)
    frame_mib = frame_bytes / 2**20
    print(
        f"  ratio 7: {sessions} groups {statistics.median(many):.1f} MiB, one group "
        f"{statistics.median(one):.1f} MiB; growth per extra group {per_group:.1f} MiB = "
        f"{per_group / frame_mib:.2f} x one group's frame ({frame_mib:.2f} MiB; goal <= 2)",
        file=sys.stderr,
        flush=True,
    )
    details = {"per_group_mib": per_group}
    return Comparison(
        statistics.median(many), statistics.median(one), repeats, unit="MiB", details=details
    )
