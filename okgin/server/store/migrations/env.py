"""Alembic's environment: run the migrations on the connection ``okgin.server.store.migrate`` hands in."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from okgin.server.store.schema import metadata

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("run the migrations with `okgin db upgrade`, which opens the database for them")
# render_as_batch: SQLite alters a table by copying it, which Alembic's batch mode does.
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
