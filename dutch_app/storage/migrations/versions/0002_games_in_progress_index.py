"""An index for finding a group's games in progress.

The Play page asks for them on every rerun; without this index the query read
every game of the group, so entering a round slowed down as history grew.

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_games_group_id_status_started_at", "games", ["group_id", "status", "started_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_games_group_id_status_started_at", table_name="games")
