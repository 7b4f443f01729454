"""Reading a SQLite history never puts a saved round out of sight of other processes.

An earlier Arrow reader of SQLite histories opened the file through a second copy of
SQLite (the one inside the ADBC driver) beside Python's own. The two copies cannot see
each other's locks: when the driver's last connection closed, it took itself for the
last connection to the file, folded the write-ahead log into the database and deleted
it, while the app's own connections went on writing into the deleted log. Every round
saved after that was invisible to any other process (a second server, a backup, the
command line) and gone once the server stopped. These tests read histories the ways
that used to close a driver connection (more loads at once than it kept, a stranger's
refused load, a read that failed half-way), save a round, and look at the file from another process.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading

import pytest
from sqlalchemy.orm import Session

from dutch_app.services import games, groups, history, players, rounds
from dutch_app.services.demo import generate_history
from dutch_app.services.errors import NotFound
from dutch_app.services.unit_of_work import perform
from dutch_app.storage import arrow_read
from dutch_app.storage.db import make_engine
from dutch_app.storage.models import User
from dutch_core import PRESETS

ROUNDS_SEEN_ELSEWHERE = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1])
print(connection.execute("SELECT count(*) FROM rounds").fetchone()[0])
"""


def rounds_seen_by_another_process(path) -> int:
    """The number of rounds another process finds in the database file."""
    done = subprocess.run(
        [sys.executable, "-c", ROUNDS_SEEN_ELSEWHERE, str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return int(done.stdout)


def assert_a_saved_round_is_seen_everywhere(sqlite_file) -> None:
    """Save a round; another process finds it in the file, and the next load has it."""
    path, engine, owner, group_id, game_id, seated = sqlite_file
    before = rounds_seen_by_another_process(path)
    hands = dict(zip(seated, ("3", "10", "12", "20"), strict=True))
    with Session(engine, expire_on_commit=False) as session:
        perform(session, rounds.add_round, owner, game_id, hands, seated[0], "dutch")
    assert rounds_seen_by_another_process(path) == before + 1
    with Session(engine) as session:
        frame = perform(session, history.load_history, owner, group_id)
    assert game_id in set(frame["game_id"])


@pytest.fixture
def sqlite_file(migrated_sqlite, tmp_path):
    """A fresh, migrated SQLite file with one owner, a group with a history and a game."""
    path = tmp_path / "dutch.db"
    shutil.copyfile(migrated_sqlite, path)
    engine = make_engine(f"sqlite:///{path}")
    with Session(engine, expire_on_commit=False) as session:
        user = User(
            auth_provider="local",
            auth_subject="olga@example.org",
            email="olga@example.org",
            display_name="Olga",
        )
        session.add(user)
        session.commit()
        group = perform(session, groups.create_group, user.id, "Friday club")
        generate_history(session, group.id, rows=3_000, seed=3)
        session.commit()
        seated = [
            perform(session, players.add_player, user.id, group.id, name).id
            for name in ("Ann", "Bo", "Cy", "Dee")
        ]
        game = perform(session, games.start_game, user.id, group.id, seated, PRESETS["classic"])
    yield path, engine, user.id, group.id, game.id, seated
    engine.dispose()


def test_a_round_saved_after_many_loads_at_once_is_seen_by_other_processes(sqlite_file):
    """Eight loads at once (the driver kept four connections and closed the others),
    then a saved round: another process sees it, and so does the next load."""
    _, engine, owner, group_id, *_ = sqlite_file
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def load() -> None:
        try:
            start.wait(timeout=30)
            with Session(engine) as session:
                perform(session, history.load_history, owner, group_id)
        except BaseException as error:  # reported below, in the test's own thread
            errors.append(error)

    loaders = [threading.Thread(target=load) for _ in range(8)]
    for loader in loaders:
        loader.start()
    for loader in loaders:
        loader.join(timeout=120)
    assert errors == []
    assert_a_saved_round_is_seen_everywhere(sqlite_file)


def test_a_round_saved_after_a_refused_load_survives_the_server(sqlite_file):
    """A stranger's load is refused; a round saved afterwards is in the file once the
    app's connections are all closed (as when the server stops)."""
    path, engine, owner, group_id, game_id, seated = sqlite_file
    with Session(engine) as session:
        perform(session, history.load_history, owner, group_id)
        with pytest.raises(NotFound):
            perform(session, history.load_history, owner + 1000, group_id)
    hands = dict(zip(seated, ("5", "5", "9", "5"), strict=True))
    with Session(engine, expire_on_commit=False) as session:
        perform(session, rounds.add_round, owner, game_id, hands, seated[0], "dutch", "4S KD")
    engine.dispose()

    with sqlite3.connect(path) as connection:
        stored = connection.execute(
            "SELECT count(*) FROM rounds WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
    assert stored == 1


def test_a_round_saved_after_a_read_stopped_half_way_is_seen_by_other_processes(
    sqlite_file, monkeypatch
):
    """A read given up after its first batch (its cursor closed with rows left) leaves
    the file as it was; a round saved afterwards is in the file."""
    _, engine, _, group_id, *_ = sqlite_file
    monkeypatch.setattr(arrow_read, "BATCH_ROWS", 500)
    with Session(engine) as session:
        batches = arrow_read.record_batches(session, history.history_query(group_id))
        assert next(batches).num_rows == 500
        batches.close()
    assert_a_saved_round_is_seen_everywhere(sqlite_file)


SERVER_LOADS_A_HISTORY = """
import sys
from pathlib import Path
from sqlalchemy.orm import Session
from dutch_app.services import history
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import make_engine

engine = make_engine(f"sqlite:///{sys.argv[1]}")
with Session(engine) as session:
    frame = perform(session, history.load_history, int(sys.argv[2]), int(sys.argv[3]))
maps = Path("/proc/self/maps").read_text()
print(len(frame), "adbc_driver_sqlite" in sys.modules, "adbc_driver_sqlite" in maps)
"""


def test_the_server_never_loads_a_second_sqlite(sqlite_file):
    """A process that loads a history has only one SQLite in it, Python's own: the
    Arrow driver's copy is neither imported nor mapped."""
    path, _, owner, group_id, *_ = sqlite_file
    done = subprocess.run(
        [sys.executable, "-c", SERVER_LOADS_A_HISTORY, str(path), str(owner), str(group_id)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    rows, imported, mapped = done.stdout.split()
    assert int(rows) >= 3_000
    assert (imported, mapped) == ("False", "False")


def test_a_strangers_load_reads_nothing(sqlite_file, monkeypatch):
    """The membership is checked in the read itself: a stranger's load reads no row."""
    _, engine, owner, group_id, *_ = sqlite_file
    read_rows = []

    def counted(session, query):
        for batch in arrow_read.record_batches(session, query):
            read_rows.append(batch.num_rows)
            yield batch

    monkeypatch.setattr(history, "record_batches", counted)
    with Session(engine) as session, pytest.raises(NotFound):
        perform(session, history.load_history, owner + 1000, group_id)
    assert read_rows == []
