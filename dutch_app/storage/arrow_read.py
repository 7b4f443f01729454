"""Reading a SELECT straight into an Arrow table through an ADBC driver.

``pandas.read_sql`` over a DB-API driver builds a Python object for every cell
and then a frame from them; an ADBC driver (``adbc-driver-sqlite``,
``adbc-driver-postgresql``, both from the Apache Arrow project) hands back
columnar Arrow data with no Python object per cell. The statement is still
built with SQLAlchemy and compiled for the driver: its values travel as bound
parameters, never glued into the SQL.

Each engine gets a small pool of driver connections (:class:`ArrowReader`), in
autocommit mode so that no read holds a snapshot open. An in-memory SQLite
database (trials and a few unit tests) cannot be opened a second time, so it is
read through the engine's own connection into the same Arrow schema.
"""

from __future__ import annotations

import queue
import threading
import weakref
from typing import Any

import pyarrow as pa
from sqlalchemy import Engine, Select
from sqlalchemy.dialects.postgresql import psycopg
from sqlalchemy.engine import URL

# The SQLite driver works out each column's type from the rows of the first batch,
# and refuses a later batch whose cells disagree (a text column that is NULL in all
# of its first rows would be taken for integers). One batch for the whole result
# lets it look at every row (up to 16 million, far beyond any group).
_SQLITE_BATCH_ROWS = str(2**24)
_IDLE_CONNECTIONS = 4

# Compiles SELECTs with PostgreSQL's own $1, $2 placeholders, as libpq wants them.
_POSTGRES_NUMERIC = psycopg.dialect(paramstyle="numeric_dollar")


def _is_memory_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite" and (url.database or "") in ("", ":memory:")


def _libpq_uri(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class ArrowReader:
    """Runs SELECTs of one engine's database and returns Arrow tables."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._url = engine.url
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._idle_count = 0
        self._lock = threading.Lock()
        weakref.finalize(self, _close_all, self._idle)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._url.get_backend_name()

    def read(self, query: Select) -> pa.Table:
        """The rows of ``query`` as an Arrow table, with the driver's column types."""
        if _is_memory_sqlite(self._url):
            return self._read_through_engine(query)
        sql, parameters = self._compile(query)
        connection = self._checkout()
        try:
            with connection.cursor() as cursor:
                if self.backend == "sqlite":
                    cursor.adbc_statement.set_options(
                        **{"adbc.sqlite.query.batch_rows": _SQLITE_BATCH_ROWS}
                    )
                cursor.execute(sql, parameters)
                table = cursor.fetch_arrow_table()
        except BaseException:
            connection.close()
            raise
        self._checkin(connection)
        return table

    def _compile(self, query: Select) -> tuple[str, list[Any]]:
        dialect = _POSTGRES_NUMERIC if self.backend == "postgresql" else self._engine.dialect
        compiled = query.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
        parameters = []
        for name in compiled.positiontup or ():
            # An IN list's values are named after the list's parameter: ids_1 -> ids_1_1, …
            bind = compiled.binds[name if name in compiled.binds else name.rsplit("_", 1)[0]]
            value = compiled.params[name]
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            parameters.append(processor(value) if processor else value)
        return str(compiled), parameters

    def _connect(self) -> Any:
        if self.backend == "sqlite":
            import adbc_driver_sqlite.dbapi

            return adbc_driver_sqlite.dbapi.connect(self._url.database, autocommit=True)
        if self.backend == "postgresql":
            import adbc_driver_postgresql.dbapi

            return adbc_driver_postgresql.dbapi.connect(_libpq_uri(self._url), autocommit=True)
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

    def _read_through_engine(self, query: Select) -> pa.Table:
        with self._engine.connect() as connection:
            result = connection.execute(query)
            names = list(result.keys())
            rows = result.all()
        columns = {name: [row[index] for row in rows] for index, name in enumerate(names)}
        return pa.table(columns)


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
