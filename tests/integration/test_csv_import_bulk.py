"""CSV import at scale: parsed before the write begins, written in one transaction (one
statement per table), refused whole when anything is wrong, and all or nothing whatever
fails or dies half-way."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from dutch_app.csv_io import CsvImportError, parse_rounds_csv
from dutch_app.services import csv_import
from dutch_app.services.csv_export import export_rounds
from dutch_app.services.demo import generate_history
from dutch_app.services.games import get_game, list_games, start_game
from dutch_app.services.groups import create_group
from dutch_app.services.live import Watched, member_version
from dutch_app.services.players import add_player
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Game
from dutch_core import PRESETS


@pytest.fixture
def history_file(session, owner):
    """The rounds file of a demo history of some 60 games."""
    source = perform(session, create_group, owner, "Source")
    generate_history(session, source.id, 2000, 7)
    return perform(session, export_rounds, owner, source.id)


def test_an_import_writes_one_statement_per_table_in_one_transaction(
    session, engine, owner, history_file
):
    target = perform(session, create_group, owner, "Target")
    inserts: list[str] = []
    commits: list[int] = []  # the inserts seen at each commit

    def seen(_conn, _cursor, statement, *_rest):
        if statement.lstrip().upper().startswith("INSERT"):
            inserts.append(statement.split("(")[0].split()[-1])

    def committed(_conn):
        commits.append(len(inserts))

    event.listen(engine, "before_cursor_execute", seen)
    event.listen(engine, "commit", committed)
    try:
        report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
        event.remove(engine, "commit", committed)
    assert report.games_imported > 40
    assert sorted(inserts) == ["game_players", "games", "players", "round_hands", "rounds"]
    assert [count for count in commits if count] == [len(inserts)]  # all in one commit
    assert perform(session, export_rounds, owner, target.id) == history_file
    for summary in perform(session, list_games, owner, target.id)[:5]:
        view = perform(session, get_game, owner, summary.id)
        assert summary.totals == tuple(view.totals.values())


def test_the_file_is_parsed_before_the_write_transaction_begins(
    session, owner, history_file, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    parse = csv_import.parse_rounds_csv
    seen = []

    def watched(data, **options):
        seen.append(session.in_transaction())
        return parse(data, **options)

    monkeypatch.setattr(csv_import, "parse_rounds_csv", watched)
    perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    assert seen == [False]


def test_a_file_with_problems_in_many_games_lists_them_all_and_writes_nothing(
    session, owner, history_file, count_rows
):
    lines = history_file.decode("utf-8").splitlines()
    header = lines[0].split(",")
    player, total = header.index("player"), header.index("game_total")
    changed = {}
    for number in (5, 400, 1500):  # three games far apart
        cells = lines[number].split(",")
        cells[total] = str(int(cells[total]) + 1)
        changed[number] = cells
    cells = lines[800].split(",")
    cells[player] = "Ann\x07"  # a name with a control character
    changed[800] = cells
    for number, cells in changed.items():
        lines[number] = ",".join(cells)
    target = perform(session, create_group, owner, "Target")
    before = count_rows()
    with pytest.raises(CsvImportError) as caught:
        perform(
            session,
            csv_import.import_rounds_csv,
            owner,
            target.id,
            ("\n".join(lines) + "\n").encode("utf-8"),
        )
    found = {(problem.line, problem.column) for problem in caught.value.problems}
    assert {(6, "game_total"), (401, "game_total"), (1501, "game_total")} <= found
    assert (801, "player") in found
    assert count_rows() == before


def test_games_another_import_stored_meanwhile_are_skipped_by_their_key(
    session, owner, history_file, monkeypatch
):
    """Content keys are read before the write begins; a game stored by a concurrent import
    after that read is still found, by its import key, inside the write."""
    lines = history_file.decode("utf-8").splitlines()
    first_game = [line for line in lines[1:] if line.split(",")[0] == "1"]
    target = perform(session, create_group, owner, "Target")
    early = perform(
        session,
        csv_import.import_rounds_csv,
        owner,
        target.id,
        ("\n".join([lines[0], *first_game]) + "\n").encode("utf-8"),
    )
    assert early.games_imported == 1
    monkeypatch.setattr(csv_import, "_content_keys", lambda *args: set())
    report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    games_in_file = len({line.split(",")[0] for line in lines[1:]})
    assert (report.games_imported, report.games_skipped) == (games_in_file - 1, 1)
    assert perform(session, export_rounds, owner, target.id) == history_file


def test_the_same_file_imported_twice_at_the_same_moment_stores_each_game_once(
    session, engine, owner, history_file
):
    """Both imports read the group before either writes; the second one's write finds the
    first one's games by their keys (on PostgreSQL after retrying the clash on the key)."""
    from tests.integration.test_concurrency import at_once

    target = perform(session, create_group, owner, "Target")
    outcomes = at_once(
        engine,
        [lambda s: perform(s, csv_import.import_rounds_csv, owner, target.id, history_file)] * 2,
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    imported = sorted(report.games_imported for report in outcomes)
    games_in_file = len({line.split(b",")[0] for line in history_file.splitlines()[1:]})
    assert imported[0] + imported[1] == games_in_file
    assert len(perform(session, list_games, owner, target.id)) == games_in_file
    assert perform(session, export_rounds, owner, target.id) == history_file


def _failing_after_the_games(monkeypatch) -> None:
    """The import's write fails once every game, round and hand of the file is inserted."""
    real = csv_import.insert_games

    def then_fail(*args, **kwargs):
        real(*args, **kwargs)
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(csv_import, "insert_games", then_fail)


def test_a_failure_after_the_rows_are_written_leaves_nothing_and_the_retry_stores_each_game_once(
    session, owner, history_file, count_rows, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    before = count_rows()
    version = perform(session, member_version, owner, Watched.GROUP, target.id)
    _failing_after_the_games(monkeypatch)
    with pytest.raises(RuntimeError, match="disk is full"):
        perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    monkeypatch.undo()
    assert count_rows() == before
    assert perform(session, list_games, owner, target.id) == []
    assert perform(session, member_version, owner, Watched.GROUP, target.id) == version

    games_in_file = len(parse_rounds_csv(history_file).games)
    retry = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    again = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    assert (retry.games_imported, retry.games_skipped) == (games_in_file, 0)
    assert (again.games_imported, again.games_skipped) == (0, games_in_file)
    assert perform(session, export_rounds, owner, target.id) == history_file


def _other_table(session, owner):
    """A game in progress in another group, and a save of its next round."""
    other = perform(session, create_group, owner, "Next table")
    ids = [perform(session, add_player, owner, other.id, name).id for name in "ABCD"]
    game = perform(session, start_game, owner, other.id, ids, PRESETS["classic_open"])
    hands = dict(zip(ids, ("3", "10", "12", "20"), strict=True))
    return game.id, lambda s: perform(s, add_round, owner, game.id, hands, ids[0], "dutch")


def test_another_groups_save_during_an_import_succeeds_and_nobody_sees_half_a_file(
    engine, session, owner, history_file, monkeypatch
):
    """The import is held inside its transaction, its rows written: another group's save
    goes on at once on PostgreSQL and waits for the import's commit on SQLite (the busy
    timeout); a reader meanwhile sees none of the file."""
    target = perform(session, create_group, owner, "Target")
    game_id, save = _other_table(session, owner)
    written, go_on, saved = threading.Event(), threading.Event(), threading.Event()
    real = csv_import.insert_games

    def held(*args, **kwargs):
        ids = real(*args, **kwargs)
        written.set()
        assert go_on.wait(timeout=60)
        return ids

    monkeypatch.setattr(csv_import, "insert_games", held)
    outcomes: dict[str, object] = {}

    def run(name, job):
        try:
            with Session(engine, expire_on_commit=False) as own:
                outcomes[name] = job(own)
        except Exception as error:  # the test reports it below
            outcomes[name] = error
        if name == "save":
            saved.set()

    importing = threading.Thread(
        target=run,
        args=(
            "import",
            lambda s: perform(s, csv_import.import_rounds_csv, owner, target.id, history_file),
        ),
    )
    importing.start()
    try:
        assert written.wait(timeout=60)
        saving = threading.Thread(target=run, args=("save", save))
        saving.start()
        if engine.dialect.name == "postgresql":
            assert saved.wait(timeout=30), "the save waited for the import"
        else:
            assert not saved.wait(timeout=0.5), "the save went on inside the import's lock"
        with Session(engine) as reader:
            assert perform(reader, list_games, owner, target.id) == []
    finally:
        go_on.set()
        importing.join(timeout=60)
    saving.join(timeout=60)
    assert not isinstance(outcomes["save"], Exception), outcomes
    assert outcomes["import"].games_imported == len(parse_rounds_csv(history_file).games)
    assert perform(session, get_game, owner, game_id).rounds_played == 1


KILLED_MID_IMPORT = """
import sys, time
from sqlalchemy.orm import Session
from dutch_app.services import csv_import
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import make_engine

url, owner, group_id, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
real = csv_import.insert_games

def written(*args, **kwargs):
    ids = real(*args, **kwargs)
    print("written", flush=True)
    time.sleep(120)
    return ids

csv_import.insert_games = written
with Session(make_engine(url)) as session:
    perform(session, csv_import.import_rounds_csv, owner, group_id, open(path, "rb").read())
"""


def test_a_server_killed_in_the_middle_of_an_import_leaves_nothing_of_it(
    engine, session, owner, history_file, count_rows, tmp_path
):
    """The process importing is killed (kill -9) with every row written and not committed:
    the database rolls the transaction back, and the retry stores the whole file."""
    target = perform(session, create_group, owner, "Target")
    path = tmp_path / "rounds.csv"
    path.write_bytes(history_file)
    before = count_rows()
    url = engine.url.render_as_string(hide_password=False)
    server = subprocess.Popen(
        [sys.executable, "-c", KILLED_MID_IMPORT, url, str(owner), str(target.id), str(path)],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout.readline().strip() == "written"
    finally:
        server.kill()
        server.wait(timeout=30)

    assert count_rows() == before
    report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    assert report.games_imported == len(parse_rounds_csv(history_file).games)
    assert (
        session.scalar(select(func.count()).select_from(Game).where(Game.group_id == target.id))
        == report.games_imported
    )
