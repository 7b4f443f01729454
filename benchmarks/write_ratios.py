"""Ratios of writes that must not depend on how much there is: a round of a long game, a view
of one, and another group's round while a large file is imported.

8. Another group's round save during a 3,000-game import ÷ the same save alone. The file
   is imported as the History page imports it, in a thread of this process (the server's
   script thread of that page), while the main thread saves another group's rounds one
   after another, as another session of the same server would. The slowest save of each
   import is compared with the slowest of as many saves in a row with nothing else going
   on.
9. Adding a round to a 20,000-round game ÷ adding one to a 10-round game.
11. Reading a 20,000-round game as the Play page does ÷ reading a game of 100 rounds, as
    many as the page lists: past those, a longer game costs nothing more to show.
14. Opening a game's read-only link, 20,000 rounds ÷ 10 rounds: the CPU of this process
    (``time.process_time``) for a visit of the shared page by nobody signed in, with the
    page's copy of the game dropped before each, so every visit reads the game (the first
    visit after each change).
"""

from __future__ import annotations

import gc
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import streamlit as st
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from streamlit.testing.v1 import AppTest

from benchmarks import machine, pages
from benchmarks.databases import BenchDatabase
from benchmarks.timing import Comparison, compare, percentile
from dutch_app.csv_io import ROUND_COLUMNS
from dutch_app.services import csv_import, games, groups, players, rounds, sharing
from dutch_app.services._bulk import BulkGame, write_games
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import make_engine
from dutch_app.storage.models import Player
from dutch_app.ui.routing import routed_as_on_a_server
from dutch_core import PRESETS, RoundInput, score_round

HANDS = ("3", "10", "12", "20")
LONG, SHORT = 20_000, 10
IMPORT_GAMES = 3_000


def import_file(games_count: int = IMPORT_GAMES, *, seed: int = 0) -> bytes:
    """A rounds file of ``games_count`` two-player one-round games (3,000: about 0.5 MB);
    ``seed`` moves the start times, so that every file holds games of its own."""
    start = datetime(2020, 1, 1, tzinfo=UTC) + timedelta(days=400 * seed)
    lines = [",".join(ROUND_COLUMNS)]
    for number in range(1, games_count + 1):
        began = start + timedelta(hours=number)
        played = (began + timedelta(minutes=4)).strftime("%Y-%m-%dT%H:%M:%SZ")
        head = f"{number},{began:%Y-%m-%dT%H:%M:%SZ},ended,{{}},1,{played}"
        lines.append(f"{head},0,Ann,3,3,Ann,dutch,lowest,0,,0,3,3")
        lines.append(f"{head},1,Bo,10,10,Ann,dutch,lowest,0,,0,10,10")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _sessions(database: BenchDatabase):
    engine = make_engine(database.url)
    return engine, sessionmaker(engine, expire_on_commit=False)


def _game_of(session: Session, database: BenchDatabase, length: int) -> tuple[int, dict, int]:
    """A new open-ended game of four players with ``length`` rounds (written in bulk)."""
    owner, group_id = database.owner_id, database.group_id
    listed = perform(session, players.list_players, owner, group_id)
    while len(listed) < len(HANDS):
        perform(session, players.add_player, owner, group_id, f"Player {len(listed) + 1}")
        listed = perform(session, players.list_players, owner, group_id)
    ids = [p.id for p in listed[: len(HANDS)]]
    seated = [session.get(Player, player_id) for player_id in ids]
    rules = PRESETS["classic_open"]
    typed = {player.name: hand for player, hand in zip(seated, HANDS, strict=True)}
    result = score_round(RoundInput.build(typed, caller=seated[0].name, call_type="dutch"), rules)
    values = {
        "group_id": group_id,
        "rules": rules.to_dict(),
        "status": "active",
        "started_at": datetime(2026, 6, 1, tzinfo=UTC),
        "ended_at": None,
        "notes": "",
        "version": 1,
    }
    (game_id,) = write_games(session, [BulkGame(values, seated, [result] * length)])
    session.commit()
    return game_id, dict(zip(ids, HANDS, strict=True)), ids[0]


def _tasks(
    database: BenchDatabase, act: str, short: int = SHORT
) -> tuple[Callable, Callable, Callable]:
    engine, sessions = _sessions(database)
    with sessions() as session:
        long_game = _game_of(session, database, LONG)
        short_game = _game_of(session, database, short)

    def task(game: tuple[int, dict, int]) -> Callable[[], None]:
        game_id, hands, caller = game

        def run() -> None:
            with sessions() as session:
                if act == "add":
                    perform(
                        session,
                        rounds.add_round,
                        database.owner_id,
                        game_id,
                        hands,
                        caller,
                        "dutch",
                    )
                else:
                    perform(session, games.get_game, database.owner_id, game_id, games.PLAY_ROUNDS)

        return run

    return task(long_game), task(short_game), engine.dispose


def long_game_round(database: BenchDatabase, repeats: int) -> Comparison:
    """9. A round added to a 20,000-round game ÷ one added to a 10-round game."""
    long_task, short_task, dispose = _tasks(database, "add")
    try:
        return compare(long_task, short_task, repeats, warmups=3)
    finally:
        dispose()


def long_game_view_past_the_window(database: BenchDatabase, repeats: int) -> Comparison:
    """11. A 20,000-round game read as the Play page reads it ÷ a game of as many rounds as
    the page lists."""
    long_task, short_task, dispose = _tasks(database, "view", games.PLAY_ROUNDS)
    try:
        return compare(long_task, short_task, repeats, warmups=2)
    finally:
        dispose()


def shared_view(database: BenchDatabase, repeats: int) -> Comparison:
    """14. A visit of a 20,000-round game's read-only link ÷ one of a 10-round game's (CPU)."""
    with pages.app_on(database) as res:
        visits = []
        for length in (LONG, SHORT):
            with res.sessions() as session:
                game_id = _game_of(session, database, length)[0]
                token = perform(session, sharing.make_share_link, database.owner_id, game_id)
            at = AppTest.from_file(pages.APP, default_timeout=pages.TIMEOUT)
            at.query_params[sharing.QUERY_PARAMETER] = token
            pages._run(at)
            at.switch_page("pages/shared.py")
            pages._run(at)
            if length == LONG and f"{LONG} rounds" not in " ".join(c.value for c in at.caption):
                raise RuntimeError("The shared page does not show the long game's window.")
            visits.append(at)

        def visit(at: AppTest) -> Callable[[], None]:
            def run() -> None:
                st.cache_data.clear()  # the game is read on every visit
                pages._run(at)

            return run

        with routed_as_on_a_server():
            return compare(
                visit(visits[0]), visit(visits[1]), repeats, warmups=2, clock=time.process_time
            )


def _round_saver(database: BenchDatabase, sessions) -> Callable[[], None]:
    """A task saving one round in a group of its own (another group than the import's)."""
    owner = database.owner_id
    with sessions() as session:
        other = perform(session, groups.create_group, owner, "Next table")
        ids = [perform(session, players.add_player, owner, other.id, name).id for name in "ABCD"]
        game = perform(session, games.start_game, owner, other.id, ids, PRESETS["classic_open"])
    hands = dict(zip(ids, HANDS, strict=True))

    def save() -> None:
        with sessions() as session:
            perform(session, rounds.add_round, owner, game.id, hands, ids[0], "dutch")

    return save


class _Import:
    """A file imported the way the History page imports it, from a thread of this process,
    as a page's script thread runs it while the server's other sessions go on."""

    def __init__(self, sessions, owner: int, group_id: int, data: bytes) -> None:
        self.done = threading.Event()
        self.errors: list[BaseException] = []
        self._thread = threading.Thread(
            target=self._run, args=(sessions, owner, group_id, data), daemon=True
        )

    def _run(self, sessions, owner: int, group_id: int, data: bytes) -> None:
        try:
            with sessions() as session:
                perform(session, csv_import.import_rounds_csv, owner, group_id, data)
        except BaseException as error:  # reported by the measuring thread
            self.errors.append(error)
        finally:
            self.done.set()

    def start(self) -> None:
        self._thread.start()

    def join(self) -> None:
        self._thread.join()
        if self.errors:
            raise RuntimeError(f"the import failed: {self.errors[0]!r}")


def save_during_import(database: BenchDatabase, repeats: int) -> Comparison:
    """8. The slowest round save of another group while a 3,000-game file is imported ÷ the
    slowest of as many saves in a row with nothing else going on (medians over the imports).

    Both sides are the same statistic of the same number of saves. The slowest of a few
    hundred saves is about three times their median even when nothing else runs (measured
    with an "import" that only waits: 2.9 on PostgreSQL, 3.6 on SQLite), so the slowest
    during an import against the median alone, the way this ratio was first taken, counted
    the save's own spread as waiting; it is still reported (``slowest_vs_median``), with
    the 99th percentiles. The two windows take turns which goes first. The measuring
    process freezes what it holds before each window (as the server does after its
    warm-up, ``dutch_app/web/warm.py``), so a full collection of its own objects falls
    into neither, and runs a few saves untimed before each (:func:`_ready_to_time`).
    """
    engine, sessions = _sessions(database)
    save = _round_saver(database, sessions)
    owner = database.owner_id

    maintenance = _Maintenance(engine)
    maintenance.settle()
    windows: list[dict] = []

    def saves_alone(count: int) -> list[float]:
        _ready_to_time(save)
        before = maintenance.counts()
        times = [_timed_save(save) for _ in range(count)]
        windows.append(maintenance.window("alone", times, before))
        return times

    try:
        for _ in range(3):
            save()
        alone: list[list[float]] = []
        during: list[list[float]] = []
        for turn in range(repeats):
            data = import_file(seed=turn)
            with sessions() as session:
                target = perform(session, groups.create_group, owner, f"Imported {turn}").id
            if turn % 2:
                alone.append(saves_alone(len(during[-1])))
            importing = _Import(sessions, owner, target, data)
            _ready_to_time(save)
            before = maintenance.counts()
            importing.start()
            times: list[float] = []
            while not importing.done.is_set():
                times.append(_timed_save(save))
            importing.join()
            during.append(times)
            windows.append(maintenance.window("import", times, before))
            if turn % 2 == 0:
                alone.append(saves_alone(len(times)))
        with sessions() as session:
            if session.scalar(select(Player.id).where(Player.name == "Bo")) is None:
                raise RuntimeError("the imports stored nothing")
        slowest = statistics.median(max(times) for times in during)
        details = {
            "saves_per_import": statistics.median(len(times) for times in during),
            "p99_during_s": statistics.median(percentile(times, 0.99) for times in during),
            "p99_alone_s": statistics.median(percentile(times, 0.99) for times in alone),
            "median_alone_s": statistics.median(statistics.median(t) for t in alone),
        }
        details["slowest_vs_median"] = slowest / details["median_alone_s"]
        details["windows"] = windows
        details["p99_ratio"] = details["p99_during_s"] / details["p99_alone_s"]
        details["other_threads"] = sorted(
            thread.name
            for thread in threading.enumerate()
            if thread is not threading.current_thread()
        )
        return Comparison(
            slowest, statistics.median(max(t) for t in alone), repeats, details=details
        )
    finally:
        gc.unfreeze()
        engine.dispose()


@dataclass(frozen=True)
class _Counts:
    """The database's background counters (PostgreSQL's; 0 on SQLite) and the machine's,
    at one moment."""

    checkpoints: int = 0
    autovacuums: int = 0
    autovacuum_workers: int = 0  # busy at that moment
    buffers_written: int = 0
    on_machine: machine.Counts = field(default_factory=machine.Counts)


class _Maintenance:
    """The database's own background work around the windows of ratio 8.

    Before the first window, the background work the earlier ratios left is done at
    once (:meth:`settle`), so that it lands in neither window: ratio 9 writes a
    20,000-round game, 80,000 hands, eight times the 10,000-row history, which is enough
    for PostgreSQL's autovacuum to vacuum and analyse those tables within its next
    minute. What the imports themselves leave to do stays in the windows: it is their
    cost.

    On PostgreSQL each window also records (outside its timed saves) the checkpoints
    begun, the autovacuum runs finished, the autovacuum workers busy when it began, and
    the shared buffers written out to the files meanwhile (by checkpoints, the background
    writer, or backends that needed a free buffer), so that a window which met them can
    be told from one the import slowed. On either database it records what the machine
    did meanwhile (:mod:`benchmarks.machine`): pages read back from disk, and the
    processor time of the kernel's memory reclaim."""

    def __init__(self, engine) -> None:
        self._engine = engine
        self.known = engine.dialect.name == "postgresql"

    def settle(self) -> None:
        """What autovacuum (PostgreSQL) or the next commit's checkpoint (SQLite's write-ahead
        log) would do in the background anyway, done now."""
        with self._engine.connect() as connection:
            if self.known:  # VACUUM cannot run inside a transaction
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
                connection.exec_driver_sql("VACUUM (ANALYZE)")
            else:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def counts(self) -> _Counts:
        now = machine.counts()
        if not self.known:
            return _Counts(on_machine=now)
        with self._engine.connect() as connection:
            checkpoints, written = connection.exec_driver_sql(
                "SELECT checkpoints_timed + checkpoints_req,"
                " buffers_checkpoint + buffers_clean + buffers_backend FROM pg_stat_bgwriter"
            ).one()
            autovacuums = connection.exec_driver_sql(
                "SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0)"
                " FROM pg_stat_all_tables"
            ).scalar_one()
            busy = connection.exec_driver_sql(
                "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'"
            ).scalar_one()
        return _Counts(int(checkpoints), int(autovacuums), int(busy), int(written), now)

    def window(self, kind: str, times: list[float], before: _Counts) -> dict:
        """What a window of ``kind`` (``import`` or ``alone``) met: its slowest save, and
        what the database and the machine did since the counts ``before`` it."""
        after = self.counts()
        slowest = max(times)
        met = {
            "window": kind,
            "slowest_ms": slowest * 1000,
            # where in the window the slowest save fell: 0 its first save, 1 its last
            "slowest_at": times.index(slowest) / max(1, len(times) - 1),
            **after.on_machine.since(before.on_machine),
        }
        if self.known:
            met.update(
                checkpoints=after.checkpoints - before.checkpoints,
                autovacuums=after.autovacuums - before.autovacuums,
                autovacuum_workers_at_start=before.autovacuum_workers,
                buffers_written=after.buffers_written - before.buffers_written,
            )
        return met


def _ready_to_time(save: Callable[[], None]) -> None:
    """Bring the measuring process to the same state before either window: what it holds
    is left out of its collector's walks, and a few saves run untimed.

    The first save after a pause is slower than the rest (measured on PostgreSQL at 10k
    rows: 9-11 ms after resting a second, 5-6 ms for the saves after it), and so is the
    first after a full collection (7.6-8.3 ms). The window during an import used to begin
    just after the process waited a second or two for the importing process to start, and
    so its slowest save was often that first one, which the import had no part in.
    """
    gc.collect()
    gc.freeze()
    for _ in range(WARM_SAVES):
        save()


WARM_SAVES = 3
"""Untimed saves before each window (:func:`_ready_to_time`)."""


def _timed_save(save: Callable[[], None]) -> float:
    began = time.perf_counter()
    save()
    return time.perf_counter() - began
