"""Each hand keeps its player's game total after the round.

Adding a round and showing the standings read the latest round's totals instead
of adding up the whole game, so a round costs the same in round 10 and in round
20,000. Existing rounds are given their totals here, added up by the scoring
core's own rule (``dutch_core.totals_after``, which halves a total landing
exactly on a halving limit), game by game in round order.

Revision ID: 0006_stored_game_totals
Revises: 0005_password_resets
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from dutch_core import HouseRules, totals_after

revision: str = "0006_stored_game_totals"
down_revision: str | Sequence[str] | None = "0005_password_resets"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 5000

games = sa.table("games", sa.column("id", sa.Integer), sa.column("rules", sa.JSON))
rounds = sa.table(
    "rounds",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("number", sa.Integer),
)
hands = sa.table(
    "round_hands",
    sa.column("round_id", sa.Integer),
    sa.column("player_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("round_score", sa.Integer),
    sa.column("game_total", sa.Integer),
)


def _backfill(connection: sa.Connection) -> None:
    rules = {
        game_id: HouseRules.from_dict(settings)
        for game_id, settings in connection.execute(sa.select(games.c.id, games.c.rules))
    }
    scores = connection.execute(
        sa.select(rounds.c.game_id, hands.c.round_id, hands.c.player_id, hands.c.round_score)
        .join(rounds, rounds.c.id == hands.c.round_id)
        .order_by(rounds.c.game_id, rounds.c.number, hands.c.seat)
    )
    update = (
        hands.update()
        .where(hands.c.round_id == sa.bindparam("b_round"))
        .where(hands.c.player_id == sa.bindparam("b_player"))
        .values(game_total=sa.bindparam("b_total"))
    )
    totals: dict[int, int] = {}
    game = round_id = None
    pending: dict[int, int] = {}
    written: list[dict] = []

    def close_round() -> None:
        nonlocal totals
        if pending:
            totals = totals_after(rules[game], totals, pending)
            written.extend(
                {"b_round": round_id, "b_player": player, "b_total": total}
                for player, total in totals.items()
            )
            pending.clear()

    for game_id, this_round, player_id, score in scores:
        if this_round != round_id:
            close_round()
            if game_id != game:
                game, totals = game_id, {}
            round_id = this_round
        pending[player_id] = score
    close_round()
    for start in range(0, len(written), BATCH):
        connection.execute(update, written[start : start + BATCH])


def upgrade() -> None:
    op.add_column("round_hands", sa.Column("game_total", sa.Integer(), nullable=True))
    _backfill(op.get_bind())
    with op.batch_alter_table("round_hands") as batch:
        batch.alter_column("game_total", existing_type=sa.Integer(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("round_hands") as batch:
        batch.drop_column("game_total")
