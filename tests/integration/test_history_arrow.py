"""The Arrow-native history reader gives exactly the frame a plain ``pandas.read_sql`` gives.

The reference below is the way the frame was read before: every cell through the
DB-API driver into Python objects, then derived with pandas group-bys. Both read
the same SELECT, on SQLite and PostgreSQL, over random demo histories and over
histories shaped to trip an Arrow reader (text columns that are empty for the
first thousand rows, odd Unicode, date filters, player filters).
"""

from __future__ import annotations

import threading
from datetime import UTC

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from sqlalchemy import Integer, bindparam, func, literal, literal_column, select
from sqlalchemy.exc import InvalidRequestError
from sqlalchemy.orm import Session

from dutch_app.services import history
from dutch_app.services._history_frame import TEXT_PIECES, history_frame
from dutch_app.services.demo import generate_history
from dutch_app.services.games import delete_game, start_game
from dutch_app.services.history import history_count, history_query, load_history
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_app.storage import arrow_read
from dutch_app.storage.arrow_read import arrow_reader
from dutch_app.storage.models import Game, GamePlayer
from dutch_core import PRESETS
from dutch_core.stats import HISTORY_COLUMNS, HISTORY_DTYPES


def _utc(column: pd.Series) -> pd.Series:
    moments = pd.to_datetime(column)
    if moments.dt.tz is None:
        moments = moments.dt.tz_localize("UTC")
    return moments.dt.tz_convert("UTC").astype("datetime64[ns, UTC]")


def reference_frame(session, query) -> pd.DataFrame:
    """The history frame as ``pandas.read_sql`` and pandas group-bys make it."""
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


@pytest.mark.parametrize("rounds", [280, 560], ids=["1,120 rows", "2,240 rows"])
def test_text_columns_empty_for_the_first_thousand_rows_still_read_as_text(
    session, owner, group, seated, rounds
):
    """Hands typed as totals have no card text; a reader that guesses a column's type from
    its first rows would take ``cards`` for a number column and fail on the later cards.
    The longer history is read in several batches."""
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


def test_names_in_any_script_come_back_exactly(session, owner, group):
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


def test_the_reader_binds_values_and_never_glues_them_into_the_sql(engine):
    query = history_query(10**6).where(Game.notes == "'; DROP TABLE games; --")
    sql, parameters = arrow_reader(engine)._compile(query)
    assert "DROP TABLE" not in sql
    assert "'; DROP TABLE games; --" in parameters
    assert arrow_reader(engine).read(query).num_rows == 0


@pytest.mark.parametrize(
    "notes",
    ["'; DROP TABLE games; --", "$1 \\ ' \" ) --", "Zoë 日本語 \U0001f0cf \u202e " + "x" * 5_000],
    ids=["quotes", "placeholders", "long unicode"],
)
def test_a_batched_read_binds_any_text_and_reads_it_back_exactly(session, owner, group, notes):
    """A batched read's values travel as bound parameters (on PostgreSQL, through the
    settings of its transaction): any text, however odd or long, matches itself only."""
    generate_history(session, group.id, rows=300, seed=4)
    game = session.scalars(select(Game).where(Game.group_id == group.id)).first()
    game.notes = notes
    session.commit()
    reader = arrow_reader(session.get_bind())
    query = history_query(group.id).where(Game.notes == bindparam("notes", type_=Game.notes.type))
    for given, expected in ((notes, {game.id}), (notes[:-1], set()), (notes + " ", set())):
        with reader.batches(query, values={"notes": given}) as read:
            games = {g for batch in read for g in batch.column("game_id").to_pylist()}
        assert games == expected
    assert session.scalar(select(func.count()).select_from(Game)) > 0  # the table is there


def test_a_batched_read_refuses_sql_whose_own_text_holds_a_placeholder(session, group):
    """On PostgreSQL a batched read rewrites each ``$N`` of the compiled SQL to read its
    value from a setting; a ``'$1'`` written into the SQL itself would be rewritten too,
    so such a query is refused with a message, before anything is read. SQLite reads it
    as it is."""
    generate_history(session, group.id, rows=50, seed=3)
    reader = arrow_reader(session.get_bind())
    query = history_query(group.id).add_columns(literal_column("'$1'").label("written"))
    if reader.backend == "postgresql":
        with pytest.raises(ValueError, match="text or a '\\$' of its own"), reader.batches(query):
            pass
    else:
        with reader.batches(query) as read:
            written = {text for batch in read for text in batch.column("written").to_pylist()}
        assert written == {"$1"}


def test_a_long_history_is_read_in_several_batches_into_the_same_frame(session, owner, group):
    generate_history(session, group.id, rows=9_000, seed=5)
    with arrow_reader(session.get_bind()).batches(history_query(group.id)) as read:
        sizes = [batch.num_rows for batch in read]
    assert len(sizes) >= 4  # batches of about an eighth of the rows, 2,048 at the least
    assert sum(sizes) == read.rows >= 9_000
    frame = assert_same_frames(session, owner, group.id)
    # The free text is joined sixteen batches at a time, not kept a chunk a batch.
    for column in ("cards", "penalty"):
        chunks = frame[column].array._pa_array.num_chunks
        assert chunks <= len(sizes) // TEXT_PIECES + TEXT_PIECES - 1


@pytest.mark.parametrize("light_count", [False, True], ids=["own count", "light count"])
@pytest.mark.parametrize("saved", ["after the count", "during the read"])
def test_the_count_and_the_rows_come_from_one_snapshot(
    engine, session, owner, group, seated, monkeypatch, light_count, saved
):
    """A round saved while a history is being read (right after it was counted, or while
    its batches are read) is in neither its count nor its rows."""
    generate_history(session, group.id, rows=3_000, seed=6)
    game = start_game(session, owner, group.id, [p.id for p in seated], PRESETS["classic_open"])
    session.commit()
    hands = dict(zip([p.id for p in seated], ("3", "10", "12", "20"), strict=True))

    done: list[bool] = []

    def save_a_round() -> None:
        with Session(engine, expire_on_commit=False) as other:
            add_round(other, owner, game.id, hands, seated[0].id, "dutch")
            other.commit()
        done.append(True)

    reader = arrow_reader(engine)
    if saved == "after the count":
        count = reader._count

        def counted_then_saved(*args):
            rows = count(*args)
            save_a_round()
            return rows

        monkeypatch.setattr(reader, "_count", counted_then_saved)
    counting = history_count(group.id) if light_count else None
    with reader.batches(history_query(group.id), counting) as read:
        if not done:
            save_a_round()
        frame = history_frame(read)
    assert done == [True]
    assert len(frame) == read.rows
    assert game.id not in set(frame["game_id"])
    later = load_history(session, owner, group.id)
    assert len(later) == read.rows + 4
    assert later["game_id"].iloc[-4:].tolist() == [game.id] * 4


@pytest.mark.parametrize("counted", [1, 10**6])
def test_a_count_that_disagrees_with_the_rows_is_an_error_not_a_cut_frame(
    engine, session, group, counted
):
    """The reader is given a light count (no name lookups); were it ever wrong, the frame
    would be refused, never cut short or padded."""
    generate_history(session, group.id, rows=2_000, seed=7)
    reader = arrow_reader(engine)
    wrong = select(literal(counted))
    with reader.batches(history_query(group.id), wrong) as read, pytest.raises(RuntimeError):
        history_frame(read)


@pytest.fixture
def loads(monkeypatch) -> list[tuple[int, bool]]:
    """The row count (or the rows expected) and whether it was counted, of every load."""
    noted: list[tuple[int, bool]] = []

    def noting(read):
        noted.append((read.rows, read.exact))
        return history_frame(read)

    monkeypatch.setattr(history, "history_frame", noting)
    return noted


def test_a_load_after_the_first_is_not_counted_and_gives_the_same_frame(
    session, owner, group, loads
):
    """The reader remembers how many rows a group's load gave; the next load expects as
    many instead of counting them first, and its frame is the one a counted load gives."""
    generate_history(session, group.id, rows=2_000, seed=10)
    first = assert_same_frames(session, owner, group.id)
    again = assert_same_frames(session, owner, group.id)
    pd.testing.assert_frame_equal(again, first, check_exact=True)
    assert loads == [(len(first), True), (len(first), False)]
    # A filtered load is remembered apart: its first load is counted.
    assert_same_frames(session, owner, group.id, player_ids=[int(first["player_id"].iloc[0])])
    assert loads[2][1] is True


@pytest.mark.parametrize("off_by", [-1.0, -0.5, -1, 1, 63, 2_000, 5.0])
def test_however_wrong_the_rows_expected_the_frame_is_exact(
    engine, session, owner, group, loads, off_by
):
    """A load expects the rows the last one gave; rounds saved or games deleted since make
    it wrong. Fewer rows than expected are cut off, more make the columns larger on the
    way, and no expectation (nothing, one row, ten times too many) changes the frame.
    (Factors: -1.0 is no rows at all, -0.5 half of them, 5.0 six times as many.)"""
    generate_history(session, group.id, rows=2_000, seed=11)
    counted = assert_same_frames(session, owner, group.id)
    rows = len(counted)
    reader = arrow_reader(engine)
    key = next(reversed(reader._remembered))
    assert reader._remembered[key] == rows
    wrong = rows + (int(off_by * rows) if isinstance(off_by, float) else off_by)
    reader._remembered[key] = wrong
    frame = assert_same_frames(session, owner, group.id)
    pd.testing.assert_frame_equal(frame, counted, check_exact=True)
    assert loads[-1] == (wrong, False)
    assert reader._remembered[key] == rows


def test_rounds_saved_and_games_deleted_between_loads(session, owner, group, seated, loads):
    """Between two loads of a group, a game with more rounds than the spare room appears,
    then most games go: each load expects the last one's rows and gets the exact frame."""
    generate_history(session, group.id, rows=1_500, seed=12)
    before = assert_same_frames(session, owner, group.id)
    game = start_game(session, owner, group.id, [p.id for p in seated], PRESETS["classic_open"])
    hands = dict(zip([p.id for p in seated], ("3", "10", "12", "20"), strict=True))
    for _ in range(40):  # 160 rows, more than the 64 spare
        add_round(session, owner, game.id, hands, seated[0].id, "dutch")
    session.commit()
    grown = assert_same_frames(session, owner, group.id)
    assert len(grown) == len(before) + 160
    for game_id in sorted(set(before["game_id"]))[1:]:
        delete_game(session, owner, game_id)
    session.commit()
    shrunk = assert_same_frames(session, owner, group.id)
    assert len(shrunk) < len(before) // 2
    assert loads == [(len(before), True), (len(before), False), (len(grown), False)]


def test_an_empty_group_expected_empty_and_one_expected_empty_that_is_not(
    session, owner, group, seated, loads
):
    assert perform(session, load_history, owner, group.id).empty
    assert perform(session, load_history, owner, group.id).empty
    game = start_game(session, owner, group.id, [p.id for p in seated], PRESETS["classic_open"])
    hands = dict(zip([p.id for p in seated], ("3", "10", "12", "20"), strict=True))
    add_round(session, owner, game.id, hands, seated[0].id, "dutch")
    session.commit()
    frame = assert_same_frames(session, owner, group.id)
    assert len(frame) == 4
    assert loads == [(0, True), (0, False), (0, False)]


def test_a_read_stopped_before_its_end_is_not_remembered(engine, session, group):
    generate_history(session, group.id, rows=2_000, seed=13)
    session.commit()
    reader = arrow_reader(engine)
    key = ("a test", group.id)
    with reader.batches(history_query(group.id), remember=key) as read:
        next(iter(read))
    assert reader._expected(key) is None
    with reader.batches(history_query(group.id), remember=key) as read:
        rows = sum(batch.num_rows for batch in read)
    assert reader._expected(key) == rows == read.rows


def test_a_statement_built_once_is_compiled_once_and_run_with_any_values(
    engine, session, owner, group, monkeypatch
):
    """The reader keeps each statement's compiled SQL: a statement with named parameters
    is compiled on its first read only, and each read binds its own values."""
    generate_history(session, group.id, rows=300, seed=8)
    session.commit()
    reader = arrow_reader(engine)
    compiled = []
    compile_anew = reader._compile_anew
    monkeypatch.setattr(reader, "_compile_anew", lambda q: compiled.append(q) or compile_anew(q))
    query = history_query(bindparam("group_id", type_=Integer))
    mine = reader.read(query, {"group_id": group.id})
    nobody = reader.read(query, {"group_id": group.id + 10_000})
    again = reader.read(query, {"group_id": group.id})
    assert compiled == [query]
    assert mine.num_rows == again.num_rows >= 300
    assert nobody.num_rows == 0
    with pytest.raises(InvalidRequestError, match="group_id"):
        reader.read(query)  # a named parameter without a value is refused


def test_a_batched_read_without_a_count_compiles_its_own_count_once(
    engine, session, group, monkeypatch
):
    """The count the reader derives from a query is the same statement on every read of
    that query, so it is compiled once too (and does not crowd the compiled ones out)."""
    generate_history(session, group.id, rows=300, seed=9)
    reader = arrow_reader(engine)
    compiled = []
    compile_anew = reader._compile_anew
    monkeypatch.setattr(reader, "_compile_anew", lambda q: compiled.append(q) or compile_anew(q))
    query = history_query(bindparam("group_id", type_=Integer))
    for _ in range(3):
        with reader.batches(query, values={"group_id": group.id}) as read:
            assert sum(batch.num_rows for batch in read) == read.rows >= 300
    # The count and the query, each compiled once over the three reads.
    assert len(compiled) == len(set(map(id, compiled))) == 2


def test_a_read_ahead_gives_the_same_frame(engine, session, owner, group, monkeypatch):
    """On PostgreSQL, batches long enough are read in a worker thread while the last is
    turned into columns; the frame is the one read batch after batch in one thread. SQLite
    is read through the engine's own connection in the caller's thread, never ahead."""
    generate_history(session, group.id, rows=9_000, seed=5)
    plain = assert_same_frames(session, owner, group.id)
    readers: list[int] = []

    class Noted(arrow_read._ReadAhead):
        def __next__(self):
            batch = super().__next__()
            readers.append(batch.num_rows)
            return batch

    monkeypatch.setattr(arrow_read, "_ReadAhead", Noted)
    monkeypatch.setattr(arrow_read, "_READ_AHEAD_ROWS", 1_000)
    ahead = assert_same_frames(session, owner, group.id)
    pd.testing.assert_frame_equal(ahead, plain, check_exact=True)
    if engine.dialect.name == "sqlite":
        assert readers == []
        return
    assert len(readers) >= 4 and sum(readers) == len(plain)  # every batch came through it
    readers.clear()
    monkeypatch.setattr(arrow_read, "_READ_AHEAD_ROWS", 10**9)
    pd.testing.assert_frame_equal(assert_same_frames(session, owner, group.id), plain)
    assert readers == []


def test_a_read_stopped_early_waits_for_the_batch_being_read_ahead():
    """The cursor closes after the read; a batch still being read then would be read from
    a closed cursor. Closing the read-ahead waits for it."""
    started, release = threading.Event(), threading.Event()
    finished: list[int] = []

    def slow_batches():
        for number in range(3):
            if number == 1:
                started.set()
                release.wait(5)
            finished.append(number)
            yield pa.record_batch({"n": [number]})

    ahead = arrow_read._ReadAhead(slow_batches())
    assert next(ahead).column("n").to_pylist() == [0]
    assert started.wait(5)
    closing = threading.Thread(target=ahead.close)
    closing.start()
    closing.join(0.2)
    assert closing.is_alive() and finished == [0]
    release.set()
    closing.join(5)
    assert not closing.is_alive() and finished == [0, 1]
