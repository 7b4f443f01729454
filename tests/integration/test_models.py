"""The tables themselves: keys, cascades and what the database refuses on its own."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import delete, func, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dutch_app.services.games import start_game
from dutch_app.services.groups import join_group
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.arrow_read import record_batches
from dutch_app.storage.db import get_engine
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Group,
    Membership,
    Player,
    Round,
    RoundHand,
    User,
)
from dutch_core import PRESETS, HouseRules


@pytest.fixture
def played(session, owner, make_user, group, seated):
    """A game with one round entered by Ben, a member linked to the player Bo."""
    ben = make_user("Ben")
    perform(session, join_group, ben, group.invite_code)
    session.execute(delete(Player).where(Player.user_id == ben))  # he plays as Bo here
    session.get(Player, seated[1].id).user_id = ben
    session.commit()
    ids = [p.id for p in seated[:2]]
    game = perform(session, start_game, ben, group.id, ids, PRESETS["classic"])
    perform(session, add_round, ben, game.id, {ids[0]: "3", ids[1]: "9"}, ids[0], "dutch")
    return ben, game.id


def count(session, model) -> int:
    return session.scalar(select(func.count()).select_from(model))


def test_deleting_an_account_keeps_the_groups_history(session, group, played):
    ben, game_id = played
    session.execute(delete(User).where(User.id == ben))
    session.commit()
    assert session.get(Membership, (group.id, ben)) is None
    assert session.get(Game, game_id).created_by is None
    assert session.scalar(select(Round.entered_by)) is None
    assert session.scalar(select(Player.user_id).where(Player.name == "Bo")) is None
    assert count(session, RoundHand) == 2


def test_deleting_a_game_removes_its_seats_rounds_and_hands(session, played):
    session.execute(delete(Game).where(Game.id == played[1]))
    session.commit()
    assert [count(session, m) for m in (GamePlayer, Round, RoundHand)] == [0, 0, 0]
    assert count(session, Player) == 5  # Olga's own player and the four seated


def test_a_round_number_is_unique_in_its_game(session, played):
    session.add(Round(game_id=played[1], number=1, penalty_cards_due=0, version=1))
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_a_name_is_unique_in_its_group_by_its_key(session, group):
    session.add_all(
        [
            Player(group_id=group.id, name="Ann", name_key="ann"),
            Player(group_id=group.id, name="ANN", name_key="ann"),
        ]
    )
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_a_hand_must_belong_to_a_stored_round_and_player(session, group, seated, played):
    round_id = session.scalar(select(Round.id))
    session.add(
        RoundHand(
            round_id=round_id, player_id=424242, seat=5, hand_total=1, round_score=1, game_total=1
        )
    )
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()
    session.add(
        RoundHand(
            round_id=424242,
            player_id=seated[2].id,
            seat=5,
            hand_total=1,
            round_score=1,
            game_total=1,
        )
    )
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_house_rules_are_stored_as_plain_json_and_read_back_equal(session, owner, group, seated):
    rules = PRESETS["jokers"]
    game = perform(session, start_game, owner, group.id, [p.id for p in seated[:2]], rules)
    stored = session.scalar(select(Game.rules).where(Game.id == game.id))
    assert stored == rules.to_dict()
    assert HouseRules.from_dict(stored) == rules


def test_an_sqlite_database_runs_with_wal_a_busy_timeout_and_foreign_keys(tmp_path):
    engine = get_engine(f"sqlite:///{tmp_path / 'nested' / 'dutch.db'}")
    try:
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 30_000
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        engine.dispose()
    assert (tmp_path / "nested" / "dutch.db").is_file()


def test_a_group_row_carries_its_data_version(session, group):
    assert session.get(Group, group.id).data_version == group.data_version >= 1


def test_an_in_memory_database_is_shared_by_threads_and_migrated():
    engine = get_engine("sqlite://")
    seen = []
    try:
        worker = threading.Thread(target=lambda: seen.append(inspect(engine).get_table_names()))
        worker.start()
        worker.join(timeout=30)
    finally:
        engine.dispose()
    assert "rounds" in seen[0]


@pytest.mark.parametrize(
    "url", ["sqlite://", "sqlite:///file:trial?mode=memory&cache=private&uri=true"]
)
def test_an_in_memory_database_in_any_spelling_is_one_database_read_in_this_process(url):
    """However it is named, an in-memory database is the same one for every connection,
    and the history reader reads it through that one connection."""
    engine = get_engine(url)
    try:
        with engine.connect() as first, engine.connect() as second:
            first.execute(insert(User).values(**USER))
            first.commit()
            assert second.scalar(select(func.count()).select_from(User)) == 1
        with Session(engine) as session:
            batches = list(record_batches(session, select(User.email)))
        assert [row for batch in batches for row in batch.to_pylist()] == [{"email": USER["email"]}]
    finally:
        engine.dispose()


USER = {
    "auth_provider": "local",
    "auth_subject": "trial",
    "email": "trial@example.org",
    "display_name": "Trial",
}


def test_a_deleted_users_id_is_never_handed_out_again(session, make_user):
    first = make_user("Ann")
    session.execute(delete(User).where(User.id == first))
    session.commit()
    assert make_user("Bo") > first


def test_a_deleted_groups_id_is_never_handed_out_again(session, owner):
    from dutch_app.services.groups import create_group

    old = perform(session, create_group, owner, "Gone")
    session.execute(delete(Group).where(Group.id == old.id))
    session.commit()
    new = perform(session, create_group, owner, "New")
    assert new.id > old.id
    assert session.get(Group, new.id).cache_key != old.cache_key


def test_a_stale_correction_or_undo_of_a_deleted_round_never_touches_a_newer_round(
    session, owner, group, seated
):
    from dutch_app.services.errors import ServiceError
    from dutch_app.services.rounds import delete_round, edit_round

    ids = [p.id for p in seated[:2]]
    game = perform(session, start_game, owner, group.id, ids, PRESETS["classic"])
    hands = {ids[0]: "3", ids[1]: "9"}
    undone = perform(session, add_round, owner, game.id, hands, ids[0], "dutch")
    perform(session, delete_round, owner, undone.id, undone.version)
    newer = perform(
        session, add_round, owner, game.id, {ids[0]: "10", ids[1]: "2"}, ids[1], "dutch"
    )
    assert newer.id > undone.id
    # A tab that still shows the undone round corrects it, or undoes it again:
    with pytest.raises(ServiceError):
        perform(session, edit_round, owner, undone.id, undone.version, hands, ids[0], "dutch")
    with pytest.raises(ServiceError):
        perform(session, delete_round, owner, undone.id, undone.version)
    kept = session.get(Round, newer.id, populate_existing=True)
    assert (kept.version, kept.caller_player_id) == (1, ids[1])
