"""Preferences kept with each account, and read-only links to single games.

Revision ID: 0007_preferences_and_shares
Revises: 0006_stored_game_totals
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_preferences_and_shares"
down_revision: str | Sequence[str] | None = "0006_stored_game_totals"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "user_preferences",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("theme", sa.String(length=8), nullable=False),
        sa.Column("keep_awake", sa.Boolean(), nullable=False),
        sa.Column("last_rules", sa.JSON(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_user_preferences_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_user_preferences")),
    )
    op.create_table(
        "shared_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_shared_games_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.id"],
            name=op.f("fk_shared_games_created_by_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_shared_games")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_shared_games_token_hash")),
    )


def downgrade() -> None:
    op.drop_table("shared_games")
    op.drop_table("user_preferences")
