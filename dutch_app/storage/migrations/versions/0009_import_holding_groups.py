"""A large import is written in short transactions, hidden until its last one.

``groups.import_into_id`` marks the holding group of an import at work (it names the
group the games are for, and holds the import's new players); ``games.held_by_id``
names the holding group of the import that wrote a game, which is hidden while that
group exists. Both are empty for everything stored before.

Revision ID: 0009_import_holding_groups
Revises: 0008_members_are_players
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_import_holding_groups"
down_revision: str | Sequence[str] | None = "0008_members_are_players"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("groups", sa.Column("import_into_id", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("held_by_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("held_by_id")
    with op.batch_alter_table("groups") as batch:
        batch.drop_column("import_into_id")
