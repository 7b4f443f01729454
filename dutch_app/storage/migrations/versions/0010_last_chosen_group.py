"""The group each person last chose to work in, kept with their preferences.

A new session (a reload, another device) opens in it while the person is still a member.
Empty for everyone until they next choose a group.

Revision ID: 0010_last_chosen_group
Revises: 0009_import_holding_groups
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_last_chosen_group"
down_revision: str | Sequence[str] | None = "0009_import_holding_groups"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("user_preferences", sa.Column("last_group_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("user_preferences") as batch:
        batch.drop_column("last_group_id")
