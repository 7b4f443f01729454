"""Ids that are never handed out twice; a session secret per person; a cache key per group.

SQLite gave a deleted row's id to the next row whenever that row had the highest id,
so a saved session of a deleted account could sign in as the next new account, a
stale correction could reach a newer round, and caches keyed by a group id could
serve a deleted group's statistics to a new group. After this migration:

- every table with an integer surrogate key (users, login attempts, groups,
  players, games, rounds) counts ids without reuse: on SQLite the table is
  rebuilt with ``AUTOINCREMENT`` (rows, constraints, indexes and foreign keys
  kept; ``sqlite_sequence`` seeded with the current highest id); on PostgreSQL
  the serial column becomes an identity column that continues where its sequence
  stood;
- ``users.session_secret`` holds a random value that every session token is
  signed with (a new value ends every session of that person);
- ``groups.cache_key`` holds a random, unique value that caches of the group's
  data are keyed by instead of its id.

On SQLite the rebuild must run with foreign keys off (dropping a parent table with
them on would cascade); ``dutch_app.storage.db.migrating`` provides that.

Revision ID: 0003_never_reused_ids
Revises: 0002
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_never_reused_ids"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("users", "login_attempts", "groups", "players", "games", "rounds")
NEW_COLUMNS = {"users": "session_secret", "groups": "cache_key"}


def _backfill(bind: sa.Connection, table: str, column: str) -> None:
    """Give every existing row its own random value."""
    ids = bind.execute(sa.text(f"SELECT id FROM {table}")).scalars().all()  # noqa: S608
    update = sa.text(f"UPDATE {table} SET {column} = :value WHERE id = :id")  # noqa: S608
    for row_id in ids:
        bind.execute(update, {"value": secrets.token_hex(32), "id": row_id})


def _refuse_cascading_rebuild(bind: sa.Connection) -> None:
    """A rebuild with foreign keys on would delete child rows: refuse it unless all is empty."""
    if not bind.exec_driver_sql("PRAGMA foreign_keys").scalar():
        return
    for table in TABLES:
        if bind.execute(sa.text(f"SELECT 1 FROM {table} LIMIT 1")).first():  # noqa: S608
            raise RuntimeError(
                "This migration rebuilds SQLite tables and must run with foreign keys off; "
                "run it through the app's start-up or `alembic upgrade`, not on an open "
                "connection with foreign keys on."
            )


def _seed_sequence(bind: sa.Connection, table: str) -> None:
    highest = bind.execute(sa.text(f"SELECT MAX(id) FROM {table}")).scalar()  # noqa: S608
    bind.execute(sa.text("DELETE FROM sqlite_sequence WHERE name = :t"), {"t": table})
    if highest is not None:
        bind.execute(
            sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES (:t, :seq)"),
            {"t": table, "seq": highest},
        )


def _next_value(bind: sa.Connection, table: str) -> int:
    """Where the id sequence of ``table`` stands: the next id it would hand out."""
    sequence = bind.execute(
        sa.text("SELECT pg_get_serial_sequence(:t, 'id')"), {"t": table}
    ).scalar_one()
    last, called = bind.execute(
        sa.text(f"SELECT last_value, is_called FROM {sequence}")  # noqa: S608 - a catalog name
    ).one()
    highest = bind.execute(
        sa.text(f"SELECT COALESCE(MAX(id), 0) FROM {table}")  # noqa: S608 - a fixed name
    ).scalar_one()
    return max(last + 1 if called else last, highest + 1)


def upgrade() -> None:
    bind = op.get_bind()
    for table, column in NEW_COLUMNS.items():
        op.add_column(table, sa.Column(column, sa.String(length=64), nullable=True))
        _backfill(bind, table, column)
    if bind.dialect.name == "sqlite":
        _refuse_cascading_rebuild(bind)
        for table in TABLES:
            with op.batch_alter_table(
                table, recreate="always", table_kwargs={"sqlite_autoincrement": True}
            ) as batch:
                if table in NEW_COLUMNS:
                    batch.alter_column(
                        NEW_COLUMNS[table], existing_type=sa.String(length=64), nullable=False
                    )
                if table == "groups":
                    batch.create_unique_constraint("uq_groups_cache_key", ["cache_key"])
            _seed_sequence(bind, table)
        return
    for table, column in NEW_COLUMNS.items():
        op.alter_column(table, column, existing_type=sa.String(length=64), nullable=False)
    op.create_unique_constraint("uq_groups_cache_key", "groups", ["cache_key"])
    for table in TABLES:
        start = _next_value(bind, table)
        sequence = bind.execute(
            sa.text("SELECT pg_get_serial_sequence(:t, 'id')"), {"t": table}
        ).scalar_one()
        op.execute(f"ALTER TABLE {table} ALTER COLUMN id DROP DEFAULT")
        op.execute(f"DROP SEQUENCE {sequence}")
        op.execute(
            f"ALTER TABLE {table} ALTER COLUMN id "
            f"ADD GENERATED BY DEFAULT AS IDENTITY (START WITH {int(start)})"
        )


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        _refuse_cascading_rebuild(bind)
        for table in TABLES:
            with op.batch_alter_table(
                table, recreate="always", table_kwargs={"sqlite_autoincrement": False}
            ) as batch:
                if table == "groups":
                    batch.drop_constraint("uq_groups_cache_key", type_="unique")
                if table in NEW_COLUMNS:
                    batch.drop_column(NEW_COLUMNS[table])
            bind.execute(sa.text("DELETE FROM sqlite_sequence WHERE name = :t"), {"t": table})
        return
    for table in TABLES:
        start = _next_value(bind, table)
        op.execute(f"ALTER TABLE {table} ALTER COLUMN id DROP IDENTITY")
        op.execute(f"CREATE SEQUENCE {table}_id_seq OWNED BY {table}.id START WITH {int(start)}")
        op.execute(f"ALTER TABLE {table} ALTER COLUMN id SET DEFAULT nextval('{table}_id_seq')")
    op.drop_constraint("uq_groups_cache_key", "groups", type_="unique")
    for table, column in NEW_COLUMNS.items():
        op.drop_column(table, column)
