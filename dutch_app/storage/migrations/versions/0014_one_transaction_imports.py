"""An import is one transaction: no holding groups, no notes of stopped imports.

An import left half-way by the old design (a holding group that still exists, with the
hidden games and the new players it held) is deleted first, as that import's own clean-up
would have deleted it; a finished import's games stay. The two columns go with SQL's own
``DROP COLUMN`` (SQLite 3.35 and later), not a table rebuild: rebuilding ``groups`` or
``games`` on SQLite with foreign keys on would delete every row that refers to them.

Revision ID: 0014_one_transaction_imports
Revises: 0013_seasons
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_one_transaction_imports"
down_revision: str | Sequence[str] | None = "0013_seasons"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_UNFINISHED_IMPORTS = """
CREATE TEMPORARY TABLE unfinished_games AS SELECT id FROM games WHERE held_by_id IN
    (SELECT id FROM groups WHERE import_into_id IS NOT NULL);
DELETE FROM round_hands WHERE round_id IN
    (SELECT id FROM rounds WHERE game_id IN (SELECT id FROM unfinished_games));
DELETE FROM rounds WHERE game_id IN (SELECT id FROM unfinished_games);
DELETE FROM game_players WHERE game_id IN (SELECT id FROM unfinished_games);
DELETE FROM games WHERE id IN (SELECT id FROM unfinished_games);
DROP TABLE unfinished_games;
DELETE FROM players WHERE group_id IN (SELECT id FROM groups WHERE import_into_id IS NOT NULL);
DELETE FROM groups WHERE import_into_id IS NOT NULL
"""
"""What an unfinished import held, child rows first: the start-up migrates with foreign
keys off, so nothing cascades."""


def upgrade() -> None:
    op.drop_index(op.f("ix_stopped_imports_user_id"), table_name="stopped_imports")
    op.drop_table("stopped_imports")
    for statement in _UNFINISHED_IMPORTS.split(";"):
        op.execute(sa.text(statement))
    op.drop_column("games", "held_by_id")
    op.drop_column("groups", "import_into_id")


def downgrade() -> None:
    op.add_column("groups", sa.Column("import_into_id", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("held_by_id", sa.Integer(), nullable=True))
    op.create_table(
        "stopped_imports",
        sa.Column("id", sa.Integer(), sa.Identity(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_stopped_imports_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_stopped_imports_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stopped_imports")),
        sqlite_autoincrement=True,
    )
    op.create_index(
        op.f("ix_stopped_imports_user_id"), "stopped_imports", ["user_id"], unique=False
    )
