"""Writing a large import in short transactions, hidden until the last one shows it all.

A file of thousands of games would hold SQLite's one write lock for as long as its rows
take to insert, and every other group's round would wait that long. So the rows go in a
few dozen games at a time, each batch in a transaction of its own, and the writer rests
between batches, letting waiting writers take the lock. The games are stored in their
group from the first batch on, but marked with the import's *holding group*
(``games.held_by_id``): a group nobody is a member of, whose ``import_into_id`` names
the group the games are for, and which holds the import's new players. Every reader
leaves out games whose holding group exists (:func:`game_is_shown`). The last short
transaction moves the new players into the group and deletes the holding group, which
shows every game of the file at once and counts one change to the group: a reader sees
the whole file or nothing of it.

When anything fails on the way, the import's games, its new players and its holding
group are deleted (again in short transactions, the holding group last, so nothing is
ever shown). An import holds its group's import lock all the while
(:mod:`~dutch_app.services._import_lock`), which dies with its process: a holding group
whose lock is free was left by a process that died half-way, and is cleaned up the same
way by the next import (before it looks for the games the group has), or when the app
starts; the person who started it is then told at their next page view
(:class:`~dutch_app.storage.models.StoppedImport`). A file's game is skipped only when the
group shows it already, never for a game another import holds: that one may yet be deleted.
An import told to stop (:data:`STOP`: its server is gone) stops before its next batch and
is discarded the same way.

These transactions are the import's own: each step runs in a write unit of work
(:func:`~dutch_app.services.unit_of_work.write`: committed, rolled back, or run again
after a clash with a concurrent write) on a session of its own, on the caller's engine,
and never commits or rolls back the caller's session.
"""

from __future__ import annotations

import contextlib
import gc
import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import NamedTuple

from sqlalchemy import Connection, Engine, delete, select, text, update
from sqlalchemy.orm import Session

from dutch_app.services._access import bump_group, membership
from dutch_app.services._bulk import PreparedGames, insert_games, insert_with_ids
from dutch_app.services._caps import check_room_for_players
from dutch_app.services._import_lock import import_lock
from dutch_app.services._in_lists import in_lists
from dutch_app.services.unit_of_work import read, write, writes
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Group,
    Player,
    Round,
    RoundHand,
    StoppedImport,
    game_is_shown,
)

BATCH_HANDS = {"sqlite": 30, "postgresql": 60}
"""Player-round rows per short transaction (whole games). On SQLite every other group's
round waits for the one write lock a batch holds: 30 rows hold it 2-4 ms. PostgreSQL
locks rows, so its batches are larger (fewer transactions)."""


def batch_hands(dialect: str) -> int:
    """The player-round rows per short transaction on a database of this kind."""
    return BATCH_HANDS.get(dialect, min(BATCH_HANDS.values()))


PAUSE_SHARE = 1.0
"""Between batches the writer rests this share of the time the batch took (at least
:data:`LEAST_PAUSE_S`): room for other writers, and for other work on the processors."""

LEAST_PAUSE_S = 0.002

DELETE_BATCH = 50
"""Games deleted per short transaction when an import is undone."""

STOP = threading.Event()
"""Set in an import process whose server is gone: the import at work stops before its
next batch (:class:`ImportStopped`) and is discarded."""


class ImportStopped(Exception):
    """The import was told to stop (:data:`STOP`); what it wrote was discarded."""


def _go_on() -> None:
    if STOP.is_set():
        raise ImportStopped


@writes
def note_stopped(session: Session, user_id: int, group_id: int) -> None:
    """Note for the person that their import into the group stopped before it ended,
    to be told at their next page view."""
    session.add(StoppedImport(user_id=user_id, group_id=group_id))


class Stored(NamedTuple):
    """What the import stored: the new games' ids (in the file's order), the index in the
    file's games of each, and the names of the players it created."""

    game_ids: list[int]
    kept: list[int]
    created: list[str]


class _CollectorHold:
    """Python's cycle collector held off by the process's open import transactions."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = 0  # short transactions open now
        self._was_on = False  # whether the collector was on before the first of them

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._lock:
            if self._open == 0:
                self._was_on = gc.isenabled()
                gc.disable()
            self._open += 1
        try:
            yield
        finally:
            with self._lock:
                self._open -= 1
                if self._open == 0 and self._was_on:
                    gc.enable()


_COLLECTOR = _CollectorHold()


def _no_collection() -> contextlib.AbstractContextManager[None]:
    """Python's cycle collector stays off while a short transaction holds the lock.

    With a large file's rows in memory, a full collection takes tens of milliseconds, and
    one that fell inside a batch held SQLite's one write lock that long (measured: 57-68 ms
    once an import, against 3-8 ms for a batch): another group's round waited for it. Off
    for the transaction only, so the collection comes in the rest between batches; the
    rows freed as usual, by their reference counts. The collector is shared by the whole
    process, so it comes back on only when the last such transaction ends, and only if it
    was on before the first.
    """
    return _COLLECTOR.held()


def _pause(seconds: float) -> None:
    """Rest between two short transactions (a test watches the database here)."""
    time.sleep(seconds)


_SYNCHRONOUS = "dutch_import_synchronous"  # the connection's own setting, restored after

CHECKPOINT_EVERY = 8
"""Batches between two checkpoints on SQLite (see :func:`_own_connection`)."""


@contextmanager
def _own_connection(engine: Engine) -> Iterator[Connection]:
    """The import's one connection. On SQLite its batches commit without waiting for the
    disk, and it copies the write-ahead log into the database file itself
    (:func:`_checkpoint`); the last transaction, which shows the import, waits for the
    disk as every other commit does, and so makes the batches before it durable too (they
    precede it in the log). A batch lost to a power cut leaves a holding group, which
    is cleaned up like that of any stopped import.
    """
    connection = engine.connect()
    driver = connection.connection.driver_connection if engine.dialect.name == "sqlite" else None
    try:
        if driver is not None:
            connection.info[_SYNCHRONOUS] = driver.execute("PRAGMA synchronous").fetchone()[0]
            driver.execute("PRAGMA synchronous=NORMAL")
        yield connection
    finally:
        if driver is not None:
            connection.rollback()
            _durable(connection)
            connection.info.pop(_SYNCHRONOUS, None)
        connection.close()


def _commit_without_waiting_for_the_disk(session: Session) -> None:
    """On PostgreSQL, the transaction's commit does not wait for its log to reach the disk
    (``SET LOCAL synchronous_commit``, this transaction only), as the import's batches on
    SQLite do not (:func:`_own_connection`). The last transaction, which shows the import,
    waits as every other commit does, and the log keeps the batches before it, so they are
    durable once it is. Another group's round no longer queues for the disk behind a
    hundred of the import's commits. A batch lost to a crash leaves a holding group,
    cleaned up as any stopped import's."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL synchronous_commit TO off"))


def _durable(connection: Connection) -> None:
    """From now on the import's commits wait for the disk, as the app's other commits do."""
    driver = connection.connection.driver_connection
    before = connection.info.get(_SYNCHRONOUS)
    if driver is not None and before is not None:
        driver.execute(f"PRAGMA synchronous={int(before)}")


def _checkpoint(connection: Connection) -> None:
    """On SQLite, copy what the import wrote from the write-ahead log into the database
    file now, outside any transaction and without taking the write lock.

    Otherwise the log grows past SQLite's automatic checkpoint size, and the commit that
    crosses it (often another group's round save) copies the import's pages: measured,
    that commit took 80-320 ms instead of under one.
    """
    if connection.dialect.name != "sqlite":
        return
    driver = connection.connection.driver_connection
    if driver is not None and not driver.in_transaction:
        driver.execute("PRAGMA wal_checkpoint(PASSIVE)")


class _Rows:
    """The prepared rows of each game, to cut into batches."""

    def __init__(self, prepared: PreparedGames) -> None:
        self.games = prepared.games
        self.seats: dict[int, list[dict]] = defaultdict(list)
        for row in prepared.seats:
            self.seats[row["game_id"]].append(row)
        self.rounds: dict[int, list[dict]] = defaultdict(list)
        hands: dict[int, list[dict]] = defaultdict(list)
        for row in prepared.hands:
            hands[row["round_id"]].append(row)
        self.hands: dict[int, list[list[dict]]] = defaultdict(list)
        for index, row in enumerate(prepared.rounds):
            self.rounds[row["game_id"]].append(row)
            self.hands[row["game_id"]].append(hands[index])

    def batches(self, size: int) -> Iterator[list[int]]:
        """The games' indexes, cut into batches of about ``size`` hands (whole games)."""
        batch: list[int] = []
        hands = 0
        for index in range(len(self.games)):
            batch.append(index)
            hands += sum(len(round_hands) for round_hands in self.hands[index])
            if hands >= size:
                yield batch
                batch, hands = [], 0
        if batch:
            yield batch

    def of(self, indexes: list[int], holding: int) -> PreparedGames:
        """The rows of the games at ``indexes``, renumbered from 0, held by ``holding``."""
        batch = PreparedGames([], [], [], [])
        for local, index in enumerate(indexes):
            batch.games.append({**self.games[index], "held_by_id": holding})
            batch.seats.extend({**row, "game_id": local} for row in self.seats[index])
            for row, round_hands in zip(self.rounds[index], self.hands[index], strict=True):
                number = len(batch.rounds)
                batch.rounds.append({**row, "game_id": local})
                batch.hands.extend({**hand, "round_id": number} for hand in round_hands)
        return batch


def _open(session: Session, user_id: int, group_id: int) -> int:
    """A new holding group for an import into ``group_id``; its id."""
    membership(session, user_id, group_id)
    # Lower case and a dash: no typed invite code (upper case letters and digits once
    # normalised) can ever find a holding group.
    code = f"import-{secrets.token_hex(12)}"
    holding = Group(name="import", invite_code=code, created_by=user_id, import_into_id=group_id)
    session.add(holding)
    session.flush()
    return holding.id


def _players(
    session: Session, group_id: int, holding: int, names: Mapping[str, str]
) -> tuple[dict[object, int], list[str]]:
    """The stored player id for each name key of ``names``: the group's player of that
    name, or a new one made in the holding group; and the names of the new ones."""
    ids: dict[object, int] = {
        key: player_id
        for keys in in_lists(list(names))
        for key, player_id in session.execute(
            select(Player.name_key, Player.id).where(
                Player.group_id == group_id, Player.name_key.in_(keys)
            )
        )
        if key is not None
    }
    created = [name for key, name in names.items() if key not in ids]
    check_room_for_players(session, group_id, len(created))
    rows = [
        {"group_id": holding, "name": name, "name_key": key}
        for key, name in names.items()
        if key not in ids
    ]
    new_ids = insert_with_ids(session, Player.__table__, rows)
    for row, player_id in zip(rows, new_ids, strict=True):
        ids[row["name_key"]] = player_id
    return ids, created


def _write_batch(
    session: Session,
    group_id: int,
    holding: int,
    rows: _Rows,
    indexes: list[int],
    player_ids: Mapping[object, int],
) -> list[tuple[int, int]]:
    """Insert one batch (a short transaction of its own), leaving out the games the group got from
    another import meanwhile (by their import key, shown); (index, new id) of each game stored."""
    _commit_without_waiting_for_the_disk(session)
    keys = [rows.games[index]["import_key"] for index in indexes]
    taken = set(
        session.scalars(
            select(Game.import_key).where(
                Game.group_id == group_id,
                Game.import_key.in_([key for key in keys if key is not None]),
                game_is_shown(),
            )
        )
    )
    kept = [index for index in indexes if rows.games[index]["import_key"] not in taken]
    if not kept:
        return []
    ids = insert_games(session, rows.of(kept, holding), player_ids)
    return list(zip(kept, ids, strict=True))


def _reveal(session: Session, user_id: int, group_id: int, holding: int) -> None:
    """Show the import: move its new players into the group and delete the holding group,
    in one short transaction."""
    membership(session, user_id, group_id)
    staged = list(
        session.execute(select(Player.id, Player.name_key).where(Player.group_id == holding))
    )
    # Locks the group's row too, so two imports into one group show one at a time.
    check_room_for_players(session, group_id, len(staged))
    for player_id, key in staged:
        # Someone added a player of this name while the file was written: it is them.
        same = session.scalar(
            select(Player.id).where(Player.group_id == group_id, Player.name_key == key)
        )
        if same is None:
            continue
        for column in (GamePlayer.player_id, RoundHand.player_id, Round.caller_player_id):
            session.execute(
                update(column.class_)
                .where(column == player_id)
                .values({column.key: same})
                .execution_options(synchronize_session=False)
            )
        session.execute(delete(Player).where(Player.id == player_id))
    session.execute(
        update(Player)
        .where(Player.group_id == holding)
        .values(group_id=group_id)
        .execution_options(synchronize_session=False)
    )
    session.execute(delete(Group).where(Group.id == holding))
    bump_group(session, group_id)


def discard(session: Session, holding: int, group_id: int, tell: int | None = None) -> None:
    """Undo an import: delete its games a batch per transaction, then its new players and
    its holding group (last, so that none of its games is ever shown). ``tell``: the person
    to tell at their next page view, in the same transaction as the last."""
    session.rollback()
    while write(session, _discard_some, holding, group_id, tell):
        _pause(LEAST_PAUSE_S)


def _discard_some(session: Session, holding: int, group_id: int, tell: int | None) -> bool:
    """Delete a batch of the import's games; when none is left, its new players and its
    holding group (and note for ``tell`` that it stopped). Whether there may be more."""
    ids = list(
        session.scalars(
            select(Game.id)
            .where(Game.group_id == group_id, Game.held_by_id == holding)
            .limit(DELETE_BATCH)
        )
    )
    if not ids:
        session.execute(delete(Player).where(Player.group_id == holding))
        session.execute(delete(Group).where(Group.id == holding))
        if tell is not None:
            session.add(StoppedImport(user_id=tell, group_id=group_id))
        return False
    session.execute(delete(Game).where(Game.id.in_(ids)))
    return True


class _Holding(NamedTuple):
    id: int
    into: int
    by: int | None  # the person who started the import


def _holding_groups(session: Session, group_id: int | None = None) -> list[_Holding]:
    """The holding groups (of ``group_id``, or of every group)."""
    query = select(Group.id, Group.import_into_id, Group.created_by).where(
        Group.import_into_id.is_not(None)
    )
    if group_id is not None:
        query = query.where(Group.import_into_id == group_id)
    return [_Holding(holding, into, by) for holding, into, by in session.execute(query) if into]


def _discard_dead(session: Session, group_id: int, tell: bool = True) -> int:
    """Undo the imports into the group that died half-way, and (with ``tell``) note it for
    the people who started them; how many. Only with the group's import lock held: then no
    import into it is at work."""
    dead = read(session, _holding_groups, group_id)
    for holding in dead:
        discard(session, holding.id, group_id, holding.by if tell else None)
    return len(dead)


def discard_abandoned(
    engine: Engine, group_id: int | None = None, *, tell: bool = True, patience: float = 0.0
) -> int:
    """Undo the imports (into ``group_id``, or any group) that died half-way (their groups'
    import locks are free); how many. ``tell``: note it for the people who started them.
    ``patience``: how long to wait for a lock that a process which just died still holds."""
    with engine.connect() as connection, Session(connection, expire_on_commit=False) as own:
        count = 0
        groups = sorted({holding.into for holding in read(own, _holding_groups, group_id)})
        for into in groups:
            deadline = time.monotonic() + patience
            while True:
                with import_lock(own, into, wait=False) as taken:
                    if taken:
                        count += _discard_dead(own, into, tell)
                if taken or time.monotonic() >= deadline:
                    break
                time.sleep(0.05)
        return count


def store(
    session: Session,
    user_id: int,
    group_id: int,
    prepared: PreparedGames,
    names: Mapping[str, str],
) -> Stored:
    """Write the ``prepared`` games into the group in short transactions, all or nothing.

    ``names`` maps each name key of the file's players to the name a new player gets;
    the seated players' ids in ``prepared`` are those keys. A game the group got from
    another import meanwhile (the same import key) is left out.
    """
    _go_on()
    engine = session.get_bind().engine
    discard_abandoned(engine)
    with _own_connection(engine) as connection:
        own = Session(bind=connection, expire_on_commit=False)
        try:
            with import_lock(own, group_id):
                return _store(own, connection, user_id, group_id, prepared, names)
        finally:
            own.close()


def _store(
    own: Session,
    connection: Connection,
    user_id: int,
    group_id: int,
    prepared: PreparedGames,
    names: Mapping[str, str],
) -> Stored:
    """:func:`store`, with the group's import lock held (``own`` is on ``connection``)."""
    _discard_dead(own, group_id)
    holding = write(own, _open, user_id, group_id)
    try:
        player_ids, created = write(own, _players, group_id, holding, names)
        rows = _Rows(prepared)
        stored: list[tuple[int, int]] = []
        size = batch_hands(connection.dialect.name)
        for number, indexes in enumerate(rows.batches(size), start=1):
            _go_on()
            began = time.perf_counter()
            with _no_collection():
                batch = write(own, _write_batch, group_id, holding, rows, indexes, player_ids)
            stored.extend(batch)
            if number % CHECKPOINT_EVERY == 0:
                _checkpoint(connection)
            _pause(max(LEAST_PAUSE_S, PAUSE_SHARE * (time.perf_counter() - began)))
        _checkpoint(connection)
        _durable(connection)
        with _no_collection():
            write(own, _reveal, user_id, group_id, holding)
    except BaseException:
        _durable(connection)
        discard(own, holding, group_id)
        raise
    return Stored([game_id for _index, game_id in stored], [index for index, _ in stored], created)
