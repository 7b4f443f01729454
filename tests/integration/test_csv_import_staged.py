"""A large import is written in short transactions, hidden by its holding group, and shown
all at once: no reader ever sees part of a file, a failure anywhere leaves nothing, and an
import left half-way by a stopped process is cleaned up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.csv_io import parse_rounds_csv
from dutch_app.services import _import_writes, csv_import
from dutch_app.services._import_lock import import_lock
from dutch_app.services.csv_export import export_games, export_rounds
from dutch_app.services.demo import generate_history
from dutch_app.services.errors import NotFound
from dutch_app.services.games import get_game, list_games
from dutch_app.services.groups import create_group
from dutch_app.services.history import load_history
from dutch_app.services.live import Watched, member_version
from dutch_app.services.players import add_player, list_players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Game, Group, Player


@pytest.fixture
def history_file(session, owner):
    """The rounds file of a demo history of some 60 games (several short transactions)."""
    source = perform(session, create_group, owner, "Source")
    generate_history(session, source.id, 2000, 7)
    return perform(session, export_rounds, owner, source.id)


def _file_counts(data: bytes, known: set[str] = frozenset()) -> dict[str, int]:
    """The rows the file holds, counted from the file itself; ``known``: the names (case
    folded) of the players the group has already."""
    plan = parse_rounds_csv(data)
    rounds = [planned for game in plan.games for planned in game.rounds]
    return {
        "games": len(plan.games),
        "game_players": sum(len(game.players) for game in plan.games),
        "rounds": len(rounds),
        "round_hands": sum(len(game.players) * len(game.rounds) for game in plan.games),
        "players": len({n.casefold() for game in plan.games for n in game.players} - known),
    }


class _Batches:
    """Counts the import's short batch transactions and can make one of them fail."""

    def __init__(self, monkeypatch, fail_at: int | None = None) -> None:
        self.calls = 0
        self.fail_at = fail_at
        real = _import_writes.insert_games

        def counted(*args, **kwargs):
            self.calls += 1
            if self.calls == self.fail_at:
                raise RuntimeError("the disk is full")
            return real(*args, **kwargs)

        monkeypatch.setattr(_import_writes, "insert_games", counted)


def _stop_half_way(session, owner, group_id, data, monkeypatch, batches: int) -> None:
    """Import ``data`` as a process would that stopped after ``batches`` batches: it never
    gets to delete what it wrote."""
    monkeypatch.setattr(_import_writes, "discard", lambda *_args: None)
    _Batches(monkeypatch, fail_at=batches)
    with pytest.raises(RuntimeError):
        perform(session, csv_import.import_rounds_csv, owner, group_id, data)
    monkeypatch.undo()


@contextmanager
def _at_work(engine, group_id: int) -> Iterator[None]:
    """The group's import lock held, as by an import at work in another process."""
    with (
        engine.connect() as connection,
        Session(connection) as other,
        import_lock(other, group_id) as taken,
    ):
        assert taken
        yield


def _holding():
    """The ids of holding groups (imports at work)."""
    return select(Group.id).where(Group.import_into_id.is_not(None))


def test_the_file_is_written_in_several_short_transactions_with_exact_counts(
    session, owner, history_file, count_rows, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    batches = _Batches(monkeypatch)
    known = {player.name.casefold() for player in perform(session, list_players, owner, target.id)}
    before = count_rows()
    report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    after = count_rows()
    expected = _file_counts(history_file, known)
    assert batches.calls >= 3
    assert report.games_imported == expected["games"]
    assert report.rounds_imported == expected["rounds"]
    assert len(report.players_created) == expected["players"]
    for table, rows in expected.items():
        assert after[table] - before[table] == rows, table
    assert after["groups"] == before["groups"]  # the holding group is gone
    assert perform(session, export_rounds, owner, target.id) == history_file


def test_a_failure_in_the_last_batch_leaves_nothing(
    session, owner, history_file, count_rows, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    probe = _Batches(monkeypatch)
    scratch = perform(session, create_group, owner, "Scratch")
    perform(session, csv_import.import_rounds_csv, owner, scratch.id, history_file)
    last = probe.calls
    assert last >= 3
    _Batches(monkeypatch, fail_at=last)
    before = count_rows()
    version = perform(session, member_version, owner, Watched.GROUP, target.id)
    with pytest.raises(RuntimeError, match="disk is full"):
        perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    assert count_rows() == before
    assert perform(session, list_games, owner, target.id) == []
    assert perform(session, member_version, owner, Watched.GROUP, target.id) == version


def test_a_failure_when_the_games_are_shown_leaves_nothing(
    session, owner, history_file, count_rows, monkeypatch
):
    """The last short transaction fails (the owner left the group meanwhile, say)."""
    target = perform(session, create_group, owner, "Target")
    before = count_rows()

    def refuse(*_args):
        raise NotFound("group", target.id)

    monkeypatch.setattr(_import_writes, "_reveal", refuse)
    with pytest.raises(NotFound):
        perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    assert count_rows() == before


def test_a_reader_during_the_import_sees_nothing_of_it(
    engine, session, owner, history_file, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    perform(session, add_player, owner, target.id, "Somebody")
    reader = Session(engine, expire_on_commit=False)

    def seen() -> dict[str, object]:
        frame = perform(reader, load_history, owner, target.id)
        return {
            "games": perform(reader, list_games, owner, target.id),
            "players": [p.name for p in perform(reader, list_players, owner, target.id)],
            "history rows": len(frame),
            "rounds file": perform(reader, export_rounds, owner, target.id),
            "games file": perform(reader, export_games, owner, target.id),
            "version": perform(reader, member_version, owner, Watched.GROUP, target.id),
        }

    empty = seen()
    views: list[dict[str, object]] = []
    staged: list[int] = []
    pause = _import_writes._pause

    def watching(seconds: float) -> None:
        views.append(seen())
        staged.extend(reader.scalars(select(Game.id).where(Game.held_by_id.in_(_holding()))))
        reader.rollback()
        pause(seconds)

    monkeypatch.setattr(_import_writes, "_pause", watching)
    try:
        report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
        assert len(views) >= 3
        assert all(view == empty for view in views)
        assert set(staged) & set(report.game_ids)  # stored before they were shown
        shown = seen()
        assert len(shown["games"]) == report.games_imported
        assert shown["rounds file"] == history_file
        assert shown["version"] == empty["version"] + 1  # one change, seen once
    finally:
        reader.close()


def test_a_game_staged_mid_import_is_not_reachable_by_its_id(
    session, owner, history_file, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    tried: list[str] = []
    pause = _import_writes._pause

    def peeking(seconds: float) -> None:
        with Session(session.get_bind()) as reader:
            staged = reader.scalars(select(Game.id).where(Game.held_by_id.in_(_holding()))).all()
            for game_id in staged[-3:]:
                for service, args in (
                    (get_game, (game_id,)),
                    (member_version, (Watched.GAME, game_id)),
                ):
                    try:
                        perform(reader, service, owner, *args)
                        tried.append("shown")
                    except NotFound:
                        tried.append("hidden")
        pause(seconds)

    monkeypatch.setattr(_import_writes, "_pause", peeking)
    report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    assert tried and set(tried) == {"hidden"}
    assert perform(session, get_game, owner, report.game_ids[-1]).id == report.game_ids[-1]


def test_an_import_stopped_half_way_is_cleaned_up_by_the_next_one(
    engine, session, owner, history_file, count_rows, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    known = {player.name.casefold() for player in perform(session, list_players, owner, target.id)}
    before = count_rows()
    _stop_half_way(session, owner, target.id, history_file, monkeypatch, batches=3)
    left = count_rows()
    assert left["games"] > before["games"]
    assert left["groups"] == before["groups"] + 1
    assert perform(session, list_games, owner, target.id) == []
    # While a process holds the group's import lock, its import is at work: it stays.
    with _at_work(engine, target.id):
        assert perform(session, csv_import.discard_abandoned_imports) == 0
        assert count_rows() == left
    other = perform(session, create_group, owner, "Other")
    perform(session, csv_import.import_rounds_csv, owner, other.id, history_file)
    with Session(engine) as reader:
        assert reader.scalars(_holding()).all() == []  # the stopped import's is gone
    report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    after = count_rows()
    expected = _file_counts(history_file, known)
    assert report.games_imported == expected["games"]
    with Session(engine) as reader:
        assert reader.scalars(select(Group).where(Group.import_into_id.is_not(None))).all() == []
    for table, rows in expected.items():
        # Twice the file (the other group and the target), nothing of the stopped import.
        # The other group's owner is one more player (the target's was there before).
        extra = 1 if table == "players" else 0
        assert after[table] - before[table] == 2 * rows + extra, table


def test_a_player_added_meanwhile_under_a_name_of_the_file_is_the_same_player(
    session, owner, history_file, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    names = sorted({name for game in parse_rounds_csv(history_file).games for name in game.players})
    added: list[int] = []
    pause = _import_writes._pause

    def adding(seconds: float) -> None:
        if not added:
            with Session(session.get_bind(), expire_on_commit=False) as other:
                added.append(perform(other, add_player, owner, target.id, names[0].upper()).id)
        pause(seconds)

    monkeypatch.setattr(_import_writes, "_pause", adding)
    report = perform(session, csv_import.import_rounds_csv, owner, target.id, history_file)
    players = session.scalars(select(Player).where(Player.group_id == target.id)).all()
    assert sorted(p.name_key for p in players) == sorted(n.casefold() for n in names)
    assert added[0] in {p.id for p in players}
    assert perform(session, export_rounds, owner, target.id).lower() == history_file.lower()
    assert report.games_imported == len(parse_rounds_csv(history_file).games)


def test_the_app_start_cleans_up_an_import_stopped_half_way(
    engine, session, owner, history_file, count_rows, monkeypatch
):
    target = perform(session, create_group, owner, "Target")
    before = count_rows()
    _stop_half_way(session, owner, target.id, history_file, monkeypatch, batches=2)
    assert count_rows()["games"] > before["games"]
    with _at_work(engine, target.id):
        assert perform(session, csv_import.discard_abandoned_imports) == 0
    assert perform(session, csv_import.stopped_imports, owner) == []
    assert perform(session, csv_import.discard_abandoned_imports) == 1
    # Nobody told the person: their next page view does, once.
    assert perform(session, csv_import.stopped_imports, owner) == ["Target"]
    assert perform(session, csv_import.stopped_imports, owner) == []
    assert count_rows() == before
