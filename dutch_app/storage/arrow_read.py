"""Reading a SELECT as Arrow record batches.

PostgreSQL is read by its ADBC driver (``adbc-driver-postgresql``, from the Apache Arrow
project), in the server's process: it hands back columnar Arrow data, with no Python
object per cell. The statement is built with SQLAlchemy and compiled for the driver, its
values bound as parameters (never glued into the SQL). The rows come through a cursor
of the server's (``DECLARE``, then ``FETCH`` :data:`FETCH_ROWS` at a time): the driver
takes a query's whole result into memory at once, some half a kilobyte a row of the
history. The read's transaction ends with the read, so no snapshot is held after it.
Each engine keeps a few driver connections idle in a SQLAlchemy pool
(:func:`_postgres_pool`): connecting costs more than reading a group's usual history.

SQLite is read through the caller's own connection (the standard library's driver), a
batch of rows at a time, each batch turned into Arrow arrays typed by the statement's
columns. SQLite's ADBC driver is not used: it carries a second copy of SQLite, and two
copies in one process cannot see each other's locks (its last connection to a file once
deleted the write-ahead log under the app's connections).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
from sqlalchemy import Boolean, Connection, Engine, Float, Integer, Numeric, Select, event
from sqlalchemy.dialects.postgresql import psycopg
from sqlalchemy.orm import Session
from sqlalchemy.pool import QueuePool

BATCH_ROWS = 8192
"""The rows of a SQLite batch: each passes through Python objects before it is Arrow."""

FETCH_ROWS = 50_000
"""The rows of a PostgreSQL batch: the whole history of most groups in one."""

# PostgreSQL's own $1, $2 placeholders, as libpq wants them.
_POSTGRES_NUMERIC = psycopg.dialect(paramstyle="numeric_dollar")


def record_batches(session: Session, query: Select) -> Iterator[pa.RecordBatch]:
    """The rows of ``query`` as Arrow record batches, read as they are asked for: on
    SQLite in the session's own transaction, on PostgreSQL by a driver connection."""
    engine = session.get_bind()
    if engine.dialect.name == "sqlite":
        return _sqlite_batches(session.connection(), query)
    return _postgres_batches(engine.engine, query)


def _compiled(query: Select, dialect) -> tuple[str, list]:
    """The SQL of ``query`` for ``dialect`` and its parameters' values, in order."""
    compiled = query.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
    values = []
    for name in compiled.positiontup or ():
        # An IN list's values are named after the list's parameter: ids_1 -> ids_1_1, ...
        bind = compiled.binds[name if name in compiled.binds else name.rsplit("_", 1)[0]]
        processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
        value = compiled.params[name]
        values.append(processor(value) if processor else value)
    return str(compiled), values


def _postgres_batches(engine: Engine, query: Select) -> Iterator[pa.RecordBatch]:
    sql, values = _compiled(query, _POSTGRES_NUMERIC)
    pooled = _postgres_pool(engine).connect()
    try:
        driver: Any = pooled.driver_connection
        with driver.cursor() as cursor:
            cursor.execute(f"DECLARE arrow_read NO SCROLL CURSOR FOR {sql}", values)
            # FETCH cannot be wrapped in COPY, the driver's usual way of reading.
            cursor.adbc_statement.set_options(**{"adbc.postgresql.use_copy": "false"})
            while True:
                cursor.execute(f"FETCH {FETCH_ROWS} FROM arrow_read")
                table = cursor.fetch_arrow_table()
                yield from table.to_batches()
                if table.num_rows < FETCH_ROWS:
                    break
    except BaseException:  # an error, or a read given up half-way
        pooled.invalidate()  # closed, not handed to the next read in the middle of a result
        raise
    finally:
        pooled.close()  # back to the pool, its transaction rolled back (it wrote nothing)


_POOLS: weakref.WeakKeyDictionary[Engine, QueuePool] = weakref.WeakKeyDictionary()
_POOLS_LOCK = threading.Lock()


def _postgres_pool(engine: Engine) -> QueuePool:
    """The pool of ``engine``'s driver connections: made on first use, closed with the
    engine (``engine.dispose()``)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(engine)
        if pool is None:
            import adbc_driver_postgresql.dbapi

            uri = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

            def connect() -> Any:
                driver = adbc_driver_postgresql.dbapi.connect(uri)
                with driver.cursor() as cursor:
                    # Plan a cursor's query for all its rows, as for a plain SELECT (not
                    # for the first tenth, which costs a 10,000-row read a third more).
                    cursor.execute("SET cursor_tuple_fraction = 1")
                driver.commit()
                return driver

            pool = _POOLS[engine] = QueuePool(
                connect,
                pool_size=4,
                max_overflow=-1,  # more reads at once get connections of their own
            )
            event.listen(engine, "engine_disposed", lambda _: pool.dispose())
        return pool


def _sqlite_batches(connection: Connection, query: Select) -> Iterator[pa.RecordBatch]:
    sql, values = _compiled(query, connection.dialect)
    schema = _sqlite_schema(query)
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(sql, values)
        while rows := cursor.fetchmany(BATCH_ROWS):
            columns = zip(*rows, strict=True)
            yield pa.RecordBatch.from_arrays(
                [pa.array(cells, kind) for cells, kind in zip(columns, schema.types, strict=True)],
                schema=schema,
            )
    finally:
        cursor.close()


def _sqlite_schema(query: Select) -> pa.Schema:
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
