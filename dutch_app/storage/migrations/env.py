"""Alembic environment: migrates the connection handed over by the app, or the configured URL."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from dutch_app.config import database_url as configured_database_url
from dutch_app.storage.db import make_engine, migrating
from dutch_app.storage.models import Base

config = context.config
target_metadata = Base.metadata

if config.config_file_name is not None and config.attributes.get("connection") is None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def database_url() -> str:
    """``-x database_url=...`` on the command line, else the app's configured URL."""
    return context.get_x_argument(as_dictionary=True).get("database_url") or (
        configured_database_url()
    )


def run_on(connection: Connection) -> None:
    """Run the pending migrations on an open connection."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate the app's connection if it gave one, else a fresh engine for the URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    engine = make_engine(database_url())
    try:
        with migrating(engine) as fresh:
            run_on(fresh)
    finally:
        engine.dispose()


def run_offline() -> None:
    """Print the SQL instead of running it (``alembic upgrade head --sql``)."""
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
