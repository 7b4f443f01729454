"""Ratio 7: the server's peak memory with many signed-in browser sessions against one.

A fresh ``streamlit run serve.py`` (the app) serves the benchmark database; Chromium opens
the Stats page (the page that holds the most data) in separate browser
contexts, each signed in as a different member of the group through a session
cookie. Once every page shows the group's numbers, the server's peak resident
memory (``VmHWM`` in /proc) is read. Each count of sessions gets a server of
its own, and the two kinds of server take turns.
"""

from __future__ import annotations

import os
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
from benchmarks.service_ratios import load_frame
from benchmarks.timing import Comparison
from dutch_app.accounts import issue_session_token
from dutch_app.services import groups
from dutch_app.storage.db import make_engine
from dutch_app.storage.models import User
from dutch_app.ui.context import SESSION_COOKIE

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
FIRST_PAGE_TIMEOUT_MS = 900_000  # the first visitor waits for a cold Stats page
PAGE_TIMEOUT_MS = 120_000
RELOADS = 2  # a page stuck on a busy machine is loaded again


def member_tokens(database: BenchDatabase, count: int) -> list[str]:
    """Session tokens of ``count`` new members of the group (the group is their only one,
    so it is the one their pages show)."""
    engine = make_engine(database.url)
    try:
        with Session(engine, expire_on_commit=False) as session:
            invite = groups.get_group(session, database.owner_id, database.group_id).invite_code
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
                groups.join_group(session, member.id, invite)
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
def app_server(database: BenchDatabase) -> Iterator[tuple[str, int]]:
    """``streamlit run serve.py`` on a free port for ``database``: (base URL, process id)."""
    port = _free_port()
    env = {
        **os.environ,
        "DUTCH_DATABASE_URL": database.url,
        "DUTCH_SECRET_KEY": SECRET_KEY,
        "DUTCH_AUTH_BACKEND": "local",
        "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
    }
    command = [
        *(sys.executable, "-m", "streamlit", "run", "serve.py"),
        *("--server.headless", "true", "--server.address", "127.0.0.1"),
        *("--server.port", str(port), "--browser.gatherUsageStats", "false"),
    ]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(  # noqa: S603 - our own fixed command
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while not _healthy(url):
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"Streamlit did not start:\n{log.read().decode()[-3000:]}")
                time.sleep(0.25)
            yield url, process.pid
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def peak_rss_mib(pid: int) -> float:
    """The highest resident memory the process has had so far, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"No VmHWM for process {pid}.")


def _wait_for_text(page: Page, text: str, timeout_ms: int) -> None:
    for attempt in range(RELOADS + 1):
        try:
            page.get_by_text(text).first.wait_for(timeout=timeout_ms)
            return
        except PlaywrightTimeout:
            if attempt == RELOADS:
                raise
            page.reload()


def peak_with_sessions(database: BenchDatabase, tokens: list[str], shown: str) -> float:
    """Peak server memory (MiB) after each token's session has opened the Stats page."""
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


def server_memory(database: BenchDatabase, sessions: int, repeats: int) -> Comparison:
    """7. Peak server memory with ``sessions`` signed-in sessions ÷ with one."""
    tokens = member_tokens(database, sessions)
    rounds_played = load_frame(database)["round_id"].nunique()
    shown = f"{rounds_played:,} rounds in this view"
    many: list[float] = []
    one: list[float] = []
    for turn in range(repeats):
        order = [(many, tokens), (one, tokens[:1])]
        for peaks, signed_in in order if turn % 2 == 0 else reversed(order):
            peaks.append(peak_with_sessions(database, signed_in, shown))
    return Comparison(statistics.median(many), statistics.median(one), repeats, unit="MiB")
