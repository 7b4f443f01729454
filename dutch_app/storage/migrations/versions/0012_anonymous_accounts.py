"""Anonymous accounts: no email address, a flag, and when the account was last used.

Revision ID: 0012_anonymous_accounts
Revises: 0011_stopped_imports
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_anonymous_accounts"
down_revision: str | Sequence[str] | None = "0011_stopped_imports"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _sqlite_sequence(bind: sa.Connection) -> int | None:
    """How far SQLite's AUTOINCREMENT counter of ``users`` stands (None on PostgreSQL)."""
    if bind.dialect.name != "sqlite":
        return None
    return bind.execute(sa.text("SELECT seq FROM sqlite_sequence WHERE name = 'users'")).scalar()


def _restore_sqlite_sequence(bind: sa.Connection, seq: int | None) -> None:
    """Put the counter back after SQLite's rebuild, so no id of a deleted user is reused."""
    if seq is None:
        return
    bind.execute(sa.text("DELETE FROM sqlite_sequence WHERE name = 'users'"))
    bind.execute(
        sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES ('users', :seq)"), {"seq": seq}
    )


def _refuse_cascading_rebuild(bind: sa.Connection) -> None:
    """On SQLite the rebuild drops ``users``: with foreign keys on, that would delete every
    membership, preference and session of every user. Refuse rather than lose them."""
    if bind.dialect.name != "sqlite" or not bind.exec_driver_sql("PRAGMA foreign_keys").scalar():
        return
    if bind.execute(sa.text("SELECT 1 FROM users LIMIT 1")).first():
        raise RuntimeError(
            "This migration rebuilds the users table on SQLite and must run with foreign keys "
            "off: run it through the app's start-up or `alembic upgrade`."
        )


def upgrade() -> None:
    # Batch mode rebuilds the table on SQLite (which cannot drop NOT NULL in place; the
    # start-up migrates with foreign keys off) and alters it in place on PostgreSQL. A NULL
    # email never clashes with the unique index on either.
    bind = op.get_bind()
    _refuse_cascading_rebuild(bind)
    seq = _sqlite_sequence(bind)
    with op.batch_alter_table("users", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.alter_column("email", existing_type=sa.String(length=320), nullable=True)
        batch.add_column(
            sa.Column("is_anonymous", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
    _restore_sqlite_sequence(bind, seq)


def downgrade() -> None:
    bind = op.get_bind()
    _refuse_cascading_rebuild(bind)
    op.execute(sa.text("DELETE FROM users WHERE email IS NULL"))
    seq = _sqlite_sequence(bind)
    with op.batch_alter_table("users", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_column("last_seen_at")
        batch.drop_column("is_anonymous")
        batch.alter_column("email", existing_type=sa.String(length=320), nullable=False)
    _restore_sqlite_sequence(bind, seq)
