"""Seasons: how each group cuts its games into seasons, the seasons its owner named, and
the period each person last chose on Stats and History.

Every group starts with calendar quarters and no named seasons; nobody has chosen a
period yet.

Revision ID: 0013_seasons
Revises: 0012_anonymous_accounts
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_seasons"
down_revision: str | Sequence[str] | None = "0012_anonymous_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "groups",
        sa.Column("season_kind", sa.String(length=8), server_default="quarter", nullable=False),
    )
    op.add_column(
        "user_preferences", sa.Column("season_choice", sa.String(length=8), nullable=True)
    )
    op.create_table(
        "named_seasons",
        sa.Column("id", sa.Integer(), sa.Identity(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_named_seasons_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_named_seasons")),
        sa.UniqueConstraint(
            "group_id", "starts_on", name=op.f("uq_named_seasons_group_id_starts_on")
        ),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("named_seasons")
    with op.batch_alter_table("user_preferences") as batch:
        batch.drop_column("season_choice")
    with op.batch_alter_table("groups") as batch:
        batch.drop_column("season_kind")
