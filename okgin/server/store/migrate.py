"""The store's schema, kept by Alembic from code: `okgin db upgrade`, and the server's check at start.

A store is at the head revision, or older (the server refuses it, one line saying to run
`okgin db upgrade`), or empty (a new machine: made at the head at once, so `make play` just
works). Every step runs in one transaction holding the store's write lock (PostgreSQL: an
advisory lock; SQLite: ``BEGIN IMMEDIATE``), so two processes starting at once on one new
store make it once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

from okgin.server.store.db import StorageError, open_engine, storage_errors
from okgin.server.store.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
HEAD = "0020"
"""The newest revision (``migrations/versions``; a test checks Alembic agrees): a server at
the head starts without importing Alembic."""
_LOCK = 715_015
"""PostgreSQL advisory lock key held while the schema is read or changed."""


class OldSchema(StorageError):
    """The store was made by an older (or newer) okgin: `okgin db upgrade` brings it to the head."""


def head() -> str:
    """The newest revision this okgin knows, as Alembic reads it from the migrations."""
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def upgrade(url: str) -> tuple[str | None, str]:
    """Bring the store at ``url`` to the head revision in place; return (revision before, after)."""
    from alembic import command

    engine = open_engine(url)
    try:
        with storage_errors(f"could not upgrade the game store {_shown(engine)}"), _locked(engine) as db:
            before = _revision(db)
            command.upgrade(alembic_config(db), "head")
            after = _revision(db)
            db.commit()
    finally:
        engine.dispose()
    assert after is not None
    return before, after


def ready(engine: Engine) -> None:
    """Check the store is at the head (an empty one is made there); else raise OldSchema."""
    with storage_errors(f"cannot open the game store {_shown(engine)}"), _locked(engine) as db:
        current = _revision(db)
        if current == HEAD:
            return
        if current is None and not {*metadata.tables} & set(inspect(db).get_table_names()):
            from alembic import command

            command.upgrade(alembic_config(db), "head")
            db.commit()
            return
    shown = _shown(engine)
    if current is not None and current > HEAD:
        raise OldSchema(f"the game store {shown} is at schema {current}, newer than this okgin's {HEAD}: "
                        "run a newer okgin")
    raise OldSchema(f"the game store {shown} is in an older schema ({current or 'before 0001'}): "
                    f"run `okgin db upgrade --db {shown}` first")


@contextlib.contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that holds the store's write lock until it ends (a commit,
    or the rollback of whatever was not committed when the connection closes)."""
    with engine.connect() as db:
        if engine.dialect.name == "sqlite":
            db.exec_driver_sql("BEGIN IMMEDIATE")
        elif engine.dialect.name == "postgresql":
            db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        yield db


def alembic_config(db: Connection | None = None) -> Config:
    """Alembic's configuration for the migrations, run on ``db`` (a connection in a transaction)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = db
    return config


def _revision(db: Connection) -> str | None:
    """The store's revision (read as Alembic keeps it: one row of ``alembic_version``)."""
    if not inspect(db).has_table("alembic_version"):
        return None
    revision: str | None = db.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return revision


def _shown(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)
