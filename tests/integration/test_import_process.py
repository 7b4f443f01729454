"""A rounds file is imported in a process of its own: the server's process only waits for
the answer, which is the same report, refusal or error the import gives in-process."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import types
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from dutch_app.csv_io import ROUND_COLUMNS, CsvImportError, parse_rounds_csv
from dutch_app.i18n import use_language
from dutch_app.services import csv_import, import_process
from dutch_app.services.csv_export import export_rounds
from dutch_app.services.demo import generate_history
from dutch_app.services.errors import (
    Conflict,
    Forbidden,
    GameEnded,
    LimitReached,
    NotFound,
    StaleRound,
    ValidationError,
)
from dutch_app.services.games import list_games
from dutch_app.services.groups import create_group
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import in_memory
from dutch_app.storage.models import Game, Group, utcnow
from tests.servers import mapped_libraries, wait_until
from tests.views import get_group

BAD_FILE = b"game,started_at\n1,yesterday\n"
HEAVY = {"alembic", "altair", "numpy", "openskill", "pandas", "pyarrow", "streamlit"}
"""Libraries the import process does without (see the module's text)."""


@pytest.fixture
def rounds_file(session, owner) -> bytes:
    source = perform(session, create_group, owner, "Source")
    generate_history(session, source.id, 400, 3)
    return perform(session, export_rounds, owner, source.id)


@pytest.fixture(autouse=True)
def _english():
    use_language("en")
    yield
    use_language("en")


@pytest.fixture
def not_here(monkeypatch):
    """The server's own import refuses to run: whatever imports now ran elsewhere."""

    def here(*_args, **_kwargs):
        raise AssertionError("the import ran in the server's process")

    monkeypatch.setattr(import_process, "import_rounds_csv", here)
    monkeypatch.setattr(csv_import, "import_rounds_csv", here)


def test_the_import_runs_in_another_process_and_reports_as_it_would_here(
    session, owner, group, rounds_file, not_here
):
    report = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)

    assert report.games_imported > 0
    assert len(perform(session, list_games, owner, group.id)) == report.games_imported
    again = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    assert (again.games_imported, again.games_skipped) == (0, report.games_imported)


def test_a_refused_file_comes_back_with_its_problems_in_the_importers_language(
    session, owner, group, not_here, monkeypatch
):
    use_language("nl")
    with pytest.raises(CsvImportError) as apart:
        perform(session, import_process.import_rounds_csv_apart, owner, group.id, BAD_FILE)
    monkeypatch.undo()  # the server's own import, for the same file
    with pytest.raises(CsvImportError) as here:
        perform(session, csv_import.import_rounds_csv, owner, group.id, BAD_FILE)
    use_language("en")
    with pytest.raises(CsvImportError) as english:
        perform(session, csv_import.import_rounds_csv, owner, group.id, BAD_FILE)

    assert apart.value.problems == here.value.problems
    assert str(apart.value) == str(here.value) != str(english.value)
    assert perform(session, list_games, owner, group.id) == []


def test_numbers_in_a_refusal_are_written_as_the_importers_browser_writes_them(
    session, owner, group, not_here
):
    too_long = (",".join(ROUND_COLUMNS) + "\n" + "1\n" * 100_001).encode()
    use_language("de", browser="de-CH")
    with pytest.raises(CsvImportError) as refused:
        perform(session, import_process.import_rounds_csv_apart, owner, group.id, too_long)

    (problem,) = refused.value.problems
    assert "mehr als 100’000 Zeilen" in str(problem)  # de-CH: 100.000 elsewhere


def test_a_stranger_is_refused_before_any_process_starts(session, make_user, group, rounds_file):
    import_process._WORKER.stop_if_idle()
    stranger = make_user("Stranger")

    with pytest.raises(NotFound):
        perform(session, import_process.import_rounds_csv_apart, stranger, group.id, rounds_file)
    assert not import_process._WORKER.started


def test_a_service_error_from_the_import_process_reaches_the_page_as_itself(
    session, owner, group, not_here
):
    with pytest.raises(ValidationError) as refused:
        perform(session, import_process.import_rounds_csv_apart, owner, group.id, "not bytes")

    assert refused.value.field == "data"
    assert "bytes" in str(refused.value)


def test_an_unexpected_failure_in_the_import_process_is_logged_there_and_named_here(
    session, owner, group, monkeypatch
):
    unreachable = "postgresql+psycopg://nobody:wrong@127.0.0.1:9/none"
    answer = import_process._WORKER.run(unreachable, ("en", "en"), owner, group.id, b"")
    assert isinstance(answer, import_process._Failed)
    assert answer.what.startswith("OperationalError, logged by the import process as ")

    monkeypatch.setattr(import_process._WORKER, "run", lambda *_args: answer)
    with pytest.raises(RuntimeError, match="The import process failed: OperationalError"):
        perform(session, import_process.import_rounds_csv_apart, owner, group.id, b"")


@pytest.mark.parametrize(
    "error",
    [
        NotFound("game", 12),
        NotFound("group", "X7Q2", key="invite code"),
        ValidationError("name", "A name cannot be empty."),
        LimitReached("Too many players.", field="name"),
        LimitReached("Too many groups."),
        Conflict("Someone else was first."),
        Forbidden("Only the owner may."),
        StaleRound("Round 3 is taken.", next_number=4, latest=3, latest_by="Ann"),
        GameEnded("The game has ended.", winners=("Ann", "Bo"), total=None),
    ],
    ids=lambda error: type(error).__name__,
)
def test_every_service_error_is_made_again_from_a_pickle(error):
    again = pickle.loads(pickle.dumps(error))  # noqa: S301 (bytes made just above)

    assert type(again) is type(error)
    assert str(again) == str(error)
    assert vars(again) == vars(error)


def test_an_import_process_that_dies_half_way_fails_the_import_and_the_next_one_works(
    engine, session, owner, group, rounds_file
):
    big = _big_file(session, owner)
    outcome: dict[str, object] = {}

    def importing() -> None:
        try:
            perform(
                session_of(engine), import_process.import_rounds_csv_apart, owner, group.id, big
            )
        except Exception as error:  # what the page would get
            outcome["error"] = error

    worker = threading.Thread(target=importing)
    worker.start()
    _wait_for_a_holding_group(session)
    for child in multiprocessing.active_children():
        os.kill(child.pid, signal.SIGKILL)
    worker.join(timeout=60)

    assert isinstance(outcome.get("error"), import_process.ImportFailed)
    assert perform(session, list_games, owner, group.id) == []
    report = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    assert len(perform(session, list_games, owner, group.id)) == report.games_imported > 0


@pytest.mark.parametrize("written", [0.0, 0.4, 0.8], ids=["at-start", "early", "late"])
def test_a_retry_after_the_import_process_died_imports_every_game_and_the_clean_up_keeps_them(
    engine, session, owner, group, rounds_file, written
):
    """The import process is killed once ``written`` of the file's games are held; the
    retry imports the whole file, and the clean-up of the dead import takes none of it."""
    games = len(parse_rounds_csv(rounds_file).games)
    _slow_writes(engine, owner, group.id)
    outcome = _import_and_kill(engine, owner, group.id, rounds_file, at=written * games)
    assert isinstance(outcome.get("error"), import_process.ImportFailed)
    assert perform(session, list_games, owner, group.id) == []
    # The server deleted what the dead process held at once; the page said what happened,
    # so nothing is left to tell at the next page view.
    assert session.scalars(_holding()).all() == []
    assert perform(session, csv_import.stopped_imports, owner) == []

    report = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    after_retry = len(perform(session, list_games, owner, group.id))
    _age_holding_groups(engine)
    perform(session, csv_import.discard_abandoned_imports)
    after_clean_up = len(perform(session, list_games, owner, group.id))

    assert (report.games_imported, report.games_skipped) == (games, 0)
    assert (after_retry, after_clean_up) == (games, games)
    assert session.scalar(select(func.count()).select_from(Game)) == games + _source_games(session)


PARENT = """
import os, sys
from dutch_app.services import import_process
url, owner, group_id, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
worker = import_process._WORKER
worker.run(url, ("en", "en"), owner, group_id, b"not a rounds file")
slow = "import dutch_app.services._import_writes as w; w.LEAST_PAUSE_S = 0.2"
worker._pool.submit(exec, slow).result()
print(worker._pool.submit(os.getpid).result(), flush=True)
worker.run(url, ("en", "en"), owner, group_id, open(path, "rb").read())
"""


def test_the_import_process_ends_with_its_server_discarding_its_import_and_says_so_later(
    engine, session, owner, group, rounds_file, tmp_path
):
    """The server is killed (kill -9) while its import process writes: the import process
    stops, deletes what it held, notes it for the person's next page view, and ends."""
    path = tmp_path / "rounds.csv"
    path.write_bytes(rounds_file)
    url = engine.url.render_as_string(hide_password=False)
    server = subprocess.Popen(
        [sys.executable, "-c", PARENT, url, str(owner), str(group.id), str(path)],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        child = int(server.stdout.readline())
        _wait_for_a_holding_group(session)
    finally:
        server.kill()
        server.wait(timeout=30)

    assert wait_until(lambda: not _running(child), timeout=30, interval=0.05)
    session.rollback()
    assert perform(session, list_games, owner, group.id) == []
    assert session.scalars(_holding()).all() == []  # nothing left for the next start
    assert session.scalar(select(func.count()).select_from(Game)) == _source_games(session)
    name = get_group(session, owner, group.id).name
    assert perform(session, csv_import.stopped_imports, owner) == [name]


def test_an_import_process_that_died_between_imports_is_replaced(
    session, owner, group, rounds_file
):
    first = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    (child,) = multiprocessing.active_children()
    os.kill(child.pid, signal.SIGKILL)
    child.join(timeout=10)
    assert wait_until(lambda: import_process._WORKER._pool._broken, timeout=10, interval=0.01)

    again = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    assert (again.games_imported, again.games_skipped) == (0, first.games_imported)
    assert [process.pid for process in multiprocessing.active_children()] != [child.pid]


def test_the_import_process_gives_way_to_the_server_on_postgresql_only(
    engine, session, owner, group, rounds_file
):
    import_process._WORKER.stop_if_idle()
    perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    (child,) = multiprocessing.active_children()

    lower = os.getpriority(os.PRIO_PROCESS, child.pid) - os.getpriority(os.PRIO_PROCESS, 0)
    assert lower == (0 if engine.dialect.name == "sqlite" else import_process.NICENESS)


def test_the_import_process_does_without_the_statistics_libraries(
    session, owner, group, rounds_file
):
    """It reads, checks and writes rows: pandas, NumPy, Arrow and Streamlit (about 90 MiB of
    a process) are never loaded into it, before an import or during one."""
    perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    (child,) = multiprocessing.active_children()

    assert mapped_libraries(child.pid) == []
    loaded = import_process._WORKER._pool.submit(
        eval, f"sorted(set(__import__('sys').modules) & {HEAVY!r})"
    )
    assert loaded.result(timeout=30) == []


def test_an_import_a_page_asks_for_does_not_run_the_page_in_the_import_process(
    session, owner, group, rounds_file, monkeypatch
):
    """Streamlit runs each page script as ``__main__``, and a spawned process runs the
    parent's ``__main__`` again at its start: here the script is the app's, as on a server
    whose History page starts the import process."""
    import_process._WORKER.stop_if_idle()
    page = types.ModuleType("__main__")
    page.__file__ = str(Path(__file__).resolve().parents[2] / "app.py")
    monkeypatch.setitem(sys.modules, "__main__", page)

    report = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    assert report.games_imported > 0
    child = import_process._WORKER._pool
    ran = child.submit(eval, "getattr(__import__('sys').modules['__mp_main__'], '__file__', None)")
    loaded = child.submit(eval, f"sorted(set(__import__('sys').modules) & {HEAVY!r})")
    assert (ran.result(timeout=30), loaded.result(timeout=30)) == (None, [])


def test_the_import_process_starts_without_the_migrations_or_the_statistics():
    """What the import process loads at its start (its function's module, by name): no
    Alembic (only the server's start migrates) and nothing of the statistics."""
    script = (
        "import sys, dutch_app.services.import_process; "
        f"print(sorted(name for name in {sorted(HEAVY)!r} if name in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert loaded.stdout.strip() == "[]"


def test_an_idle_import_process_ends_and_the_next_import_starts_another(
    session, owner, group, rounds_file
):
    first = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    assert import_process._WORKER.started
    assert import_process._WORKER.stop_if_idle()
    assert not import_process._WORKER.started

    again = perform(session, import_process.import_rounds_csv_apart, owner, group.id, rounds_file)
    assert import_process._WORKER.started
    assert (again.games_imported, again.games_skipped) == (0, first.games_imported)


def test_an_in_memory_database_imports_in_this_process(rounds_file, monkeypatch):
    from dutch_app.storage.db import get_engine
    from dutch_app.storage.models import User

    engine = get_engine("sqlite://")
    assert in_memory(engine.url)
    submitted = []
    monkeypatch.setattr(import_process._WORKER, "run", lambda *args: submitted.append(args))
    with session_of(engine) as session:
        user = User(
            auth_provider="local", auth_subject="m", email="m@example.org", display_name="M"
        )
        session.add(user)
        session.commit()
        group = perform(session, create_group, user.id, "Here")
        report = perform(
            session, import_process.import_rounds_csv_apart, user.id, group.id, rounds_file
        )
    engine.dispose()
    assert report.games_imported > 0
    assert submitted == []


def test_file_and_server_databases_are_not_in_memory(engine):
    assert not in_memory(engine.url)
    for url in ("sqlite://", "sqlite:///:memory:", "sqlite:///file:kept?mode=memory&uri=true"):
        assert in_memory(url)


def session_of(engine):
    from sqlalchemy.orm import Session

    return Session(engine, expire_on_commit=False)


def _big_file(session, owner) -> bytes:
    source = perform(session, create_group, owner, "Big source")
    generate_history(session, source.id, 40_000, 5)
    return perform(session, export_rounds, owner, source.id)


def _wait_for_a_holding_group(session, within: float = 60.0) -> None:
    """Until the import process has begun writing (its holding group is there)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        session.rollback()
        if session.scalar(select(Group.id).where(Group.import_into_id.is_not(None))):
            return
        time.sleep(0.01)
    raise AssertionError("the import never began writing")


def _slow_writes(engine, owner: int, group_id: int) -> None:
    """A new import process whose imports rest 50 ms between batches: time to kill it."""
    import_process._WORKER.stop_if_idle()
    url = engine.url.render_as_string(hide_password=False)
    import_process._WORKER.run(url, ("en", "en"), owner, group_id, b"not a rounds file")
    slow = "import dutch_app.services._import_writes as w; w.LEAST_PAUSE_S = 0.05"
    import_process._WORKER._pool.submit(exec, slow).result(timeout=30)


def _import_and_kill(engine, owner: int, group_id: int, data: bytes, at: float) -> dict:
    """Import ``data`` in the import process and kill it once ``at`` games are held; what
    the page got."""
    outcome: dict[str, object] = {}

    def importing() -> None:
        try:
            with session_of(engine) as own:
                perform(own, import_process.import_rounds_csv_apart, owner, group_id, data)
        except Exception as error:  # what the page would get
            outcome["error"] = error

    worker = threading.Thread(target=importing)
    worker.start()
    held = (
        select(func.count())
        .select_from(Game)
        .where(Game.group_id == group_id, Game.held_by_id.in_(_holding()))
    )

    def far_enough() -> bool:
        with Session(engine) as watcher:
            return bool(watcher.scalar(_holding().exists().select())) and (
                watcher.scalar(held) >= at
            )

    assert wait_until(far_enough, timeout=60, interval=0.005), "the import never got that far"
    for child in multiprocessing.active_children():
        os.kill(child.pid, signal.SIGKILL)
    worker.join(timeout=60)
    return outcome


def _holding():
    return select(Group.id).where(Group.import_into_id.is_not(None))


def _age_holding_groups(engine) -> None:
    """Make every holding group old enough for any clean-up to take it."""
    with Session(engine) as writer, writer.begin():
        writer.execute(
            update(Group)
            .where(Group.import_into_id.is_not(None))
            .values(created_at=utcnow() - timedelta(hours=2))
        )


def _source_games(session) -> int:
    source = session.scalar(select(Group.id).where(Group.name == "Source"))
    return session.scalar(select(func.count()).select_from(Game).where(Game.group_id == source))


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
