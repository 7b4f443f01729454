"""Ratios measured on the services directly: loading, statistics, CSV export, adding a round.

Each function takes a :class:`~benchmarks.databases.BenchDatabase` and returns a
:class:`~benchmarks.timing.Comparison` of the app's way against a bare baseline.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
from sqlalchemy import Engine
from sqlalchemy.dialects.postgresql import psycopg
from sqlalchemy.orm import Session, sessionmaker

from benchmarks.databases import BenchDatabase
from benchmarks.timing import Comparison, compare
from dutch_app import charts
from dutch_app.csv_io.export import export_rounds_csv
from dutch_app.services import csv_export, games, history, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_app.stats_sections import TrendWindows
from dutch_app.stats_view import compute_bundle
from dutch_app.storage.db import make_engine
from dutch_core import PRESETS, stats

HANDS = ("3", "10", "12", "20")
"""The hands of every benchmark round: the first player calls Dutch and is lowest."""


def _sessions(database: BenchDatabase) -> tuple[Engine, sessionmaker[Session]]:
    engine = make_engine(database.url)
    return engine, sessionmaker(engine, expire_on_commit=False)


def load_frame(database: BenchDatabase) -> pd.DataFrame:
    """The group's whole history frame, as the app loads it."""
    engine, sessions = _sessions(database)
    try:
        with sessions() as session:
            return perform(session, history.load_history, database.owner_id, database.group_id)
    finally:
        engine.dispose()


def _load_against(database: BenchDatabase, repeats: int, bare_read) -> Comparison:
    """``load_history`` ÷ ``bare_read(engine, query)()``, a bare read of the same SELECT."""
    engine, sessions = _sessions(database)
    bare = bare_read(engine, history.history_query(database.group_id))

    def app() -> None:
        with sessions() as session:
            perform(session, history.load_history, database.owner_id, database.group_id)

    try:
        return compare(app, bare, repeats)
    finally:
        engine.dispose()


def history_load(database: BenchDatabase, repeats: int) -> Comparison:
    """1. ``load_history`` ÷ the bare Arrow-native read of the same SELECT (ADBC, then
    ``to_pandas``): the floor for turning those rows into a frame. On SQLite the app reads
    through its own connection, so the bare read's driver is the benchmark's alone."""

    return _load_against(database, repeats, _adbc_read)


_ADBC_CONNECTIONS: list[object] = []
"""The benchmark's own ADBC connections, open until the process ends. SQLite's driver
carries a second copy of SQLite, which deletes the write-ahead log when its last connection
to a file closes, under the engine's connections (the reason the app never uses it):
closing none of them keeps the working copy whole for later ratios."""


def _adbc_read(engine: Engine, query):
    """A bare ADBC read of ``query`` on a connection made beforehand: the SQL compiled once,
    the whole result in one table, then ``to_pandas``."""
    options = {}
    if engine.dialect.name == "sqlite":
        import adbc_driver_sqlite.dbapi

        connection = adbc_driver_sqlite.dbapi.connect(engine.url.database, autocommit=True)
        options["adbc.sqlite.query.batch_rows"] = str(2**24)
        dialect = engine.dialect
    else:
        import adbc_driver_postgresql.dbapi

        uri = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        connection = adbc_driver_postgresql.dbapi.connect(uri, autocommit=True)
        dialect = psycopg.dialect(paramstyle="numeric_dollar")
    _ADBC_CONNECTIONS.append(connection)
    compiled = query.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
    sql = str(compiled)
    parameters = [compiled.params[name] for name in compiled.positiontup or ()]

    def read() -> None:
        with connection.cursor() as cursor:
            cursor.adbc_statement.set_options(**options)
            cursor.execute(sql, parameters)
            cursor.fetch_arrow_table().to_pandas()

    return read


def history_load_against_read_sql(database: BenchDatabase, repeats: int) -> Comparison:
    """1b. ``load_history`` ÷ a bare ``pandas.read_sql`` of the same SELECT (the way the
    frame was read before, one Python object per cell)."""

    def read_sql(engine, query):
        def read() -> None:
            with engine.connect() as connection:
                pd.read_sql(query, connection)

        return read

    return _load_against(database, repeats, read_sql)


def every_statistic_and_chart(frame: pd.DataFrame) -> list[dict]:
    """What the Stats page works out for a view: every table, and every chart ready to draw.

    The bundle holds the tables and the charts of the view's sections; the one-game
    chart (of the newest game) is drawn from its own table.
    """
    bundle = compute_bundle(frame, None, TrendWindows())
    specs = bundle.all_specs()
    if not bundle.table("games").empty:
        newest = int(bundle.table("games")["game_id"].iloc[0])
        specs.append(charts.CUMULATIVE_TOTALS.spec(stats.cumulative_totals(frame, newest)))
    return specs


def statistics_and_charts(database: BenchDatabase, repeats: int) -> Comparison:
    """2. Every statistic and chart of the whole history ÷ loading that history."""
    engine, sessions = _sessions(database)
    frame = load_frame(database)

    def load() -> None:
        with sessions() as session:
            perform(session, history.load_history, database.owner_id, database.group_id)

    try:
        return compare(lambda: every_statistic_and_chart(frame), load, repeats)
    finally:
        engine.dispose()


def ratings_and_call_analysis(frame: pd.DataFrame) -> None:
    """The skill ratings and the should-I-call analysis of a view, as the Stats page works
    them out (the reference line is worked out once per process, before the timing)."""
    results = stats.game_results(frame)
    history_ratings = stats.rating_history(frame, results=results)
    stats.player_ratings(frame, results=results, history=history_ratings)
    stats.call_analysis(frame)


def ratings_and_calls(database: BenchDatabase, repeats: int) -> Comparison:
    """8. The skill ratings and the call analysis of the whole history ÷ loading that history."""
    engine, sessions = _sessions(database)
    frame = load_frame(database)
    stats.reference_chances()

    def load() -> None:
        with sessions() as session:
            perform(session, history.load_history, database.owner_id, database.group_id)

    try:
        return compare(lambda: ratings_and_call_analysis(frame), load, repeats)
    finally:
        engine.dispose()


def csv_export_cost(database: BenchDatabase, repeats: int) -> Comparison:
    """5. The rounds file made from the history frame ÷ ``DataFrame.to_csv`` of that frame."""
    engine, sessions = _sessions(database)
    frame = load_frame(database)
    with sessions() as session:
        rules = perform(session, csv_export.game_rules, database.owner_id, database.group_id)
    engine.dispose()
    return compare(
        lambda: export_rounds_csv(frame, rules),
        lambda: frame.to_csv(index=False).encode("utf-8"),
        repeats,
    )


def _round_adder(database: BenchDatabase) -> tuple[Callable[[], None], Engine]:
    """A task adding one round to a new open-ended game of four of the group's players."""
    engine, sessions = _sessions(database)
    owner, group_id = database.owner_id, database.group_id
    with sessions() as session:
        seats = [
            p.id for p in perform(session, players.list_players, owner, group_id)[: len(HANDS)]
        ]
        game = perform(session, games.start_game, owner, group_id, seats, PRESETS["classic_open"])
    hands = dict(zip(seats, HANDS, strict=True))

    def add() -> None:
        with sessions() as session:
            perform(session, rounds.add_round, owner, game.id, hands, seats[0], "dutch")

    return add, engine


def add_round_cost(stored: BenchDatabase, empty: BenchDatabase, repeats: int) -> Comparison:
    """6. Adding a round with the history stored ÷ adding one to an otherwise empty database.

    Both games grow by one round per turn, so they stay the same length.
    """
    with_history, engine_a = _round_adder(stored)
    without, engine_b = _round_adder(empty)
    try:
        return compare(with_history, without, repeats, warmups=3)
    finally:
        engine_a.dispose()
        engine_b.dispose()
