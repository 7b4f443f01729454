"""Throttle counters replace the list of sign-in attempts.

One row per key (an address, a client, an address from one client, the whole
server, a person guessing invite codes) holds its recent failures and until when
its next try must wait. Writers lock the row, so parallel guesses are counted
exactly; the old per-attempt list could be read by two guesses at once. The old
attempts only ever mattered for fifteen minutes, so they are not carried over.

Revision ID: 0004_sign_in_throttle
Revises: 0003_never_reused_ids
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_sign_in_throttle"
down_revision: str | Sequence[str] | None = "0003_never_reused_ids"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "throttle_counters",
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key", name=op.f("pk_throttle_counters")),
    )
    op.create_index("ix_throttle_counters_expires_at", "throttle_counters", ["expires_at"])
    op.create_index("ix_throttle_counters_email", "throttle_counters", ["email"])
    op.drop_index("ix_login_attempts_email_time", table_name="login_attempts")
    op.drop_table("login_attempts")


def downgrade() -> None:
    op.create_table(
        "login_attempts",
        # As 0003 left it: an id that is never reused.
        sa.Column("id", sa.Integer(), sa.Identity(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("attempted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("succeeded", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_attempts")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_login_attempts_email_time", "login_attempts", ["email", "attempted_at"])
    op.drop_index("ix_throttle_counters_email", table_name="throttle_counters")
    op.drop_index("ix_throttle_counters_expires_at", table_name="throttle_counters")
    op.drop_table("throttle_counters")
