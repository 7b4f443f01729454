"""Migration 0006 gives every stored hand its game total, added up by the core's rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import insert, inspect, select

from dutch_app.storage.db import MIGRATIONS_DIR, make_engine, migrating
from dutch_app.storage.models import Game, GamePlayer, Group, Player, Round, RoundHand, User

BEFORE = "0005_password_resets"  # the revision before 0006
HALVING = {"end": {"kind": "score_limit", "limit": 20, "exact_limit_halves": True}}
PLAIN = {"end": {"kind": "open"}}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'dutch.db'}"
    return request.getfixturevalue("fresh_postgres_database")()


def migrate(engine, target: str, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with migrating(engine) as connection:  # as the app's start-up does (SQLite: keys off)
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, target)


def stored_game(connection, group_id, players, rules, scores) -> int:
    """A game of ``players`` whose rounds give them ``scores`` (one tuple per round)."""
    moment = datetime(2025, 5, 10, 18, tzinfo=UTC)
    game_id = connection.scalar(
        insert(Game)
        .values(group_id=group_id, rules=rules, status="active", started_at=moment, notes="")
        .returning(Game.id)
    )
    for seat, player_id in enumerate(players):
        connection.execute(
            insert(GamePlayer).values(game_id=game_id, seat=seat, player_id=player_id)
        )
    for number, round_scores in enumerate(scores, start=1):
        round_id = connection.scalar(
            insert(Round)
            .values(game_id=game_id, number=number, entered_at=moment, penalty_cards_due=0)
            .returning(Round.id)
        )
        for seat, (player_id, score) in enumerate(zip(players, round_scores, strict=True)):
            connection.execute(
                insert(RoundHand).values(
                    round_id=round_id,
                    player_id=player_id,
                    seat=seat,
                    hand_total=score,
                    penalty_points=0,
                    round_score=score,
                    is_caller=False,
                )
            )
    return game_id


def test_existing_rounds_get_their_game_totals_with_halving_and_the_way_back_works(url):
    engine = make_engine(url)
    try:
        migrate(engine, BEFORE)
        assert "game_total" not in {c["name"] for c in inspect(engine).get_columns("round_hands")}
        with engine.begin() as connection:
            user = connection.scalar(
                insert(User)
                .values(auth_provider="local", auth_subject="o", email="o@x.org", display_name="O")
                .returning(User.id)
            )
            group = connection.scalar(
                insert(Group)
                .values(name="G", invite_code="code", created_by=user)
                .returning(Group.id)
            )
            ann, bo = (
                connection.scalar(
                    insert(Player)
                    .values(group_id=group, name=name, name_key=name.lower())
                    .returning(Player.id)
                )
                for name in ("Ann", "Bo")
            )
            halving = stored_game(
                connection, group, [ann, bo], HALVING, [(10, 5), (10, 15), (3, 3)]
            )
            plain = stored_game(connection, group, [bo, ann], PLAIN, [(10, 5), (10, 15)])
        migrate(engine, "head")
        with engine.connect() as connection:
            rows = connection.execute(
                select(Round.game_id, RoundHand.player_id, RoundHand.game_total)
                .join(Round, Round.id == RoundHand.round_id)
                .order_by(Round.game_id, Round.number, RoundHand.seat)
            ).all()
        totals = [(game, player, total) for game, player, total in rows]
        assert totals == [
            (halving, ann, 10), (halving, bo, 5),
            (halving, ann, 10), (halving, bo, 10),  # both landed on exactly 20: halved
            (halving, ann, 13), (halving, bo, 13),
            (plain, bo, 10), (plain, ann, 5),
            (plain, bo, 20), (plain, ann, 20),  # no halving under these rules
        ]  # fmt: skip
        columns = {c["name"]: c for c in inspect(engine).get_columns("round_hands")}
        assert columns["game_total"]["nullable"] is False
        migrate(engine, BEFORE, down=True)
        assert "game_total" not in {c["name"] for c in inspect(engine).get_columns("round_hands")}
    finally:
        engine.dispose()
