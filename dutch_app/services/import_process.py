"""A rounds file imported in a process of its own, so the server's other tables keep pace.

Reading, checking and scoring a large file is pure Python: about half a second for
3,000 games, and the short transactions after it keep the process busy for seconds
more. In the server's own process that work shares the interpreter's one lock with
every other session: measured on PostgreSQL while a 3,000-game file was imported from
a thread of the saving process, another group's round took 60-68 ms at the 99th
percentile and up to 116 ms, against 9-11 ms alone. So the page hands the file to an
import process (:func:`import_rounds_csv_apart`) and waits for its answer; the server's
other sessions go on at their own pace.

The process is started at the first import and kept for the next ones; it ends after
:data:`IDLE_SECONDS` without one. It loads only what an import needs (SQLAlchemy, the
core, the CSV reader; not Streamlit, pandas, NumPy or Arrow): about 45 MiB of its
own. Imports queue for it, one at a time per server. It connects with the server's
database URL and runs :func:`dutch_app.services.csv_import.import_rounds_csv` as the page
ran it before, membership check included, in the language of the person importing.

What comes back is the import's report, or its refusal: the file's problems (the
:class:`~dutch_app.csv_io.CsvImportError` is made again in the server, with its
problems), or one of the services' errors. Anything else that fails there is written to
the import process's log (the server's standard error) and reaches the page as an
unexpected error, with an id of its own in the server's log. An import process that dies
half-way (stopped, out of memory) fails the import with :class:`ImportFailed` and leaves a
holding group, which the server deletes at once (the page says what happened); the next
import starts a new process. An import process whose server died stops its import before
the next batch (within :data:`PARENT_CHECK_S` and a batch), discards what it wrote, notes
it for the person (:class:`~dutch_app.storage.models.StoppedImport`: their next page view
says so, :func:`~dutch_app.services.csv_import.stopped_imports`) and ends.

An in-memory SQLite database cannot be reached from another process: there the import
runs in the caller's process, as it always did.
"""

from __future__ import annotations

import logging
import os
import pickle
import threading
import time
import traceback
import uuid
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import spawn
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import NamedTuple

from sqlalchemy import Engine, make_url
from sqlalchemy.orm import Session

from dutch_app.csv_io import CsvImportError, CsvProblem
from dutch_app.i18n import _, active_language, active_locale, use_language
from dutch_app.services._access import membership
from dutch_app.services._import_writes import (
    STOP,
    ImportStopped,
    discard_abandoned,
    note_stopped,
)
from dutch_app.services.csv_import import ImportReport, import_rounds_csv
from dutch_app.services.errors import ServiceError
from dutch_app.services.unit_of_work import in_steps, perform, read
from dutch_app.storage.db import in_memory

_log = logging.getLogger(__name__)

IDLE_SECONDS = 120.0
"""An import process without an import for this long ends; the next import starts one."""

NICENESS = 10
"""How much lower the import process's priority is than the server's, on PostgreSQL: when
both want the processors, the server's sessions go first. Measured (ratio 8, PostgreSQL
10k, seven imports a run, alternating): another group's slowest save during an import
was 1.23, 1.28 and 1.45 times its slowest alone with it, 1.46, 1.40 and 1.76 without.
Not on SQLite, where each of the import's short transactions holds the one write lock:
an import process waiting for a processor there would keep every writer waiting with it.
"""


PARENT_CHECK_S = 0.2
"""How often the import process checks that the server that started it still runs."""

STOPPED_LOCK_S = 5.0
"""How long the server waits for a dead import process's lock to be freed (on PostgreSQL,
once the database has seen its connection close) before it leaves the clean-up for later."""

STOP_GRACE_S = 60.0
"""How long an import process whose server is gone gives its import to stop and discard
what it wrote before it ends anyway (what is left is cleaned up at the next start)."""

_IMPORTING = threading.Lock()
"""Held by the import process while it runs an import."""


class ImportFailed(ServiceError):
    """The import process stopped before it answered (it was killed, or ran out of memory).
    Nothing was imported; the next import starts a new process."""


class _Refused(NamedTuple):
    """The file's problems, sent back to be made into a CsvImportError again."""

    problems: tuple[CsvProblem, ...]
    total: int


class _Failed(NamedTuple):
    """What failed unexpectedly in the import process: the error's kind and the id its
    traceback is logged under there."""

    what: str


_Answer = ImportReport | _Refused | ServiceError | _Failed


@in_steps
def import_rounds_csv_apart(
    session: Session, user_id: int, group_id: int, data: bytes
) -> ImportReport:
    """:func:`~dutch_app.services.csv_import.import_rounds_csv`, run in the import process.

    The membership is checked here first too, so a stranger's request starts nothing.
    """
    read(session, membership, user_id, group_id)
    engine = session.get_bind().engine
    if in_memory(engine.url):
        return import_rounds_csv(session, user_id, group_id, data)
    url = engine.url.render_as_string(hide_password=False)
    try:
        answer = _WORKER.run(url, (active_language(), active_locale()), user_id, group_id, data)
    except ImportFailed:
        # The page says so now: delete what the dead process wrote without a note for later.
        discard_abandoned(engine, group_id, tell=False, patience=STOPPED_LOCK_S)
        raise
    if isinstance(answer, ImportReport):
        return answer
    if isinstance(answer, _Refused):
        raise CsvImportError(answer.problems, answer.total)
    if isinstance(answer, ServiceError):
        raise answer
    # Unexpected: the page shows it as any other, with an error id for the server's log.
    raise RuntimeError(f"The import process failed: {answer.what}.")


class _ImportProcess(SpawnProcess):
    """A spawned process that leaves the server's main module out.

    Python starts a spawned process by running the parent's ``__main__`` module again in
    it (as ``__mp_main__``, unless it is a package's ``__main__``). Streamlit runs each page
    script as ``__main__``, so an import process started from the History page ran
    ``app.py`` at its start: all of Streamlit and the app (measured: 81 MB of its own
    instead of 39, 124 MB resident instead of 52), and the app's top-level code with no
    page to draw. The import needs nothing from that module (the function it runs is found
    by its own module's name), so the two entries that would run it are taken out of what
    the new process is told. No other part of the app starts
    processes this way, and the lock keeps two starts from overlapping.
    """

    def start(self) -> None:
        with _STARTING:
            made = spawn.get_preparation_data

            def without_main(name: str) -> dict[str, object]:
                data = made(name)
                for entry in ("init_main_from_path", "init_main_from_name"):
                    data.pop(entry, None)
                return data

            spawn.get_preparation_data = without_main
            try:
                super().start()
            finally:
                spawn.get_preparation_data = made


class _ImportContext(SpawnContext):
    """The spawn start method, with :class:`_ImportProcess` for its processes."""

    Process = _ImportProcess


_STARTING = threading.Lock()


class _Worker:
    """The server's import process: started when first needed, ended when idle."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._running = 0
        self._idle: threading.Timer | None = None

    def run(
        self, url: str, language: tuple[str, str], user_id: int, group_id: int, data: bytes
    ) -> _Answer:
        """One import in the import process; its answer."""
        pool, future = self._submit(url, language, user_id, group_id, data)
        try:
            return future.result()
        except (BrokenProcessPool, CancelledError) as error:
            self._drop(pool)
            raise ImportFailed(
                _("The import stopped before it ended; nothing was imported. Please try again.")
            ) from error
        finally:
            self._done()

    def _submit(
        self, url: str, language: tuple[str, str], user_id: int, group_id: int, data: bytes
    ) -> tuple[ProcessPoolExecutor, Future[_Answer]]:
        with self._lock:
            if self._idle is not None:
                self._idle.cancel()
                self._idle = None
            self._running += 1
            if self._pool is not None:
                try:
                    return self._pool, self._pool.submit(
                        _import, url, language, user_id, group_id, data
                    )
                except BrokenProcessPool:  # its process died since the last import
                    pass
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=_ImportContext(),
                initializer=_prepare,
                initargs=(os.getpid(), make_url(url).get_backend_name() != "sqlite"),
            )
            return self._pool, self._pool.submit(_import, url, language, user_id, group_id, data)

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        """Forget ``pool`` when its process died: the next import starts a new one (an
        import that already started a new one keeps it)."""
        with self._lock:
            if self._pool is not pool:
                return
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def _done(self) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0 and self._pool is not None:
                self._idle = threading.Timer(IDLE_SECONDS, self.stop_if_idle)
                self._idle.daemon = True
                self._idle.start()

    def stop_if_idle(self) -> bool:
        """End the import process unless an import is running or waiting; whether it ended."""
        with self._lock:
            if self._running or self._pool is None:
                return False
            pool, self._pool = self._pool, None
            if self._idle is not None:
                self._idle.cancel()
                self._idle = None
        pool.shutdown(wait=True)
        return True

    @property
    def started(self) -> bool:
        """Whether an import process is there (or being started)."""
        return self._pool is not None


_WORKER = _Worker()


# --- in the import process ------------------------------------------------------------


def _made_again(error: ServiceError) -> bool:
    """Whether ``error`` comes out of a pickle as it went in (one that does not would
    break the pool's pipe on the server's side)."""
    try:
        again = pickle.loads(pickle.dumps(error))  # noqa: S301 (our own bytes, just made)
    except Exception:
        return False
    return type(again) is type(error) and str(again) == str(error)


_ENGINES: dict[str, Engine] = {}


def _prepare(server: int, lower: bool) -> None:
    """The import process's first step: end with the ``server`` process, and give way to it
    (``lower``, see :data:`NICENESS`)."""
    threading.Thread(target=_end_without, args=(server,), daemon=True).start()
    if lower and hasattr(os, "nice"):
        os.nice(NICENESS)


def _end_without(server: int) -> None:
    """End this process once the server process that started it is gone, after stopping
    the import at work (:data:`STOP`).

    Not Linux's parent-death signal (``prctl(PR_SET_PDEATHSIG)``): it comes when the
    *thread* that started the process ends, and the import process is started by the thread
    of the page run that first imports, which ends with that run.
    """
    while os.getppid() == server:
        time.sleep(PARENT_CHECK_S)
    STOP.set()
    _IMPORTING.acquire(timeout=STOP_GRACE_S)
    _log.error("The server that started this import process is gone: it ends.")
    os._exit(1)


def _engine(url: str) -> Engine:
    from dutch_app.storage.db import make_engine

    engine = _ENGINES.get(url)
    if engine is None:
        engine = _ENGINES[url] = make_engine(url)
    return engine


def _import(
    url: str, language: tuple[str, str], user_id: int, group_id: int, data: bytes
) -> _Answer:
    """Run the import; its report, or what refused or failed it (never raises).
    ``language``: the language and the locale of the page that asked."""
    use_language(language[0], browser=language[1])
    try:
        with _IMPORTING, Session(_engine(url), expire_on_commit=False) as session:
            try:
                return perform(session, import_rounds_csv, user_id, group_id, data)
            except ImportStopped:
                perform(session, note_stopped, user_id, group_id)
                return _Failed("ImportStopped, its server is gone")
    except CsvImportError as error:
        return _Refused(error.problems, error.count)
    except ServiceError as error:
        if _made_again(error):
            return error
        error_id = uuid.uuid4().hex[:8]
        _log.error("The import's refusal cannot be sent back (%s): %r", error_id, error)
        return _Failed(f"{type(error).__name__}, logged by the import process as {error_id}")
    except Exception as error:  # logged here; the server logs it again with the page's id
        error_id = uuid.uuid4().hex[:8]
        _log.error("The import failed (%s):\n%s", error_id, traceback.format_exc())
        return _Failed(f"{type(error).__name__}, logged by the import process as {error_id}")
