"""SQLite reads in helper processes: Arrow-native, and safe beside the app's own SQLite.

The Arrow-native SQLite driver (``adbc-driver-sqlite``) carries its own copy of
SQLite. Two copies of SQLite in one process cannot see each other's locks, since
POSIX locks belong to the process: when the driver's last connection closed, it
took itself for the last connection to the file and deleted the write-ahead log
under the app's connections (see :mod:`dutch_app.storage.arrow_read`). Between
processes, SQLite's locks work as designed. So the server never loads the driver:
it hands each read to a helper process, which runs it with the driver and sends
the rows back over a pipe, a batch at a time as Arrow IPC messages. While the server
turns one batch into columns, the helper reads the next one on the other core.

The exchange, one read at a time per helper (every number big-endian):

- the server sends a request: its length (4 bytes) and its JSON: the SQL and
  parameters of the gate (a SELECT that must find a row, such as the reader's
  membership, or nothing is read), of the count and of the query, the query retyped
  (see below), the Arrow types the rows must have (by their names: ``int64``,
  ``double``, ``string``), how to size the batches (about one part in ``n`` of the
  rows, within two bounds), the number of rows the server expects when it asks for
  no count (the batches are then sized by it), and whether to measure the helper's
  memory;
- the helper answers ``C`` and the row count (8 bytes; the expected rows when it was
  given them instead of a count; -1 with neither), then
  each record batch of exactly those types as ``B``, its length (8 bytes) and the
  batch as one Arrow IPC message (written with one system call, so the server wakes
  once a batch), then ``K`` and its peak memory growth during the read (8 bytes; 0
  unless asked); or ``E``, a length and a message, in place of the ``C`` when the
  read fails before it counted, or in place of a ``B`` or the ``K`` when it fails
  later; or ``N`` alone when the gate found no row.

The driver takes a column's type from its first batch: a text column that is empty
(NULL) all through that batch comes out as integers, and a later batch with text in
it fails. When the first batch is full and one of its columns has the wrong type,
the helper reads the query retyped instead: those columns never NULL (text as
``''``, numbers as 0) and a last column with a bit set for each NULL, which the
helper puts back (:func:`_nulls_back`). Every batch is then cast to the types asked.

A helper reads with ``PRAGMA query_only`` and a small page cache, and ends when the
server closes its pipe (the server stopped, or the engine it served is gone) or
after :data:`IDLE_EXIT_SECONDS` without a request.

Run as ``python sqlite_helper.py DATABASE_PATH``; the server starts helpers with
:class:`Helpers`.
"""

from __future__ import annotations

import json
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any

IDLE_EXIT_SECONDS = 300.0
"""A helper without a request for this long ends; the next read starts a new one."""

IDLE_HELPERS = 2
"""The most idle helpers a server keeps for one database (as many as the default
``loading_slots`` limit lets it load at once); a read when all are busy starts another,
which ends after it."""

DRAIN_ROWS = 20_000
"""A read left before its end is drained, its helper kept, when fewer rows than this are
still to come; a longer one ends its helper (a new one starts in about 0.4 s)."""

CACHE_KIB = 256
"""A helper's SQLite page cache. Its reads scan a group's rows once, in order; the
operating system's file cache keeps the file's pages for the next read."""

PIPE_BYTES = 1 << 20
"""The size asked for each pipe (Linux's default most): the helper can write a whole
batch ahead while the server works on the last."""

_LENGTH = struct.Struct(">I")
_NUMBER = struct.Struct(">q")


class HelperError(RuntimeError):
    """A read in a helper process failed; the message says why."""


class Refused(LookupError):
    """The read's gate (see :meth:`dutch_app.storage.arrow_read.ArrowReader.batches`)
    found no row: nothing was read."""


class _HelperGone(HelperError):
    """The helper ended before it answered (it was idle too long, or was stopped)."""


# --- the server's side ---------------------------------------------------------------


class _Helper:
    """One helper process and its pipes."""

    def __init__(self, database: str) -> None:
        self.process = subprocess.Popen(  # noqa: S603 (our own interpreter and file)
            [sys.executable, os.path.abspath(__file__), database],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            # Its own session: a Ctrl-C meant for the server does not reach it; it ends
            # when the server's end of its pipe closes.
            start_new_session=True,
        )
        if self.process.stdin is None or self.process.stdout is None:  # both are piped
            raise HelperError("The reading helper has no pipes.")
        self.requests: IO[bytes] = self.process.stdin
        self.answers: IO[bytes] = self.process.stdout
        for pipe in (self.requests, self.answers):
            _widen(pipe)
        self.finished = True
        self.peak_growth = 0

    def send(self, request: bytes) -> int:
        """Send a request; the row count the helper answers with (-1 if none was asked)."""
        self.finished = False
        try:
            self.requests.write(_LENGTH.pack(len(request)) + request)
            self.requests.flush()
        except (BrokenPipeError, OSError) as error:
            raise _HelperGone("The reading helper has ended.") from error
        status = self.answers.read(1)
        if not status:
            raise _HelperGone("The reading helper ended before it answered.")
        if status == b"E":
            self.finished = True
            raise HelperError(self._message())
        if status == b"N":
            self.finished = True
            raise Refused
        if status != b"C":
            raise HelperError(f"The reading helper answered {status!r}.")
        return _NUMBER.unpack(_exactly(self.answers, _NUMBER.size))[0]

    def batches(self, schema: Any) -> Iterator[Any]:
        """The answer's record batches, of ``schema``; after the last, its end is read."""
        import pyarrow as pa

        while True:
            status = _exactly(self.answers, 1)
            if status != b"B":
                break
            (size,) = _NUMBER.unpack(_exactly(self.answers, _NUMBER.size))
            message = bytearray(size)
            if self.answers.readinto(message) != size:  # type: ignore[attr-defined]
                raise HelperError("The reading helper ended in the middle of its rows.")
            batch = pa.ipc.read_record_batch(pa.py_buffer(message), schema)
            del message
            yield batch
            del batch
        self.finished = True
        if status == b"E":
            raise HelperError(self._message())
        if status != b"K":
            raise HelperError(f"The reading helper ended its rows with {status!r}.")
        self.peak_growth = _NUMBER.unpack(_exactly(self.answers, _NUMBER.size))[0]

    def _message(self) -> str:
        (length,) = _NUMBER.unpack(_exactly(self.answers, _NUMBER.size))
        return _exactly(self.answers, length).decode("utf-8", "replace")

    def close(self) -> None:
        """End the helper: it reads the end of its pipe and returns."""
        for pipe in (self.requests, self.answers):
            with suppress(OSError):
                pipe.close()

    def kill(self) -> None:
        """End the helper at once, whatever it is doing (its locks end with it)."""
        self.process.kill()
        self.close()
        self.process.wait()


def _widen(pipe: IO[bytes]) -> None:
    import fcntl

    with suppress(AttributeError, OSError):  # not Linux, or above the system's limit
        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)


def _exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if data is None or len(data) != size:
        raise HelperError("The reading helper ended in the middle of an answer.")
    return data


class Read:
    """A read under way: its row count, and its batches as they are asked for."""

    def __init__(self, helper: _Helper, rows: int, schema: Any) -> None:
        self.rows = rows
        self._helper = helper
        self._batches = helper.batches(schema)
        self.taken = 0

    def __iter__(self) -> Iterator[Any]:
        import pyarrow as pa

        try:
            for batch in self._batches:
                self.taken += batch.num_rows
                yield batch
        except (OSError, pa.ArrowException) as error:  # the stream broke off
            raise HelperError(f"The reading helper's rows broke off: {error}") from error

    @property
    def peak_growth(self) -> int:
        """The helper's peak memory growth during the read (bytes), once it is read to
        its end, if the request asked for it."""
        return self._helper.peak_growth


class Helpers:
    """The helper processes that read one SQLite database for this server."""

    def __init__(self, database: str) -> None:
        self._database = database
        self._idle: list[_Helper] = []
        self._lock = threading.Lock()
        weakref.finalize(self, _close_all, self._idle)
        self._idle.append(_Helper(database))  # starting takes about 0.4 s: begin it now

    @contextmanager
    def read(self, request: dict[str, Any], schema: Any) -> Iterator[Read]:
        """Send ``request`` (see the module's text) to an idle helper, or a new one, and
        give its answer, record batches of ``schema`` (the Arrow types it asks for). When
        the ``with`` block ends, the helper has read or drained the rest of its answer
        and goes back to the idle ones, or it is ended."""
        body = encode(request)
        helper = self._checkout()
        read = None
        try:
            try:
                rows = helper.send(body)
            except _HelperGone:
                # It ended while idle (after IDLE_EXIT_SECONDS, say); nothing was read.
                helper.kill()
                helper = _Helper(self._database)
                rows = helper.send(body)
            read = Read(helper, rows, schema)
            yield read
        finally:
            if not helper.finished:
                _drain_or_end(helper, read)
            if helper.finished:
                self._checkin(helper)

    def _checkout(self) -> _Helper:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return _Helper(self._database)

    def _checkin(self, helper: _Helper) -> None:
        with self._lock:
            if len(self._idle) < IDLE_HELPERS:
                self._idle.append(helper)
                return
        helper.close()
        helper.process.wait()


def _drain_or_end(helper: _Helper, read: Read | None) -> None:
    """Read what is left of an answer the caller stopped taking, when it is short; a long
    rest, or an answer that cannot be read on, ends the helper instead."""
    if read is None or read.rows < 0 or read.rows - read.taken >= DRAIN_ROWS:
        helper.kill()
        return
    try:
        for _ in read:
            pass
    except HelperError:
        pass
    if not helper.finished:
        helper.kill()


def _close_all(idle: list[_Helper]) -> None:
    while idle:
        idle.pop().close()


def encode(request: dict[str, Any]) -> bytes:
    """A request's bytes. Parameters can be whole numbers, numbers, text or None (the
    values the SQLite dialect binds); anything else is refused here, by name."""

    def refuse(value: object) -> None:
        raise TypeError(f"A SQLite read cannot bind {type(value).__name__} values.")

    return json.dumps(request, default=refuse, ensure_ascii=False, allow_nan=False).encode()


# --- the helper's side ---------------------------------------------------------------


def _serve(database: str) -> int:
    import pyarrow as pa

    # The C library's allocator hands a freed batch back at once; Arrow's default one
    # keeps freed pages for reuse, which doubled a 10,000-row read's peak in the helper.
    pa.set_memory_pool(pa.system_memory_pool())
    connection = _Connection(database)
    for pragma in (f"cache_size = -{CACHE_KIB}", "busy_timeout = 5000", "query_only = ON"):
        connection.rows(f"PRAGMA {pragma}", []).read_all()
    connection.close_statement()
    requests = sys.stdin.buffer
    answers = sys.stdout.fileno()  # written whole messages at a time (_send), unbuffered
    give_back = _freed_memory_giver()
    while True:
        ready, _, _ = select.select([requests], [], [], IDLE_EXIT_SECONDS)
        if not ready:
            return 0
        head = requests.read(_LENGTH.size)
        if len(head) < _LENGTH.size:
            return 0  # the server has closed its end
        (length,) = _LENGTH.unpack(head)
        request = json.loads(_exactly(requests, length))
        try:
            _answer(connection, request, answers)
        except BrokenPipeError:
            return 0
        give_back()


def _freed_memory_giver() -> Callable[[], object]:
    """What hands the heap's free pages back to the system, called once the server has its
    answer (the C library keeps them otherwise: an idle helper stayed 24 MiB larger after
    a 1,000,000-row read); without the GNU C library, nothing."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    return lambda: trim(0)


class _Connection:
    """The helper's connection, through the ADBC driver manager's own interface: the
    DB-API module on top of it imports pandas and ``pyarrow.dataset``, which made an idle
    helper more than twice as large (55 MiB of its own memory against about 20)."""

    def __init__(self, database: str) -> None:
        import adbc_driver_sqlite
        from adbc_driver_manager import AdbcConnection

        self._database = adbc_driver_sqlite.connect(database)
        self._connection = AdbcConnection(self._database)
        self._statement: Any = None

    def autocommit(self, enabled: bool) -> None:
        """Off: the next statements run in one transaction (one snapshot); on again: it
        ends (it wrote nothing)."""
        self._connection.set_autocommit(enabled)

    def rows(self, sql: str, parameters: list[Any], batch_rows: int = 0) -> Any:
        """A reader of the rows of ``sql`` with ``parameters`` bound in order, ``batch_rows``
        at a time (0: the driver's default); the statement before it is closed first."""
        import pyarrow as pa
        from adbc_driver_manager import AdbcStatement

        self.close_statement()
        statement = self._statement = AdbcStatement(self._connection)
        statement.set_sql_query(sql)
        if batch_rows:
            statement.set_options(**{"adbc.sqlite.query.batch_rows": str(batch_rows)})
        if parameters:
            names = [str(number) for number in range(len(parameters))]
            statement.bind(pa.record_batch([[value] for value in parameters], names=names))
        handle, _ = statement.execute_query()
        return pa.RecordBatchReader._import_from_c(handle.address)

    def close_statement(self) -> None:
        if self._statement is not None:
            self._statement.close()
            self._statement = None


def _answer(connection: _Connection, request: dict[str, Any], answers: int) -> None:
    import pyarrow as pa

    measured = request.get("measure", False)
    if measured:
        _reset_peak()
        before = _status_bytes("VmRSS")
    schema = pa.schema([(name, pa.type_for_alias(kind)) for name, kind in request["schema"]])
    connection.autocommit(False)  # one snapshot for the gate, the count and the rows
    try:
        try:
            gate = request.get("gate")
            if gate is not None and connection.rows(*gate).read_all().num_rows == 0:
                _send(answers, b"N")
                return
            rows = -1
            if request.get("expected") is not None:  # the caller's guess: not counted
                rows = int(request["expected"])
            elif request["count"] is not None:
                rows = int(connection.rows(*request["count"]).read_all().column(0)[0].as_py())
        except Exception as error:  # told to the server, which raises it
            _fail(answers, error)
            return
        # The count goes first, so the server makes its columns while the rows are read.
        _send(answers, b"C", _NUMBER.pack(rows))
        try:
            batch_rows = _batch_rows(rows, *(int(number) for number in request["batch_rows"]))
            for batch in _typed(connection, request, schema, batch_rows):
                message = batch.serialize()
                del batch
                _send(answers, b"B", _NUMBER.pack(message.size), message)
                del message
        except BrokenPipeError:
            raise
        except Exception as error:
            _fail(answers, error)
            return
    finally:
        connection.close_statement()
        connection.autocommit(True)
    growth = _status_bytes("VmHWM") - before if measured else 0
    _send(answers, b"K", _NUMBER.pack(growth))


def _send(answers: int, *parts: Any) -> None:
    """Write ``parts`` to the pipe ``answers`` in one system call where it can: the server
    wakes once for a whole batch."""
    views = [memoryview(part).cast("B") for part in parts]
    while views:
        written = os.writev(answers, views)
        while views and written >= len(views[0]):
            written -= len(views.pop(0))
        if views:
            views[0] = views[0][written:]


TAIL_ROWS = 128
"""The most rows of a read's last batch: the server's work after the helper's last read
is that batch and finishing the frame, so a read of several batches ends on a short one."""


def _batch_rows(rows: int, parts: int, low: int, high: int) -> int:
    """The driver's batch size for ``rows`` rows (-1: not counted): about one part in
    ``parts`` of them within ``low`` and ``high``, and, when that makes several batches, a
    little less, so that the last has at most :data:`TAIL_ROWS` rows."""
    if rows < 0:
        return high
    size = min(max(rows // parts, low), high)
    batches = -(-rows // size)
    if batches < 2 or rows <= TAIL_ROWS * batches:
        return size
    return -(-(rows - TAIL_ROWS) // batches)


def _typed(connection: _Connection, request: dict[str, Any], schema: Any, batch_rows: int):
    """The rows as batches of ``schema``, reading the query retyped when its first batch
    shows the driver took a column's type wrong (see the module's text)."""
    sql, parameters = request["query"]
    batches = connection.rows(sql, parameters, batch_rows)
    try:
        first = batches.read_next_batch()
    except StopIteration:
        return
    wrong = [
        name for name in schema.names if first.schema.field(name).type != schema.field(name).type
    ]
    retyped = request.get("retyped")
    if wrong and first.num_rows >= batch_rows and retyped is not None:
        del first, batches
        sql, parameters, names = retyped
        for batch in connection.rows(sql, parameters, batch_rows):
            yield _cast(_nulls_back(batch, names), schema)
        return
    yield _cast(first, schema)
    del first
    for batch in batches:
        yield _cast(batch, schema)


def _cast(batch: Any, schema: Any) -> Any:
    """``batch`` with the types of ``schema`` (a cast of every column costs about 0.15 ms
    a batch even when none changes, so a batch already of those types is kept as it is)."""
    return batch if batch.schema.equals(schema) else batch.cast(schema)


NULLS = "dutch_nulls"
"""The last column of a retyped query: bit ``1 << i`` is set where its ``i``-th retyped
column was NULL."""


def _nulls_back(batch: Any, names: list[str]) -> Any:
    """A batch of the retyped query with the NULLs of ``names`` put back."""
    import pyarrow as pa
    import pyarrow.compute as pc

    nulls = batch.column(NULLS)
    columns = {}
    for name in batch.schema.names:
        if name == NULLS:
            continue
        column = batch.column(name)
        if name in names:
            missing = pc.not_equal(pc.bit_wise_and(nulls, 1 << names.index(name)), 0)
            column = pc.if_else(missing, pa.scalar(None, column.type), column)
        columns[name] = column
    return pa.RecordBatch.from_pydict(columns)


def _fail(answers: int, error: BaseException) -> None:
    message = f"{type(error).__name__}: {error}".encode("utf-8", "replace")
    _send(answers, b"E", _NUMBER.pack(len(message)), message)


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as marks:
        marks.write("5")


def _status_bytes(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field}")


class _WithoutPandas:
    """Refuses to import pandas. Arrow looks for pandas when it makes an array from Python
    values (the parameters bound to a statement) and imports it if it can: about 30 MiB
    a helper never uses. Told it is missing, Arrow does without."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.split(".")[0] == "pandas":
            raise ModuleNotFoundError("The reading helper does without pandas.", name=name)


if __name__ == "__main__":
    sys.meta_path.insert(0, _WithoutPandas())
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(_serve(sys.argv[1]))
