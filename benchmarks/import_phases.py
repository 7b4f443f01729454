"""Where another group's round save spends its time while a 3,000-game file is imported.

``python -m benchmarks.import_phases sqlite:///path/to/scratch.db`` (or a PostgreSQL URL
of a scratch database: the schema is migrated there and rows are added) imports the file
of ratio 8 as the History page does (in the server's import process) while this process
saves rounds of another group one after another, as ratio 8 does, and splits each save into
the wait for SQLite's write lock (``BEGIN IMMEDIATE``; nothing on PostgreSQL), the commit,
and the rest (the save's own work, and any time the processors were busy with something
else). It prints the median save alone and during the import, and the slowest saves with
their parts and when in the import they happened.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sqlalchemy.orm import sessionmaker

import dutch_app.storage.db as db
from benchmarks.write_ratios import HANDS, _Import, import_file, start_import_process
from dutch_app.services import games, groups, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import User
from dutch_core import PRESETS


def main(argv: list[str] | None = None) -> int:
    """The command line: the database URL."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.import_phases", description=__doc__)
    parser.add_argument("url", help="a scratch database (SQLite file or PostgreSQL)")
    parser.add_argument("--slowest", type=int, default=8, help="slowest saves to list")
    args = parser.parse_args(argv)
    engine = db.get_engine(args.url)
    parts = {"lock": 0.0, "commit": 0.0}
    begin_writing = db.begin_writing

    def timed_begin(driver) -> None:
        began = time.perf_counter()
        begin_writing(driver)
        parts["lock"] += time.perf_counter() - began

    db.begin_writing = timed_begin  # the engine's begin event looks it up on each call
    do_commit = engine.dialect.do_commit

    def timed_commit(connection) -> None:
        began = time.perf_counter()
        do_commit(connection)
        parts["commit"] += time.perf_counter() - began

    engine.dialect.do_commit = timed_commit  # type: ignore[method-assign]
    sessions = sessionmaker(engine, expire_on_commit=False)
    stamp = time.time()
    with sessions() as session:
        user = User(
            auth_provider="local",
            auth_subject=f"phases-{stamp}",
            email=f"phases-{stamp}@example.org",
            display_name="Phases",
        )
        session.add(user)
        session.commit()
        owner = user.id
        other = perform(session, groups.create_group, owner, "Next table")
        ids = [perform(session, players.add_player, owner, other.id, name).id for name in "ABCD"]
        game = perform(session, games.start_game, owner, other.id, ids, PRESETS["classic_open"])
        target = perform(session, groups.create_group, owner, "Imported").id
    hands = dict(zip(ids, HANDS, strict=True))

    def save() -> None:
        with sessions() as session:
            perform(session, rounds.add_round, owner, game.id, hands, ids[0], "dutch")

    for _ in range(5):
        save()
    alone = []
    for _ in range(30):
        began = time.perf_counter()
        save()
        alone.append(time.perf_counter() - began)
    start_import_process(sessions, owner)
    data = import_file(seed=int(stamp) % 1000 + 10)
    importing = _Import(sessions, owner, target, data)
    for _ in range(3):  # the first saves after a pause are slower, import or not
        save()
    importing.start()
    first = time.perf_counter()
    during = []
    while not importing.done.is_set():
        parts["lock"] = parts["commit"] = 0.0
        began = time.perf_counter()
        save()
        took = time.perf_counter() - began
        during.append((took, parts["lock"], parts["commit"], began - first))
    importing.join()
    engine.dispose()
    print(f"save alone: median {statistics.median(alone) * 1000:.1f} ms")
    print(
        f"during the import ({during[-1][3]:.1f} s): {len(during)} saves, median "
        f"{statistics.median(took for took, *_ in during) * 1000:.1f} ms, lock waits up to "
        f"{max(lock for _, lock, _, _ in during) * 1000:.1f} ms, commits up to "
        f"{max(commit for *_, commit, _ in during) * 1000:.1f} ms"
    )
    for took, lock, commit, at in sorted(during, reverse=True)[: args.slowest]:
        rest = took - lock - commit
        print(
            f"  {took * 1000:6.1f} ms: lock {lock * 1000:5.1f}, commit {commit * 1000:5.1f}, "
            f"the rest {rest * 1000:5.1f}; {at:.2f} s into the import"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
