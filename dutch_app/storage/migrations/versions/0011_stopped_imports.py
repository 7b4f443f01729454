"""Imports that stopped with nobody left to say so, kept until their person is told.

Revision ID: 0011_stopped_imports
Revises: 0010_last_chosen_group
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_stopped_imports"
down_revision: str | Sequence[str] | None = "0010_last_chosen_group"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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


def downgrade() -> None:
    op.drop_index(op.f("ix_stopped_imports_user_id"), table_name="stopped_imports")
    op.drop_table("stopped_imports")
