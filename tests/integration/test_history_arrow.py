"""The Arrow read of the history gives exactly the frame a plain ``pandas.read_sql`` gives.

The reference below reads every cell through the DB-API driver into Python objects and
works out the caller's hand total and the caller-only penalty with pandas. Both read the
same SELECT, on SQLite and PostgreSQL, over random demo histories and over histories
shaped to trip an Arrow reader (text columns that are empty for the first thousand
rows, odd Unicode, date filters, player filters, several batches).
"""

from __future__ import annotations

from datetime import UTC

import numpy as np
import pandas as pd
import pytest
from adbc_driver_manager import dbapi as adbc
from sqlalchemy import bindparam, func, literal_column, select, text
from sqlalchemy.orm import Session

from dutch_app.services import history
from dutch_app.services.demo import generate_history
from dutch_app.services.errors import NotFound
from dutch_app.services.games import start_game
from dutch_app.services.history import history_query, load_history
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_app.storage import arrow_read
from dutch_app.storage.arrow_read import record_batches
from dutch_app.storage.models import Game, GamePlayer
from dutch_core import PRESETS
from dutch_core.stats import HISTORY_COLUMNS, HISTORY_DTYPES
from tests.servers import wait_until


def _utc(column: pd.Series) -> pd.Series:
    moments = pd.to_datetime(column)
    if moments.dt.tz is None:
        moments = moments.dt.tz_localize("UTC")
    return moments.dt.tz_convert("UTC").astype("datetime64[ns, UTC]")


def reference_frame(session, query) -> pd.DataFrame:
    """The history frame as ``pandas.read_sql`` and pandas group-bys make it (the caller's
    hand total and the caller-only penalty worked out again from each hand)."""
    frame = pd.read_sql(query, session.connection())
    session.rollback()
    frame["game_started_at"] = _utc(frame["game_started_at"])
    frame["played_at"] = _utc(frame["played_at"])
    is_caller = frame["is_caller"].astype(bool)
    frame["is_caller"] = is_caller
    caller_total = frame["hand_total"].where(is_caller)
    frame["caller_hand_total"] = caller_total.groupby(frame["round_id"]).transform("max")
    frame["penalty_cards_due"] = np.where(is_caller, frame["penalty_cards_due"], 0)
    frame["penalty"] = frame["penalty"].where(is_caller)
    return frame.loc[:, list(HISTORY_COLUMNS)].astype(HISTORY_DTYPES)


def assert_same_frames(session, owner, group_id, **filters) -> pd.DataFrame:
    frame = perform(session, load_history, owner, group_id, **filters)
    query = history_query(group_id)
    if "date_from" in filters:
        query = query.where(Game.started_at >= filters["date_from"])
    if "player_ids" in filters:
        seated = select(GamePlayer.game_id).where(GamePlayer.player_id.in_(filters["player_ids"]))
        query = query.where(Game.id.in_(seated))
    expected = reference_frame(session, query)
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)
    return frame


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_demo_histories_read_the_same(session, owner, group, seed):
    generate_history(session, group.id, rows=1_500, seed=seed)
    frame = assert_same_frames(session, owner, group.id)
    assert len(frame) >= 1_000
    assert frame["caller"].isna().any() or frame["caller"].notna().all()


def test_filtered_reads_bind_dates_and_id_lists_as_parameters(session, owner, group, seated):
    generate_history(session, group.id, rows=800, seed=4)
    starts = session.scalars(select(Game.started_at).order_by(Game.started_at)).all()
    middle = starts[len(starts) // 2]
    middle = middle if middle.tzinfo else middle.replace(tzinfo=UTC)
    later = assert_same_frames(session, owner, group.id, date_from=middle)
    assert 0 < later["game_id"].nunique() < len(starts)
    player_ids = sorted(set(session.scalars(select(GamePlayer.player_id))))[:2]
    assert_same_frames(session, owner, group.id, player_ids=player_ids)


@pytest.fixture
def small_batches(monkeypatch):
    """SQLite reads in batches of 500 rows (PostgreSQL's driver sizes its own)."""
    monkeypatch.setattr(arrow_read, "BATCH_ROWS", 500)


@pytest.mark.parametrize("rounds", [280, 560], ids=["1,120 rows", "2,240 rows"])
def test_text_columns_empty_for_the_first_thousand_rows_still_read_as_text(
    session, owner, group, seated, rounds, small_batches
):
    """Hands typed as totals have no card text; a reader that guesses a column's type from
    its first rows would take ``cards`` for a number column and fail on the later cards.
    On SQLite the history is read in several batches, most of them without any text."""
    game = perform(
        session, start_game, owner, group.id, [p.id for p in seated], PRESETS["classic_open"]
    )
    for _ in range(rounds):  # 1,120 or 2,240 rows without card text, and no penalty text
        hands = dict(zip([p.id for p in seated], ("3", "10", "12", "20"), strict=True))
        perform(session, add_round, owner, game.id, hands, seated[0].id, "dutch")
    hands = dict(zip([p.id for p in seated], ("5", "2 3", "QS AS", "KH"), strict=True))
    perform(session, add_round, owner, game.id, hands, seated[0].id, "dutch", "4S KD 2C")
    frame = assert_same_frames(session, owner, group.id)
    assert frame["cards"].iloc[: rounds * 4].isna().all()
    assert frame["cards"].iloc[-3:].notna().all()
    assert frame["penalty"].dropna().tolist() == ["4S KD 2C"]


def test_names_in_any_script_come_back_exactly(session, owner, group, small_batches):
    from dutch_app.services.players import add_player

    names = ["Zoë", "李雷", "🃏 Ann", "O'Brien"]
    table = [perform(session, add_player, owner, group.id, name) for name in names]
    game = perform(
        session, start_game, owner, group.id, [p.id for p in table], PRESETS["classic_open"]
    )
    hands = dict(zip([p.id for p in table], ("1", "9", "8", "7"), strict=True))
    perform(session, add_round, owner, game.id, hands, table[0].id, "dutch")
    frame = assert_same_frames(session, owner, group.id)
    assert frame["player"].tolist() == names
    assert list(frame["player"].cat.categories) == sorted(names)  # by code point


def test_a_name_first_met_in_a_later_batch_is_a_category_in_its_order(
    session, owner, group, seated, small_batches
):
    """Categories are sorted over the whole history, not in the order the batches bring
    them: "Aaron" sits in the last game only, after 600 rows without him."""
    from dutch_app.services.players import add_player

    aaron = perform(session, add_player, owner, group.id, "Aaron")
    for table in (seated, [aaron, *seated[1:]]):
        game = perform(
            session, start_game, owner, group.id, [p.id for p in table], PRESETS["classic_open"]
        )
        for _ in range(150):
            hands = dict(zip([p.id for p in table], ("3", "10", "12", "20"), strict=True))
            perform(session, add_round, owner, game.id, hands, table[0].id, "dutch")
    frame = assert_same_frames(session, owner, group.id)
    assert frame["player"].cat.categories[0] == "Aaron"
    assert frame["caller"].cat.categories[0] == "Aaron"


def _read(session, query) -> list[dict]:
    """The rows of ``query``, read as record batches."""
    rows = [row for batch in record_batches(session, query) for row in batch.to_pylist()]
    session.rollback()
    return rows


def test_the_reader_binds_values_and_never_glues_them_into_the_sql(session, engine):
    query = history_query(10**6).where(Game.notes == "'; DROP TABLE games; --")
    dialect = engine.dialect if engine.dialect.name == "sqlite" else arrow_read._POSTGRES_NUMERIC
    sql, parameters = arrow_read._compiled(query, dialect)
    assert "DROP TABLE" not in sql
    assert "'; DROP TABLE games; --" in parameters
    assert _read(session, query) == []


@pytest.mark.parametrize(
    "notes",
    ["'; DROP TABLE games; --", "$1 \\ ' \" ) --", "Zoë 日本語 \U0001f0cf \u202e " + "x" * 5_000],
    ids=["quotes", "placeholders", "long unicode"],
)
def test_a_read_binds_any_text_and_reads_it_back_exactly(session, owner, group, notes):
    """A read's values travel as bound parameters: any text, however odd or long, matches
    itself only."""
    generate_history(session, group.id, rows=300, seed=4)
    game = session.scalars(select(Game).where(Game.group_id == group.id)).first()
    game.notes = notes
    session.commit()
    for given, expected in ((notes, {game.id}), (notes[:-1], set()), (notes + " ", set())):
        query = history_query(group.id).where(Game.notes == given)
        assert {row["game_id"] for row in _read(session, query)} == expected
    assert session.scalar(select(func.count()).select_from(Game)) > 0  # the table is there


def test_text_of_the_sql_s_own_is_read_as_written(session, group):
    """A ``'$1'`` written into the SQL itself is text, not a parameter."""
    generate_history(session, group.id, rows=50, seed=3)
    query = history_query(group.id).add_columns(literal_column("'$1'").label("written"))
    assert {row["written"] for row in _read(session, query)} == {"$1"}


def test_a_long_history_is_read_in_several_batches_into_the_same_frame(
    session, owner, group, engine
):
    generate_history(session, group.id, rows=9_000, seed=5)
    session.commit()
    sizes = [batch.num_rows for batch in record_batches(session, history_query(group.id))]
    session.rollback()
    assert sum(sizes) >= 9_000
    if engine.dialect.name == "sqlite":
        assert len(sizes) == -(-sum(sizes) // arrow_read.BATCH_ROWS) >= 2
    assert_same_frames(session, owner, group.id)


def test_an_empty_group_reads_empty_and_then_its_first_round(session, owner, group, seated):
    assert perform(session, load_history, owner, group.id).empty
    game = start_game(session, owner, group.id, [p.id for p in seated], PRESETS["classic_open"])
    hands = dict(zip([p.id for p in seated], ("3", "10", "12", "20"), strict=True))
    add_round(session, owner, game.id, hands, seated[0].id, "dutch")
    session.commit()
    frame = assert_same_frames(session, owner, group.id)
    assert len(frame) == 4


def test_a_stranger_reads_no_row(session, owner, group, make_user, monkeypatch):
    """The membership is part of the read itself: a stranger's read finds no row, and the
    load says the group is not found, as for a group that does not exist."""
    generate_history(session, group.id, rows=300, seed=2)
    session.commit()
    stranger = make_user("Stranger")
    read: list[int] = []

    def counted(session, query):
        for batch in record_batches(session, query):
            read.append(batch.num_rows)
            yield batch

    monkeypatch.setattr(history, "record_batches", counted)
    with pytest.raises(NotFound, match=f"No group with id {group.id}"):
        perform(session, load_history, stranger, group.id)
    assert sum(read) == 0
    assert len(perform(session, load_history, owner, group.id)) == sum(read) >= 300


@pytest.mark.postgres
@pytest.mark.parametrize("engine", ["postgresql"], indirect=True)
def test_a_failed_read_leaves_the_next_one_whole(session, owner, group):
    """A read that fails on the server gives its error; its driver connection is not
    handed to the next read, which reads the history as ever."""
    generate_history(session, group.id, rows=300, seed=6)
    session.commit()
    failing = history_query(group.id).add_columns((literal_column("1") / 0).label("broken"))
    for _ in range(6):  # more than the pool keeps
        with pytest.raises(adbc.Error, match="division by zero"):
            _read(session, failing)
    assert_same_frames(session, owner, group.id)


@pytest.mark.postgres
def test_disposing_of_the_engine_closes_its_driver_connections(postgres_url):
    """The driver connections a server keeps for reads end with its engine."""
    from dutch_app.storage.db import make_engine

    engine = make_engine(postgres_url)

    def connections() -> int:
        with engine.connect() as connection:
            return connection.scalar(
                text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name = '' "
                    "AND pid <> pg_backend_pid()"
                )
            )

    before = connections()
    with Session(engine) as session:
        for _ in range(3):
            _read(session, select(bindparam("one", 1).label("one")))
    assert connections() == before + 1
    engine.dispose()
    # A server process leaves pg_stat_activity a moment after its client hung up.
    assert wait_until(lambda: connections() == before, timeout=10), connections()
    engine.dispose()
