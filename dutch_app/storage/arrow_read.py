"""Reading a SELECT into Arrow record batches.

On PostgreSQL, ``pandas.read_sql`` over a DB-API driver builds a Python object for every
cell and then a frame from them. The reader uses the ADBC driver
(``adbc-driver-postgresql``, from the Apache Arrow project), which hands back columnar
Arrow data with no Python object per cell, in the server's process: each engine gets a
small pool of its connections (:class:`ArrowReader`), in autocommit mode so that no read
holds a snapshot open. The statement is still built with SQLAlchemy and compiled for the
driver: its values travel as bound parameters, never glued into the SQL. A reader keeps
what it compiled for the statements it read last (:data:`_COMPILED_KEPT`), so a statement
built once with named parameters (``bindparam``) and read with new ``values`` is compiled
only once.

On SQLite the rows are read through the engine's own connection (the standard library's
driver), a few at a time, and turned into Arrow arrays typed by the statement's columns
(:func:`_schema`). SQLite's ADBC driver is not used: it carries a second copy of SQLite,
and two copies in one process cannot see each other's locks (its last connection to a
file once deleted the write-ahead log under the app's connections).

:meth:`ArrowReader.read` hands back the whole result at once. A large read is
better taken in record batches (:meth:`ArrowReader.batches`), each turned into
its final form before the next is read, so that the driver's copy of the rows
never has to exist whole. The rows are counted first, in the same snapshot, so
that the reader's caller can make its columns at their final size; a read the caller
names (the history of one group with one set of filters) is counted only the first time,
and later reads expect the rows it gave last. A read can have
a gate, a SELECT run first in that snapshot (the reader's membership of the group):
when it finds no row, nothing is read. On PostgreSQL the batches are about an eighth
of the rows each, and large ones are read ahead: a worker thread reads the next while
the caller works on the last (:data:`_READ_AHEAD_ROWS`).

- PostgreSQL's driver streams a query's rows with ``COPY``, a batch at a time, but
  ``COPY`` cannot take bound parameters: a query with parameters would come back as
  one libpq result of every row (about half a kilobyte a row for the history). So a
  batched read first binds the values to settings of its transaction
  (``set_config(name, $1, true)``: still bound, never glued into the SQL) and then
  streams a form of the query that reads each value back from its setting
  (``current_setting(name)::type``), which PostgreSQL plans like the value itself.
  The rewrite replaces each ``$N`` of the compiled SQL, so a query with text or a
  ``$`` of its own in the SQL (a literal ``'$1'``) is refused rather than changed.
  The count and the rows come from one repeatable-read snapshot, and the query runs
  once. (Reading through a cursor, a ``FETCH`` a batch, was the way before: each
  ``FETCH`` cost about 3 ms, and a 10,000-row load took half as long again as a
  single read.)
"""

from __future__ import annotations

import functools
import queue
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pyarrow as pa
from sqlalchemy import (
    Boolean,
    Engine,
    Float,
    Integer,
    Numeric,
    Select,
    String,
    func,
    select,
)
from sqlalchemy.dialects.postgresql import psycopg
from sqlalchemy.engine import URL

_SQLITE_BATCH_ROWS = (512, 4096)
"""The bounds of the batches of a SQLite read: lower than ``_BATCH_ROWS``'s, since the
rows pass through Python objects and each batch is joined from the takes. (A 10,000-row
load peaked at 5.3 times its frame in batches of 2,048 rows and 2.8 times in batches of
1,250; a 100,000-row load at 2.96 times in batches of 12,500, 2.25 in batches of 4,096
and 1.96 in batches of 2,048.)"""

_SQLITE_FETCH_ROWS = 128
"""How many rows a SQLite read takes from the driver at a time: each is a
Python tuple until it is turned into Arrow arrays. (A 10,000-row load peaked at 2.8 times
its frame with 128, 3.0 with 256 and 5.6 with 512: larger takes leave the C library's heap
larger.)"""

_POOL = pa.system_memory_pool()
"""Where a SQLite read's arrays come from: the C library's allocator, which hands a freed
batch back at once (Arrow's default one keeps freed pages for reuse: a 10,000-row load's
peak grew by about 1.4 MiB more)."""

_IDLE_CONNECTIONS = 4
"""The most idle PostgreSQL driver connections a reader keeps."""

_BATCHES = 8
_BATCH_ROWS = (2048, 2**17)
""":meth:`ArrowReader.batches` reads about an eighth of the rows at a time, within these
bounds on PostgreSQL (SQLite's are above): the driver's memory for a batch
is then a fraction of what the caller keeps, while there are few enough batches that
their fixed cost does not count. (Measured with the former ADBC reader of SQLite, at
10,000 rows: batches of at least 1,024 rows made the load 1.28 times the bare read and
its peak 2.2 times the frame; at least 2,048, 1.18 and 2.45; at least 3,000, 1.27 and
3.3.)"""

_READ_AHEAD_ROWS = 4096
"""PostgreSQL batches of at least this many rows are read ahead: the driver reads the
next (in a worker thread, without the interpreter's lock for most of it) while the caller
turns the last into its columns. A 100,000-row load took about 10 % less so (measured
with the former ADBC reader of SQLite).
The worker hands each batch over under the interpreter's lock, which it can wait
for up to the switch interval (5 ms) while the caller computes, and its driver
memory comes from the worker's own allocator arena: on a smaller read those cost
more than they save (a 10,000-row load's peak memory grew from about 2.4 to 3.2
times its frame)."""

_COMPILED_KEPT = 256
"""The most compiled statements a reader keeps (those read last)."""

_REMEMBERED_KEPT = 4096
"""The most row counts a reader remembers (under the keys of the reads that gave them last;
see :meth:`ArrowReader.batches`)."""

_SETTING = "dutch_read.p{}"
"""The transaction setting a batched PostgreSQL read keeps its ``n``-th value in."""

_COPY_ROW_BYTES = 150
"""Fewer bytes of ``COPY`` data than a row of the history takes (172 measured on the
benchmark's histories, more with longer names), for the size of a PostgreSQL batch: the
driver fills a batch up to a number of bytes, so a batch holds at most the rows asked."""

# Compiles SELECTs with PostgreSQL's own $1, $2 placeholders, as libpq wants them.
_POSTGRES_NUMERIC = psycopg.dialect(paramstyle="numeric_dollar")


def _libpq_uri(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class Refused(LookupError):
    """The read's gate (see :meth:`ArrowReader.batches`) found no row: nothing was read."""


@dataclass(frozen=True)
class _Compiled:
    """A statement compiled for the driver: its SQL, the compiled form (which holds the
    statement's own values) and each positional parameter's name and converter."""

    sql: str
    statement: Any
    converters: tuple[tuple[str, Any], ...]
    streamed: str = ""
    """On PostgreSQL, ``sql`` with each parameter read from its setting (:data:`_SETTING`);
    empty when the SQL could not be rewritten so with certainty (see
    :func:`_only_placeholders_hold_dollars`)."""
    settings: str = ""
    """On PostgreSQL, the SELECT that binds each parameter to its setting."""


@dataclass(frozen=True)
class Batches:
    """A query's row count and its record batches, read as they are asked for."""

    rows: int
    batches: Iterator[pa.RecordBatch]
    exact: bool = True
    """Whether ``rows`` was counted in the read's snapshot; when not, it is the number of
    rows the same read gave last time, and more or fewer can come."""

    def __iter__(self) -> Iterator[pa.RecordBatch]:
        return self.batches


@dataclass(frozen=True)
class _Asked:
    """What :meth:`ArrowReader.batches` was asked for, handed to the way each database reads."""

    query: Select
    count: Select | None
    values: Mapping[str, Any] | None
    gate: Select | None
    expected: int | None
    """The rows expected instead of a count, if any."""

    @property
    def exact(self) -> bool:
        """Whether the rows are counted (not expected)."""
        return self.expected is None

    @property
    def counting(self) -> Select:
        """The SELECT that counts the rows: ``count``, or one derived from the query."""
        return _rows_of(self.query) if self.count is None else self.count


class _Tally:
    """Counts the rows of the batches that pass through it, and whether they ran out."""

    def __init__(self, batches: Iterator[pa.RecordBatch]) -> None:
        self._batches = batches
        self.rows = 0
        self.ended = False

    def __iter__(self) -> Iterator[pa.RecordBatch]:
        for batch in self._batches:
            self.rows += batch.num_rows
            yield batch
        self.ended = True


class ArrowReader:
    """Runs SELECTs of one engine's database and returns Arrow tables."""

    def __init__(self, engine: Engine) -> None:
        # Held weakly: the engine's entry in ``_READERS`` ends with the engine.
        self._engine = weakref.ref(engine)
        self._dialect = engine.dialect
        self._url = engine.url
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._idle_count = 0
        self._lock = threading.Lock()
        # The statements read last, each compiled once (its SQL and its parameters'
        # converters): one built once and run with new ``values`` is not compiled again.
        # Keyed by the statement itself, which hashes by identity.
        self._compiled: OrderedDict[Select, _Compiled] = OrderedDict()
        # How many rows the last whole read under each caller's key gave (see batches).
        self._remembered: OrderedDict[Hashable, int] = OrderedDict()
        weakref.finalize(self, _close_all, self._idle)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._url.get_backend_name()

    def read(self, query: Select, values: Mapping[str, Any] | None = None) -> pa.Table:
        """The rows of ``query`` as an Arrow table, with the driver's column types;
        ``values`` are those of the query's named parameters (``bindparam``)."""
        if self.backend == "sqlite":
            return self._sqlite_read(query, values)
        sql, parameters = self._compile(query, values)
        connection = self._checkout()
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, parameters)
                table = cursor.fetch_arrow_table()
        except BaseException:
            connection.close()
            raise
        self._checkin(connection)
        return table

    @contextmanager
    def batches(
        self,
        query: Select,
        count: Select | None = None,
        values: Mapping[str, Any] | None = None,
        gate: Select | None = None,
        remember: Hashable | None = None,
    ) -> Iterator[Batches]:
        """The rows of ``query``, counted first and then read as record batches as they
        are asked for, with the column types of :meth:`read`.

        ``count`` is a cheaper SELECT of the same number of rows, if there is one (run in
        the read's snapshot; without it the query's own rows are counted); the reader of
        the batches must check that the rows match it. ``values`` are those of
        the named parameters of all three. The count and every batch come from one snapshot
        of the database, held until the ``with`` block ends.

        ``gate``, if given, is a SELECT run first in that snapshot (the reader's membership
        of the group, say): when it finds no row, nothing else is read and
        :class:`Refused` is raised.

        ``remember``, if given, is a key under which the reader remembers how many rows
        the read gave, once all its batches were taken. The next read under the same key
        is not counted: its ``rows`` is that number, no longer ``exact``, and the reader of
        its batches must take as many as come. (Counting took about 4 % of a load; a group's
        history changes by a round or two between loads, so the last count is close.)
        """
        asked = _Asked(query, count, values, gate, self._expected(remember))
        if self.backend == "sqlite":
            read_rows = self._sqlite_batches(asked)
        else:
            read_rows = self._postgres_read(asked)
        with read_rows as read:
            tally = _Tally(read.batches)
            yield Batches(read.rows, iter(tally), read.exact)
        if remember is not None and tally.ended:
            with self._lock:
                _keep(self._remembered, remember, tally.rows, _REMEMBERED_KEPT)

    def _expected(self, remember: Hashable | None) -> int | None:
        """The rows the last whole read under ``remember`` gave, if the reader knows."""
        if remember is None:
            return None
        with self._lock:
            return self._remembered.get(remember)

    @contextmanager
    def _postgres_read(self, asked: _Asked) -> Iterator[Batches]:
        """:meth:`batches` on PostgreSQL: streamed with ``COPY`` in one snapshot."""
        connection = self._checkout()
        try:
            # One transaction for the count and the rows. It is the driver's own: the
            # PostgreSQL driver opens and commits one around a statement with
            # time-zone-aware parameters while autocommit is on, which would end ours.
            connection.adbc_connection.set_autocommit(False)
            with connection.cursor() as cursor:
                if asked.gate is not None:
                    cursor.execute(*self._compile(asked.gate, asked.values))
                    if cursor.fetch_arrow_table().num_rows == 0:
                        raise Refused
                read = self._postgres_batches(cursor, asked)
                if _batch_rows(read.rows) < _READ_AHEAD_ROWS:
                    yield read
                else:
                    ahead = _ReadAhead(read.batches)
                    try:
                        yield Batches(read.rows, ahead, read.exact)
                    finally:
                        ahead.close()  # before the cursor closes under a read
            connection.adbc_connection.set_autocommit(True)  # ends the read (it wrote nothing)
        except Refused:
            connection.adbc_connection.set_autocommit(True)
            self._checkin(connection)
            raise
        except BaseException:
            connection.close()
            raise
        self._checkin(connection)

    def _count(self, cursor: Any, counting: Select, values) -> int:
        cursor.execute(*self._compile(counting, values))
        return int(cursor.fetch_arrow_table().column(0)[0].as_py())

    @contextmanager
    def _sqlite_batches(self, asked: _Asked) -> Iterator[Batches]:
        """:meth:`batches` on SQLite, through the engine's own connection: the gate, the
        count and the rows in one of its transactions."""
        with self._sqlite_cursor() as cursor:
            if asked.gate is not None:
                cursor.execute(*self._compile(asked.gate, asked.values))
                if cursor.fetchone() is None:
                    raise Refused
            count = asked.expected
            if count is None:
                cursor.execute(*self._compile(asked.counting, asked.values))
                count = int(cursor.fetchone()[0])
            cursor.execute(*self._compile(asked.query, asked.values))
            batch_rows = _batch_rows(count, _SQLITE_BATCH_ROWS)
            batches = _fetched(cursor, _schema(asked.query), batch_rows)
            yield Batches(count, batches, exact=asked.exact)

    @contextmanager
    def _sqlite_cursor(self) -> Iterator[Any]:
        """A cursor of the engine's own SQLite driver (no SQLAlchemy row processing), in a
        transaction (``BEGIN``) that ends with the ``with`` block."""
        engine = self._engine()
        if engine is None:
            raise ValueError("The engine of this reader is gone.")
        with engine.connect() as connection, connection.begin():
            cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
            try:
                yield cursor
            finally:
                cursor.close()

    def _postgres_batches(self, cursor: Any, asked: _Asked) -> Batches:
        # One snapshot for the count and the rows (the connection's transactions are
        # repeatable reads); the rows are streamed with COPY, a batch at a time.
        query, values = asked.query, asked.values
        count = asked.expected
        if count is None:
            count = self._count(cursor, asked.counting, values)
        compiled, parameters = self._compiled_with(query, values)
        if not compiled.streamed:
            raise ValueError(
                "A batched PostgreSQL read binds values only: this query has text or a '$' "
                "of its own in its SQL, which reading its values from settings could change."
            )
        if parameters:
            cursor.execute(compiled.settings, [_as_setting(value) for value in parameters])
            cursor.fetch_arrow_table()
        batch_bytes = _batch_rows(count) * _COPY_ROW_BYTES
        cursor.adbc_statement.set_options(
            **{"adbc.postgresql.batch_size_hint_bytes": str(batch_bytes)}
        )
        cursor.execute(compiled.streamed)
        return Batches(count, iter(cursor.fetch_record_batch()), exact=asked.exact)

    def _compile(
        self, query: Select, values: Mapping[str, Any] | None = None
    ) -> tuple[str, list[Any]]:
        """The SQL of ``query`` for the driver and its parameters in order: the query's
        own values, with ``values`` for its named parameters."""
        compiled, parameters = self._compiled_with(query, values)
        return compiled.sql, parameters

    def _compiled_with(
        self, query: Select, values: Mapping[str, Any] | None
    ) -> tuple[_Compiled, list[Any]]:
        with self._lock:
            compiled = self._compiled.get(query)
            if compiled is not None:
                self._compiled.move_to_end(query)
        if compiled is None:
            compiled = self._compile_anew(query)
            with self._lock:
                _keep(self._compiled, query, compiled, _COMPILED_KEPT)
        # Refuses a named parameter left without a value.
        own = compiled.statement.construct_params(dict(values) if values else None)
        parameters = []
        for name, processor in compiled.converters:
            value = own[name]
            parameters.append(processor(value) if processor else value)
        return compiled, parameters

    def _compile_anew(self, query: Select) -> _Compiled:
        postgres = self.backend == "postgresql"
        dialect = _POSTGRES_NUMERIC if postgres else self._dialect
        statement = query.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
        converters, casts = [], []
        for name in statement.positiontup or ():
            # An IN list's values are named after the list's parameter: ids_1 -> ids_1_1, …
            bind = statement.binds[name if name in statement.binds else name.rsplit("_", 1)[0]]
            implementation = bind.type.dialect_impl(dialect)
            converters.append((name, implementation.bind_processor(dialect)))
            # Text of any length (a VARCHAR(n) cast would cut a longer value short).
            stored = getattr(implementation, "impl_instance", implementation)  # TypeDecorator
            text = isinstance(stored, String)
            casts.append("TEXT" if text else implementation.compile(dialect=dialect))
        sql = str(statement)
        if not postgres:
            return _Compiled(sql, statement, tuple(converters))
        streamed = ""
        if not casts:
            streamed = sql
        elif _only_placeholders_hold_dollars(sql):
            streamed = _PLACEHOLDER.sub(
                lambda found: (
                    f"current_setting('{_SETTING.format(found[1])}')::" + casts[int(found[1]) - 1]
                ),
                sql,
            )
        settings = "SELECT " + ", ".join(
            f"set_config('{_SETTING.format(number)}', ${number}, true)"
            for number in range(1, len(casts) + 1)
        )
        return _Compiled(sql, statement, tuple(converters), streamed, settings)

    def _connect(self) -> Any:
        if self.backend == "postgresql":
            import adbc_driver_postgresql.dbapi

            connection = adbc_driver_postgresql.dbapi.connect(
                _libpq_uri(self._url), autocommit=True
            )
            # Only batched reads run more than one statement in a transaction, and those
            # must see one snapshot.
            with connection.cursor() as cursor:
                cursor.execute(
                    "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ"
                )
            return connection
        raise ValueError(f"No Arrow reader for {self.backend!r} databases.")

    def _checkout(self) -> Any:
        with self._lock:
            if self._idle_count:
                self._idle_count -= 1
                return self._idle.get_nowait()
        return self._connect()

    def _checkin(self, connection: Any) -> None:
        with self._lock:
            if self._idle_count < _IDLE_CONNECTIONS:
                self._idle_count += 1
                self._idle.put(connection)
                return
        connection.close()

    def _sqlite_read(self, query: Select, values: Mapping[str, Any] | None) -> pa.Table:
        with self._sqlite_cursor() as cursor:
            cursor.execute(*self._compile(query, values))
            batches = list(_fetched(cursor, _schema(query), _SQLITE_FETCH_ROWS))
        return pa.Table.from_batches(batches, schema=_schema(query))


_READERS_AHEAD = ThreadPoolExecutor(max_workers=8, thread_name_prefix="arrow-read-ahead")


class _ReadAhead:
    """The batches of ``batches``, each read in a worker thread while the caller works
    on the one before (the worker asks the iterator for one batch at a time, so it is
    never used by two threads at once). :meth:`close` waits for a read under way."""

    def __init__(self, batches: Iterator[pa.RecordBatch]) -> None:
        self._batches = batches
        self._pending: Future[pa.RecordBatch | None] | None = _READERS_AHEAD.submit(
            next, batches, None
        )

    def __iter__(self) -> _ReadAhead:
        return self

    def __next__(self) -> pa.RecordBatch:
        if self._pending is None:
            raise StopIteration
        batch = self._pending.result()
        if batch is None:
            self._pending = None
            raise StopIteration
        self._pending = _READERS_AHEAD.submit(next, self._batches, None)
        return batch

    def close(self) -> None:
        """Wait for the batch being read, if any; an error it ends with is dropped, as the
        read is over."""
        if self._pending is not None:
            wait([self._pending])
            self._pending = None


_PLACEHOLDER = re.compile(r"\$(\d+)(?!\d)")
"""A positional parameter in SQL compiled for PostgreSQL (``$1``, ``$2``, …)."""


def _only_placeholders_hold_dollars(sql: str) -> bool:
    """Whether every ``$`` of ``sql`` begins a placeholder and no text is written in it.

    The rewrite for a batched read replaces each ``$N`` of the compiled SQL; inside a
    string literal (``'$1'``) or a dollar-quoted one it would change the query's meaning.
    Every value of the app's queries is a bound parameter, so their SQL has neither
    quotes nor other dollars; a query that has them is refused rather than guessed at.
    """
    return "'" not in sql and "$" not in _PLACEHOLDER.sub("", sql)


def _as_setting(value: Any) -> str:
    """A parameter's value as the text of a setting, which its cast reads back exactly."""
    if value is None:
        raise ValueError("A batched PostgreSQL read cannot bind NULL; use IS NULL in the query.")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (int, str, Decimal)):
        return str(value)
    raise TypeError(f"A batched PostgreSQL read cannot bind {type(value).__name__} values.")


def _keep(kept: OrderedDict, key: Any, value: Any, most: int) -> None:
    """Keep ``value`` under ``key`` as the newest of at most ``most`` entries (the oldest
    go first)."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)


def _batch_rows(rows: int, bounds: tuple[int, int] = _BATCH_ROWS) -> int:
    low, high = bounds
    return min(max(rows // _BATCHES, low), high)


# The statements below are derived from a query and kept with it, as many as the
# compiled ones: the same query read again gets the same statement, compiled once.


@functools.lru_cache(maxsize=_COMPILED_KEPT)
def _rows_of(query: Select) -> Select:
    """The number of rows of ``query``."""
    return select(func.count()).select_from(query.order_by(None).subquery())


@functools.lru_cache(maxsize=_COMPILED_KEPT)
def _schema(query: Select) -> pa.Schema:
    """The Arrow types of ``query``'s columns as SQLite gives them: whole numbers (and
    booleans, kept as 0 and 1) as 64-bit integers, other numbers as doubles, everything
    else (text, and moments, which SQLite keeps as text) as text."""
    fields = []
    for column in query.selected_columns:
        if isinstance(column.type, (Integer, Boolean)):
            kind = pa.int64()
        elif isinstance(column.type, (Float, Numeric)):
            kind = pa.float64()
        else:
            kind = pa.string()
        fields.append(pa.field(column.name, kind))
    return pa.schema(fields)


def _fetched(cursor: Any, schema: pa.Schema, batch_rows: int) -> Iterator[pa.RecordBatch]:
    """The rows left in a SQLite cursor as record batches of ``batch_rows`` rows (the last
    may have fewer), fetched :data:`_SQLITE_FETCH_ROWS` at a time."""
    pieces: list[pa.RecordBatch] = []
    held = 0
    while rows := cursor.fetchmany(_SQLITE_FETCH_ROWS):
        columns = zip(*rows, strict=True)
        arrays = [
            pa.array(cells, kind, memory_pool=_POOL)
            for cells, kind in zip(columns, schema.types, strict=True)
        ]
        pieces.append(pa.RecordBatch.from_arrays(arrays, schema=schema))
        held += len(rows)
        del rows, columns, arrays
        if held >= batch_rows:
            yield _joined(pieces, schema)
            pieces, held = [], 0
    if pieces:
        yield _joined(pieces, schema)


def _joined(pieces: list[pa.RecordBatch], schema: pa.Schema) -> pa.RecordBatch:
    if len(pieces) == 1:
        return pieces[0]
    columns = [
        pa.concat_arrays([piece.column(i) for piece in pieces], _POOL) for i in range(len(schema))
    ]
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def _close_all(idle: queue.SimpleQueue[Any]) -> None:
    while True:
        try:
            idle.get_nowait().close()
        except queue.Empty:
            return


_READERS: weakref.WeakKeyDictionary[Engine, ArrowReader] = weakref.WeakKeyDictionary()
_READERS_LOCK = threading.Lock()


def arrow_reader(engine: Engine) -> ArrowReader:
    """The reader of ``engine`` (one per engine, made on first use, gone with the engine)."""
    with _READERS_LOCK:
        reader = _READERS.get(engine)
        if reader is None:
            reader = _READERS[engine] = ArrowReader(engine)
        return reader
