"""The load test: many tables playing at once against one server on PostgreSQL.

Each table is a group of its own with a game of four in progress, and one
browser-less client (:mod:`benchmarks.protocol_client`) that does what the
scorer's phone does over Streamlit's own websocket protocol: open Play signed in
by its session cookie, wait until every table's Play is open, then save a round every
few seconds (a seeded random pause of 3–7 s). The opening is timed apart: fifty phones
opening Play in the same second is a burst of its own, and saves timed inside it measure
the burst, not a save at a busy server. A save is the whole round sent with Save by the
page's round entry (the element's ``save`` event: the round is stored by the page's run
of the entry, which draws the next round's form; the element then asks for the rest of
the game). For each save it times how long the page takes from the tap on Save until the
standings it draws hold the new round, with the next round's form on show. The page
waits on the live route meanwhile, as a browser's does (the client follows the page's
live component). The server's CPU time, the time its
threads were ready to run but waited for a processor, and its peak memory are read
from /proc, with the CPU time of the clients (this process), of PostgreSQL and of the
whole machine, which shows what else shares the processors. Afterwards every game
must hold exactly the rounds that were saved, each once.

``python -m benchmarks.load_test --tables 1,10,25,50`` prints one line per level;
``make bench`` runs it as ratio 9 (p95 at the largest level ÷ p95 at one table).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from sqlalchemy import func, select

from benchmarks import machine
from benchmarks.protocol_client import StreamlitClient
from dutch_app.accounts import make_backend
from dutch_app.config import load_settings
from dutch_app.services import games, groups, players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_app.storage.models import Round
from dutch_core import PRESETS, CallType
from dutch_core.entry import check_form

SECRET_KEY = "load-test-signing-key-0123456789abcdefghijklmnopqrstuvwxyz"  # noqa: S105
PASSWORD = "a long and careful passphrase"  # noqa: S105
HANDS = ("3", "10", "12", "20")  # the first seat calls Dutch and is lowest
NAMES = ("Anna", "Bram", "Chloé", "Daan")
RULES = PRESETS["classic_open"]
ROUND_POINTS = sum(
    check_form(NAMES, dict(zip(NAMES, HANDS, strict=True)), NAMES[0], CallType.DUTCH, "", RULES)
    .result.as_dict()
    .values()
)  # what one round adds to the standings, all players together


@dataclass(frozen=True)
class Level:
    """What one level of the test measured."""

    tables: int
    saves: int
    p50: float
    p95: float
    cpu_seconds_per_minute: float
    peak_rss_mib: float
    stored_rounds: int
    expected_rounds: int
    slowest: float = 0.0
    server_cpu_ms_per_save: float = 0.0
    clients_cpu_seconds_per_minute: float = 0.0
    postgres_cpu_seconds_per_minute: float = 0.0
    machine_busy_share: float = 0.0  # of all the machine's cores, anyone's work included
    server_cpu_wait_ms_per_save: float = 0.0
    live_asked: int = 0
    live_requests: int = 0
    live_reruns: int = 0
    live_failures: int = 0
    open_p50: float = 0.0  # opening Play, every table at once
    open_p95: float = 0.0
    # what the machine did meanwhile (benchmarks.machine): pages read back from disk, and
    # the processor time of the kernel's proactive memory reclaim
    major_faults: int = 0
    refaults: int = 0
    reclaim_cpu_ms: float = 0.0

    def line(self) -> str:
        """One line for the terminal."""
        return (
            f"{self.tables:>3} tables: Play opened p50 {self.open_p50 * 1000:,.0f} ms, p95 "
            f"{self.open_p95 * 1000:,.0f} ms; {self.saves:>4} saves, save-to-standings p50 "
            f"{self.p50 * 1000:,.0f} ms, p95 {self.p95 * 1000:,.0f} ms, slowest "
            f"{self.slowest * 1000:,.0f} ms; server {self.cpu_seconds_per_minute:.1f} CPU-s/min "
            f"({self.server_cpu_ms_per_save:.0f} ms a save, and "
            f"{self.server_cpu_wait_ms_per_save:.0f} ms ready but waiting for a processor), "
            f"peak {self.peak_rss_mib:,.0f} MiB; "
            f"clients {self.clients_cpu_seconds_per_minute:.1f} CPU-s/min, PostgreSQL "
            f"{self.postgres_cpu_seconds_per_minute:.1f}, machine {self.machine_busy_share:.0%} "
            f"busy; live route {self.live_asked} asked, {self.live_requests} answered, "
            f"{self.live_reruns} reruns, {self.live_failures} failures; machine "
            f"{self.major_faults:,} major faults, {self.refaults:,} refaults, reclaim "
            f"{self.reclaim_cpu_ms:,.0f} ms; rounds stored "
            f"{self.stored_rounds}/"
            f"{self.expected_rounds}"
        )


def _proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _waiting_for_a_cpu_seconds(pid: int) -> float:
    """How long the process's threads have been ready to run but waited for a processor
    (the second field of each thread's /proc schedstat), summed over its threads now."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):  # a thread that ended meanwhile
            continue
    return total / 1e9


def _postgres_cpu_seconds() -> float:
    """The CPU time of every PostgreSQL process on this machine (the whole server, so other
    people's databases on it count too)."""
    total = 0.0
    for entry in machine.processes_named(("postgres", "postmaster")):
        try:
            total += _proc_cpu_seconds(int(entry.name))
        except OSError:  # gone meanwhile
            continue
    return total


def _machine_ticks() -> tuple[int, int]:
    """(busy, all) clock ticks of all cores since boot, from /proc/stat."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def _own_cpu_seconds() -> float:
    """This process's CPU time: the clients' (they run in its event loop)."""
    usage = os.times()
    return usage.user + usage.system


def _peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def prepare_tables(url: str, tables: int) -> tuple[list[str], list[int]]:
    """``tables`` groups on the database at ``url``, each with a game of four in progress
    and a scorer; their session tokens and game ids. The games have no end (a game to 100
    points would end after five of the test's rounds)."""
    env = {"DUTCH_DATABASE_URL": url, "DUTCH_SECRET_KEY": SECRET_KEY, "DUTCH_AUTH_BACKEND": "local"}
    engine = get_engine(url)
    sessions = make_session_factory(engine)
    accounts = make_backend(sessions, load_settings(secrets={}, environ=env))
    tokens, game_ids = [], []
    for table in range(tables):
        scorer = accounts.sign_up(f"scorer-{table}@example.com", PASSWORD, f"Scorer {table}")
        with sessions() as session:
            group = perform(session, groups.create_group, scorer.user_id, f"Table {table}")
            seats = [
                perform(session, players.add_player, scorer.user_id, group.id, n).id for n in NAMES
            ]
            game = perform(session, games.start_game, scorer.user_id, group.id, seats, RULES)
        tokens.append(accounts.issue_token(scorer.user_id))
        game_ids.append(game.id)
    engine.dispose()
    return tokens, game_ids


def count_rounds(url: str, game_ids: list[int]) -> int:
    """How many rounds the games hold now."""
    engine = get_engine(url)
    try:
        with make_session_factory(engine)() as session:
            stored = select(func.count()).select_from(Round).where(Round.game_id.in_(game_ids))
            return int(session.scalar(stored) or 0)
    finally:
        engine.dispose()


async def play_one_round(client: StreamlitClient, number: int) -> float:
    """Save round ``number`` as the scorer would; seconds from Save until the standings
    hold it, with round ``number + 1``'s form on show."""
    points = ROUND_POINTS * number

    def standings_follow() -> bool:
        entry = client.entry
        shown = sum(row[2] for row in client.standings())
        return entry is not None and entry.data["number"] == number + 1 and shown == points

    began = time.perf_counter()
    await client.save_round(list(HANDS), NAMES[0], "Dutch")
    await client.wait_until(standings_follow, f"round {number} in the standings", timeout=120)
    return time.perf_counter() - began


@dataclass
class _Tables:
    """What the tables of one level share: their timings, the live route's counts and
    the moment every table has Play open."""

    count: int
    saves: list[float]
    opens: list[float]
    live: dict[str, int]
    all_open: asyncio.Event

    def opened(self, seconds: float) -> None:
        self.opens.append(seconds)
        if len(self.opens) == self.count:
            self.all_open.set()


async def scorer(server: str, token: str, rounds: int, seed: int, tables: _Tables) -> None:
    """One table's phone: open Play, wait until every table has, then save ``rounds``
    rounds with pauses between; the page waits on the live route meanwhile, as in a
    browser (counted in ``tables.live``)."""
    pause = random.Random(seed)  # noqa: S311 (pacing, not security)
    client = StreamlitClient(server, {"dutch_session": token})
    began = time.perf_counter()
    await client.open()
    tables.opened(time.perf_counter() - began)
    times, live = tables.saves, tables.live
    try:
        await tables.all_open.wait()
        # The first save comes a random part of one pause later: the tables' saves then
        # arrive at the rate they keep later (one table in 5 s on average), not all in
        # the first few seconds, which would be a burst like the opening.
        await asyncio.sleep(pause.random() * pause.uniform(3, 7))
        for number in range(1, rounds + 1):
            times.append(await play_one_round(client, number))
            await asyncio.sleep(pause.uniform(3, 7))
    finally:
        live["asked"] += client.live_asked
        live["requests"] += client.live_requests
        live["reruns"] += client.live_reruns
        live["failures"] += len(client.live_failures)
        if client.live_failures:
            print("live route:", client.live_failures[:3], file=sys.stderr)
        await client.close()


async def _all_tables(server: str, tokens: list[str], rounds: int) -> _Tables:
    live = {"asked": 0, "requests": 0, "reruns": 0, "failures": 0}
    tables = _Tables(len(tokens), [], [], live, asyncio.Event())
    await asyncio.gather(
        *(scorer(server, token, rounds, seed, tables) for seed, token in enumerate(tokens))
    )
    return tables


def run_level(
    server_url: str, server_pid: int | None, db_url: str, tables: int, rounds: int
) -> Level:
    """Play ``rounds`` rounds at each of ``tables`` tables at once; what it cost (the CPU and
    memory figures are 0 when the server's process id is not known)."""
    tokens, game_ids = prepare_tables(db_url, tables)
    before = count_rounds(db_url, game_ids)
    cpu_before = _proc_cpu_seconds(server_pid) if server_pid else 0.0
    wait_before = _waiting_for_a_cpu_seconds(server_pid) if server_pid else 0.0
    clients_before, postgres_before = _own_cpu_seconds(), _postgres_cpu_seconds()
    busy_before, ticks_before = _machine_ticks()
    machine_before = machine.counts()
    began = time.monotonic()
    # An event loop in a thread of its own, whatever the calling thread runs (the browser
    # tests' Playwright keeps a loop in the main thread).
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        run = worker.submit(asyncio.run, _all_tables(server_url, tokens, rounds))
        tables_done = run.result()
    times, live, opens = tables_done.saves, tables_done.live, sorted(tables_done.opens)
    cpu = _proc_cpu_seconds(server_pid) - cpu_before if server_pid else 0.0
    waited = _waiting_for_a_cpu_seconds(server_pid) - wait_before if server_pid else 0.0
    minutes = (time.monotonic() - began) / 60
    clients_cpu = _own_cpu_seconds() - clients_before
    postgres_cpu = _postgres_cpu_seconds() - postgres_before
    busy_after, ticks_after = _machine_ticks()
    met = machine.counts().since(machine_before)
    ordered = sorted(times)
    return Level(
        tables=tables,
        saves=len(times),
        p50=statistics.median(ordered),
        p95=_p95(ordered),
        cpu_seconds_per_minute=cpu / minutes,
        peak_rss_mib=_peak_rss_mib(server_pid) if server_pid else 0.0,
        stored_rounds=count_rounds(db_url, game_ids) - before,
        expected_rounds=tables * rounds,
        slowest=ordered[-1],
        server_cpu_ms_per_save=1000 * cpu / max(1, len(times)),
        server_cpu_wait_ms_per_save=1000 * waited / max(1, len(times)),
        clients_cpu_seconds_per_minute=clients_cpu / minutes,
        postgres_cpu_seconds_per_minute=postgres_cpu / minutes,
        machine_busy_share=(busy_after - busy_before) / max(1, ticks_after - ticks_before),
        live_asked=live["asked"],
        live_requests=live["requests"],
        live_reruns=live["reruns"],
        live_failures=live["failures"],
        open_p50=statistics.median(opens),
        open_p95=_p95(opens),
        major_faults=int(met["major_faults"]),
        refaults=int(met["refaults"]),
        reclaim_cpu_ms=met["reclaim_cpu_ms"],
    )


def _p95(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def rounds_at(tables: int, rounds: int, saves: int) -> int:
    """Rounds each table of a level plays: ``rounds``, or more where the level would time
    fewer than ``saves`` saves: with 6 rounds and 40 saves, one table plays 40 rounds,
    ten or fifty tables 6 each. The 95th percentile of six saves (one table playing six
    rounds) is their slowest, not a 95th percentile.
    """
    return max(rounds, -(-saves // tables))


def measure(levels: list[int], rounds: int, saves: int = 0) -> list[Level]:
    """Each level on a fresh PostgreSQL database (of ``DUTCH_TEST_POSTGRES_URL``'s server)
    and a fresh server of its own; each timing at least ``saves`` saves (see
    :func:`rounds_at`)."""
    from benchmarks.databases import working_database
    from tests.servers import start_streamlit, stop_process_group

    results = []
    for tables in levels:
        with working_database("postgresql", 0, 1) as database:
            db_url = database.url
            env = {
                **os.environ,
                "DUTCH_DATABASE_URL": db_url,
                "DUTCH_SECRET_KEY": SECRET_KEY,
                "DUTCH_AUTH_BACKEND": "local",
                "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
            }
            run = start_streamlit("serve.py", env, Path(tempfile.mkdtemp(prefix="dutch-load-")))
            try:
                played = rounds_at(tables, rounds, saves)
                level = run_level(run.url, run.process.pid, db_url, tables, played)
            finally:
                stop_process_group(run.process)
        print(level.line(), file=sys.stderr, flush=True)
        results.append(level)
    return results


def main(argv: list[str] | None = None) -> int:
    """The command line: levels, rounds per table, the PostgreSQL server."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load_test", description=__doc__)
    parser.add_argument("--tables", default="1,10,25,50")
    parser.add_argument("--rounds", type=int, default=6, help="rounds saved at each table")
    parser.add_argument(
        "--saves",
        type=int,
        default=40,
        help="saves timed at least at each level: fewer tables play more rounds",
    )
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/load.json"))
    args = parser.parse_args(argv)
    levels = [int(level) for level in args.tables.split(",") if level.strip()]
    results = measure(levels, args.rounds, args.saves)
    for level in results:
        print(level.line())
    first, last = results[0], results[-1]
    ratio = last.p95 / first.p95
    print(f"p95 at {last.tables} tables ÷ p95 at {first.tables}: {ratio:.2f} (goal ≤ 2)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    document = {"levels": [asdict(level) for level in results], "p95_ratio": ratio}
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    lost = [level for level in results if level.stored_rounds != level.expected_rounds]
    if lost:
        print(f"ROUNDS LOST OR DOUBLED at {[level.tables for level in lost]} tables")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
