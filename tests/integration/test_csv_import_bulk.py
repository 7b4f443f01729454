"""CSV import at scale: parsed before the write begins, written in one statement per table
for each short batch, and refused whole, with every problem listed, when anything is wrong."""

from __future__ import annotations

import gc

import pytest
from sqlalchemy import event

from dutch_app.csv_io import CsvImportError
from dutch_app.services import _import_writes, csv_import
from dutch_app.services._import_writes import batch_hands
from dutch_app.services.csv_export import export_rounds
from dutch_app.services.demo import generate_history
from dutch_app.services.games import get_game, list_games
from dutch_app.services.groups import create_group
from dutch_app.services.unit_of_work import perform


@pytest.fixture
def history_file(session, owner):
    """The rounds file of a demo history of some 60 games."""
    source = perform(session, create_group, owner, "Source")
    generate_history(session, source.id, 2000, 7)
    return perform(session, export_rounds, owner, source.id)


def test_an_import_writes_one_statement_per_table_and_batch_and_stores_the_right_totals(
    session, engine, owner, history_file
):
    target = perform(session, create_group, owner, "Target")
    inserts: list[str] = []

    def seen(_conn, _cursor, statement, *_rest):
        if statement.lstrip().upper().startswith("INSERT"):
            inserts.append(statement.split("(")[0].split()[-1])

    event.listen(engine, "before_cursor_execute", seen)
    try:
        report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert report.games_imported > 40
    batches = inserts.count("games")
    hands = len(history_file.splitlines()) - 1
    # Whole games per batch, each batch at least its database's rows (but the last).
    assert 2 <= batches <= hands // batch_hands(engine.dialect.name) + 1
    assert sorted(inserts) == sorted(
        ["groups", "players", *["game_players", "games", "round_hands", "rounds"] * batches]
    )
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


def test_no_cycle_collection_falls_inside_an_import_transaction(
    session, owner, history_file, monkeypatch
):
    """A full collection takes tens of milliseconds with a large file in memory; inside a
    short transaction it would hold SQLite's write lock that long. The collector is off
    in every batch's transaction and in the one that shows the import, on again in the
    rests between them, and on after the import as before it."""
    target = perform(session, create_group, owner, "Target")
    seen: list[tuple[str, bool]] = []

    def noting(kind: str, step):
        def noted(*args, **kwargs):
            seen.append((kind, gc.isenabled()))
            return step(*args, **kwargs)

        return noted

    for kind, name in (("batch", "_write_batch"), ("reveal", "_reveal"), ("rest", "_pause")):
        monkeypatch.setattr(_import_writes, name, noting(kind, getattr(_import_writes, name)))
    perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    kinds = [kind for kind, _on in seen]
    assert kinds.count("batch") >= 2 and kinds[-1] == "reveal"
    assert all(on == (kind == "rest") for kind, on in seen)
    assert gc.isenabled()


def test_on_postgresql_only_the_batches_commit_without_waiting_for_the_disk(
    session, engine, owner, history_file, monkeypatch
):
    """The import's batches commit without waiting for the log to reach the disk (on
    SQLite by the connection's ``synchronous`` setting); the transaction that shows the
    import waits, as every other does, and that makes the batches before it durable."""
    from sqlalchemy import text

    target = perform(session, create_group, owner, "Target")
    seen: list[tuple[str, str]] = []

    def noting(kind: str, step):
        def noted(own, *args, **kwargs):
            result = step(own, *args, **kwargs)
            if own.get_bind().dialect.name == "postgresql":
                seen.append((kind, own.scalar(text("SHOW synchronous_commit"))))
            return result

        return noted

    for kind, name in (("batch", "_write_batch"), ("reveal", "_reveal")):
        monkeypatch.setattr(_import_writes, name, noting(kind, getattr(_import_writes, name)))
    perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    if engine.dialect.name != "postgresql":
        assert seen == []
        return
    assert [kind for kind, _ in seen].count("batch") >= 2
    assert {setting for kind, setting in seen if kind == "batch"} == {"off"}
    assert seen[-1] == ("reveal", "on")
    with engine.connect() as other:  # the setting never outlives a batch
        assert other.scalar(text("SHOW synchronous_commit")) == "on"


def test_the_collector_stays_off_until_the_last_of_two_imports_ends_and_off_if_it_was():
    guard = _import_writes._no_collection
    assert gc.isenabled()
    with guard():
        with guard():  # another import's transaction, in another thread
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with guard():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()
