"""The live table: how soon a round shows on the other phones, and what idle pages cost.

Not ratios but the product's own promises, measured on a real ``streamlit run
serve.py`` with Chromium:

- **Live update delay**: a round is stored (as another phone would store it) at
  a random moment of the server's watch cycle (the live route's watcher reads the
  versions every ``WATCH_EVERY`` seconds), and the time until a second page, left
  alone, shows the next round's heading is taken. Median and 95th
  percentile over ``rounds`` rounds; goal ≤ 3 s at the 95th percentile.
- **Idle polling**: the server's CPU time (user + system, from /proc) over a
  minute with nothing happening, with no page open, one open Play page and
  ``pages`` open Play pages, each signed in as a different member. Goal: the
  many pages together cost less than one core-second per minute.

    python -m benchmarks --live only [--live-rounds 20 --live-pages 50]
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from sqlalchemy.orm import Session

from benchmarks.databases import BenchDatabase
from benchmarks.memory import CHROMIUM, CHROMIUM_ARGS, RELOADS, app_server, member_tokens
from benchmarks.timing import percentile
from dutch_app.services import games, groups, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine
from dutch_app.storage.models import User
from dutch_app.ui.context import SESSION_COOKIE
from dutch_app.web.live import WAIT_SECONDS, WATCH_EVERY

DELAY_GOAL_S = 3.0
IDLE_GOAL_CORE_S = 1.0
NAMES = ("Ann", "Ben", "Cleo", "Dan")
SETTLE_S = 10.0  # after the pages opened, before the idle minute starts
PAGE_TIMEOUT_MS = 120_000


def _table(url: str) -> tuple[BenchDatabase, int, dict[str, int]]:
    """A new database with one group, four players and a game in progress."""
    engine = get_engine(url)
    try:
        with Session(engine, expire_on_commit=False) as session:
            owner = User(
                auth_provider="local",
                auth_subject="live-owner@example.com",
                email="live-owner@example.com",
                display_name="Owner",
            )
            session.add(owner)
            session.commit()
            group = perform(session, groups.create_group, owner.id, "Live table")
            ids = {
                name: perform(session, players.add_player, owner.id, group.id, name).id
                for name in NAMES
            }
            seats = [ids[name] for name in NAMES]
            game = perform(session, games.start_game, owner.id, group.id, seats, _open_rules())
        return BenchDatabase("sqlite", url, owner.id, group.id), game.id, ids
    finally:
        engine.dispose()


def _open_rules():
    from dutch_core import PRESETS

    return PRESETS["classic_open"]  # never ends by itself, however many rounds


def _open_play(browser: Browser, url: str, token: str) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": url}])
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    for attempt in range(RELOADS + 1):
        try:
            page.goto(url, wait_until="commit")
            page.get_by_role("heading", name="Standings").wait_for()
            return page
        except PlaywrightTimeout:
            if attempt == RELOADS:
                raise
    return page


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _idle_minute(pid: int, seconds: float) -> float:
    """The server's CPU seconds over ``seconds`` of nothing happening, per minute."""
    time.sleep(SETTLE_S)
    began, cpu = time.monotonic(), _cpu_seconds(pid)
    time.sleep(seconds)
    return (_cpu_seconds(pid) - cpu) * 60 / (time.monotonic() - began)


def _delays(url: str, database: BenchDatabase, game_id: int, ids, tokens, count: int):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            watcher = _open_play(browser, url, tokens[0])
            engine = get_engine(database.url)
            rng = random.Random(11)  # noqa: S311 - timing jitter, not secrets
            delays = []
            try:
                for number in range(1, count + 1):
                    heading = watcher.get_by_role("heading", name=f"Round {number + 1}")
                    time.sleep(rng.uniform(0, WATCH_EVERY))  # any moment of the watch cycle
                    hands = {ids[name]: str(rng.randint(1, 30)) for name in NAMES[1:]}
                    with Session(engine) as session:
                        perform(
                            session,
                            rounds.add_round,
                            database.owner_id,
                            game_id,
                            hands | {ids["Ann"]: "0"},  # Ann calls and is lowest
                            ids["Ann"],
                            "dutch",
                            for_round=number,
                        )
                    saved = time.monotonic()
                    heading.wait_for(timeout=PAGE_TIMEOUT_MS)
                    delays.append(time.monotonic() - saved)
                    print(f"  round {number}: {delays[-1]:.2f} s", file=sys.stderr, flush=True)
            finally:
                engine.dispose()
            return delays
        finally:
            browser.close()


def _idle_costs(database: BenchDatabase, tokens: list[str], seconds: float) -> dict[str, float]:
    costs = {}
    with app_server(database) as (url, pid), sync_playwright() as playwright:
        costs["no page"] = _idle_minute(pid, seconds)
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            pages = [_open_play(browser, url, tokens[0])]
            costs["1 page"] = _idle_minute(pid, seconds)
            print(f"  idle: {costs}", file=sys.stderr, flush=True)
            pages.extend(_open_play(browser, url, token) for token in tokens[1:])
            costs[f"{len(tokens)} pages"] = _idle_minute(pid, seconds)
            print(f"  idle: {costs}", file=sys.stderr, flush=True)
        finally:
            browser.close()
    return costs


def live_table(rounds_count: int = 20, pages: int = 50, idle_seconds: float = 60.0) -> dict:
    """Both measurements on a fresh SQLite database; the numbers and whether they meet goals."""
    with tempfile.TemporaryDirectory(prefix="dutch-live-") as folder:
        database, game_id, ids = _table(f"sqlite:///{Path(folder) / 'live.db'}")
        tokens = member_tokens(database, pages)
        with app_server(database) as (url, _pid):
            delays = _delays(url, database, game_id, ids, tokens, rounds_count)
        costs = _idle_costs(database, tokens, idle_seconds)
    many = costs[f"{pages} pages"]
    return {
        "watch_every_s": WATCH_EVERY,
        "wait_s": WAIT_SECONDS,
        "delay_rounds": rounds_count,
        "delay_median_s": round(statistics.median(delays), 2),
        "delay_p95_s": round(percentile(delays, 0.95), 2),
        "delay_max_s": round(max(delays), 2),
        "delay_goal_s": DELAY_GOAL_S,
        "idle_cpu_s_per_min": {name: round(value, 3) for name, value in costs.items()},
        "idle_cpu_s_per_min_per_page": round((many - costs["no page"]) / pages, 4),
        "idle_goal_cpu_s_per_min": IDLE_GOAL_CORE_S,
        "delay_ok": percentile(delays, 0.95) <= DELAY_GOAL_S,
        "idle_ok": many < IDLE_GOAL_CORE_S,
    }


def text_report(result: dict) -> str:
    """The live numbers as a few lines for the terminal."""
    idle = result["idle_cpu_s_per_min"]
    mark = {True: "ok", False: "MISS"}
    lines = [
        f"Live update delay over {result['delay_rounds']} rounds (the server watching "
        f"every {result['watch_every_s']} s): median {result['delay_median_s']:.2f} s, "
        f"p95 {result['delay_p95_s']:.2f} s, max {result['delay_max_s']:.2f} s "
        f"(goal p95 ≤ {result['delay_goal_s']} s: {mark[result['delay_ok']]})",
        "Server CPU per idle minute: "
        + ", ".join(f"{name} {value:.2f} core-s" for name, value in idle.items())
        + f"; {result['idle_cpu_s_per_min_per_page']:.3f} core-s per open page "
        f"(goal: all pages < {result['idle_goal_cpu_s_per_min']} core-s: "
        f"{mark[result['idle_ok']]})",
    ]
    return "\n".join(lines)
