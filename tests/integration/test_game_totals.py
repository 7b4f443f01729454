"""Game totals stored with each round: right after corrections, read instead of replayed, and
a new round of a 20,000-round game reads no more than one of a 10-round game."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from dutch_app.services import rounds
from dutch_app.services._bulk import BulkGame, write_games
from dutch_app.services._stored_games import core_game, rounds_of, table_of
from dutch_app.services.games import get_game, start_game
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Game, Player
from dutch_core import PRESETS, EndCondition, HouseRules, RoundInput, score_round

HALVING = HouseRules(end=EndCondition.score_limit(40, exact_limit_halves=True))


def stored_and_core(session: Session, game_id: int) -> tuple[list, list]:
    """Each round's stored game totals and the core's, by player name."""
    game = session.get(Game, game_id)
    table = table_of(session, game_id)
    stored_rounds = rounds_of(session, game_id)
    core = core_game(game, table, stored_rounds).running_totals()
    stored = [
        {table.name_of(hand.player_id): hand.game_total for hand in hands}
        for _, hands in stored_rounds
    ]
    session.rollback()
    return stored, core


def play(session, owner, game_id, seated, rows):
    """Add rounds; each row gives Ann's to Dee's hands, Ann calling Dutch."""
    for hands in rows:
        keyed = {player.id: hand for player, hand in zip(seated, hands, strict=True)}
        perform(session, rounds.add_round, owner, game_id, keyed, seated[0].id, "dutch")


def test_totals_after_correcting_and_deleting_an_early_round_are_the_cores(
    session, owner, group, seated
):
    game = perform(session, start_game, owner, group.id, [p.id for p in seated], HALVING)
    play(session, owner, game.id, seated, [("1", "10", "2", "3")] + [("1", "9", "3", "4")] * 3)
    stored, core = stored_and_core(session, game.id)
    assert stored == core
    assert [totals["Bo"] for totals in stored] == [10, 19, 28, 37]
    first = perform(session, get_game, owner, game.id).rounds[0]
    ids = [p.id for p in seated]
    # Bo's 10 becomes 13: later on his total lands on exactly 40 and is halved.
    perform(
        session, rounds.edit_round, owner, first.id, first.version,
        dict(zip(ids, ("1", "13", "2", "3"), strict=True)), ids[0], "dutch",
    )  # fmt: skip
    stored, core = stored_and_core(session, game.id)
    assert stored == core
    assert [totals["Bo"] for totals in stored] == [13, 22, 31, 20]
    second = perform(session, get_game, owner, game.id).rounds[1]
    perform(session, rounds.delete_round, owner, second.id, second.version)
    stored, core = stored_and_core(session, game.id)
    assert stored == core
    assert [totals["Bo"] for totals in stored] == [13, 22, 31]
    view = perform(session, get_game, owner, game.id)
    assert view.totals == core[-1]
    assert (view.standings[0].player, view.standings[0].game_total) == ("Ann", 3)


def test_a_game_is_shown_from_its_stored_totals_without_scoring_again(
    session, owner, group, seated, monkeypatch
):
    game = perform(session, start_game, owner, group.id, [p.id for p in seated], HALVING)
    play(session, owner, game.id, seated, [("1", "20", "2", "3"), ("1", "20", "2", "3")])

    def refuse(*args, **kwargs):
        raise AssertionError("a view must not score rounds again")

    monkeypatch.setattr("dutch_core.game.score_round", refuse)
    monkeypatch.setattr("dutch_core.scoring.score_round", refuse)
    view = perform(session, get_game, owner, game.id)
    assert view.totals == {"Ann": 2, "Bo": 20, "Cy": 4, "Dee": 6}  # Bo's 40 was halved
    assert view.running_totals()[0]["Bo"] == 20
    assert view.winners == ("Ann",)
    assert not view.is_over


def test_a_game_at_its_limit_refuses_a_new_round_after_reopening(session, owner, group, seated):
    from dutch_app.services.games import reopen_game

    game = perform(session, start_game, owner, group.id, [p.id for p in seated], HALVING)
    play(session, owner, game.id, seated, [("1", "45", "2", "3")])
    assert perform(session, get_game, owner, game.id).status == "ended"
    perform(session, reopen_game, owner, game.id)
    with pytest.raises(Exception, match="the game ended after round 1"):
        play(session, owner, game.id, seated, [("1", "2", "3", "4")])


def long_game(session: Session, group_id: int, length: int) -> int:
    """An open-ended game of the group's four players with ``length`` rounds, written in bulk."""
    players = select(Player).where(Player.group_id == group_id, Player.user_id.is_(None))
    seated = list(session.scalars(players.order_by(Player.id)))[:4]  # not the owner's own
    rules = PRESETS["classic_open"]
    names = {
        player.name: hand for player, hand in zip(seated, ("3", "10", "12", "20"), strict=True)
    }
    result = score_round(RoundInput.build(names, caller=seated[0].name, call_type="dutch"), rules)
    values = {
        "group_id": group_id,
        "rules": rules.to_dict(),
        "status": "active",
        "started_at": datetime(2026, 1, 1, tzinfo=UTC),
        "ended_at": None,
        "notes": "",
        "version": 1,
    }
    (game_id,) = write_games(session, [BulkGame(values, seated, [result] * length)])
    session.commit()
    return game_id


class Reads:
    """Statements a block sends, and the rows its SELECTs return (run again afterwards)."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.selects: list[tuple[str, object]] = []
        self.written = 0
        self.statements = 0

    def __enter__(self) -> Reads:
        event.listen(self.engine, "after_cursor_execute", self._seen)
        return self

    def __exit__(self, *exc) -> None:
        event.remove(self.engine, "after_cursor_execute", self._seen)

    def _seen(self, conn, cursor, statement, parameters, context, executemany) -> None:
        self.statements += 1
        if statement.lstrip().upper().startswith("SELECT"):
            self.selects.append((re.sub(r"\s+FOR UPDATE( OF \w+)?", "", statement), parameters))
        elif not statement.lstrip().upper().startswith(("BEGIN", "COMMIT", "SAVEPOINT")):
            self.written += max(cursor.rowcount, 0)

    def rows_read(self) -> int:
        with self.engine.connect() as connection:
            return sum(
                len(connection.exec_driver_sql(statement, parameters).fetchall())
                for statement, parameters in self.selects
            )


@pytest.mark.timeout(600)
def test_a_round_of_a_20000_round_game_reads_as_little_as_one_of_a_10_round_game(
    session, engine, owner, group, seated
):
    hands = dict(zip([p.id for p in seated], ("3", "10", "12", "20"), strict=True))
    measured = {}
    for length in (10, 20_000):
        game_id = long_game(session, group.id, length)
        with Reads(engine) as reads:
            stored = perform(
                session, rounds.add_round, owner, game_id, hands, seated[0].id, "dutch"
            )
        assert stored.number == length + 1
        assert [hand.game_total for hand in stored.hands] == [
            3 * (length + 1),
            10 * (length + 1),
            12 * (length + 1),
            20 * (length + 1),
        ]
        measured[length] = (reads.statements, reads.rows_read(), reads.written)
    assert measured[20_000] == measured[10]
    _, rows, written = measured[20_000]
    assert rows <= 12  # the game, its membership, its four players, its last round's four hands
    assert written <= 8  # the round, its four hands, the game's version, the group's version


@pytest.mark.timeout(600)
def test_the_play_pages_view_of_a_20000_round_game_reads_only_its_latest_rounds(
    session, engine, owner, group, seated
):
    from dutch_app.services.games import PLAY_ROUNDS

    game_id = long_game(session, group.id, 20_000)
    with Reads(engine) as reads:
        view = perform(session, get_game, owner, game_id, PLAY_ROUNDS)
    assert view.rounds_played == 20_000
    assert [stored.number for stored in view.rounds] == list(range(19_901, 20_001))
    assert view.totals == {"Ann": 60_000, "Bo": 200_000, "Cy": 240_000, "Dee": 400_000}
    assert view.standings[0].player == "Ann"
    # the game, membership, players, the last round's hands, then 100 rounds and their hands
    assert reads.rows_read() <= 12 + PLAY_ROUNDS * 5
    whole = perform(session, get_game, owner, game_id)
    assert len(whole.rounds) == 20_000
    assert whole.running_totals()[-1] == view.totals


def test_the_play_pages_view_is_four_reads_and_its_window_the_latest_rounds(
    session, engine, owner, group, seated
):
    from dutch_app.services.games import PLAY_ROUNDS

    game = perform(
        session, start_game, owner, group.id, [p.id for p in seated], PRESETS["classic_open"]
    )
    with Reads(engine) as reads:
        empty = perform(session, get_game, owner, game.id, PLAY_ROUNDS)
    assert (empty.rounds_played, empty.rounds) == (0, ())
    assert empty.totals == {"Ann": 0, "Bo": 0, "Cy": 0, "Dee": 0}
    assert len(reads.selects) == 3  # the game, its players, its rounds (none: no hands read)
    play(session, owner, game.id, seated, [("1", "20", "2", "3"), ("2", "5", "9", "4")] * 3)
    with Reads(engine) as reads:
        view = perform(session, get_game, owner, game.id, 4)
    # the game (with the membership check), its players, the latest rounds, their hands
    assert len(reads.selects) == 4
    assert [stored.number for stored in view.rounds] == [3, 4, 5, 6]
    assert view.rounds_played == 6
    whole = perform(session, get_game, owner, game.id)
    assert whole.rounds[2:] == view.rounds
    assert view.totals == whole.totals == whole.running_totals()[-1]
    assert view.standings == whole.standings


def test_what_a_round_is_checked_against_is_two_reads_and_only_for_members(
    session, engine, owner, group, seated, make_user
):
    from dutch_app.services.errors import NotFound
    from dutch_app.services.games import get_seating

    rules = PRESETS["classic_open"]
    order = [seated[2], seated[0], seated[3], seated[1]]
    game = perform(session, start_game, owner, group.id, [p.id for p in order], rules)
    with Reads(engine) as reads:
        seating = perform(session, get_seating, owner, game.id)
    assert len(reads.selects) == 2
    assert seating.game_id == game.id
    assert [player.name for player in seating.players] == ["Cy", "Ann", "Dee", "Bo"]
    assert [player.id for player in seating.players] == [p.id for p in order]
    assert seating.rules == rules
    with pytest.raises(NotFound):
        perform(session, get_seating, make_user("Stranger"), game.id)
