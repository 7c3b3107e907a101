"""Storage: every game as a game record in a SQL database (SQLite by default, or PostgreSQL).

A game is written before its action is acknowledged, so a reload or a restart resumes it.
Each row has a ``version``; a save given the version it was made from is compare-and-set
(another process wrote first: nothing is written, ``VersionConflict``, the caller reloads).
A database that cannot be opened, is corrupt or is locked raises ``StorageError``: one line.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from okgin.errors import OkginError

DEFAULT_URL = "sqlite:///okgin.db"

_metadata = MetaData()
games_table = Table(
    "games",
    _metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("levels", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("scores", Text, nullable=True),
    # Bumped by every save; a default so writers that do not know it (rooms) still insert.
    Column("version", Integer, nullable=False, default=1, server_default="1"),
)
SQLITE_BUSY_SECONDS = 2.0
"""How long a write waits for a lock held elsewhere before answering "busy" (SQLite)."""


class StorageError(OkginError):
    """The game store cannot be opened or written: the message says why, in one line."""


class VersionConflict(Exception):  # a signal to reload, never shown to a player
    """The row was saved by someone else since it was loaded: nothing was written."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One row: the record (with its hidden deal: never sent while the game goes on)."""

    id: str
    created: float
    updated: float
    finished: bool
    levels: tuple[str, ...]
    record: dict[str, Any]
    winner: int | None
    scores: tuple[int, ...] | None
    version: int = 1


class Store:
    """The games table. Writes commit before returning (WAL on SQLite, so a killed server loses none).

    Safe to call from several threads: each call takes its own pooled connection.
    """

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.engine: Engine = _open(url)
        self.url = self.engine.url.render_as_string(hide_password=True)
        with storage_errors(f"cannot open the game store {self.url}"):
            _metadata.create_all(self.engine)
            _add_version_column(self.engine)

    def create(self, game_id: str, levels: Sequence[str], record: dict[str, Any]) -> int:
        """Insert a new game; return its version (1)."""
        with storage_errors("could not save the game"), self.engine.begin() as db:
            db.execute(insert(games_table).values(new_game_row(game_id, levels, record, time.time())))
        return 1

    def save(
        self,
        game_id: str,
        record: dict[str, Any],
        winner: int | None = None,
        scores: Sequence[int] | None = None,
        *,
        version: int | None = None,
    ) -> int:
        """Write the record; a ``winner`` marks the game finished with its final ``scores``.

        With ``version``, only if the stored row still has it (else VersionConflict, nothing
        written). Returns the new version.
        """
        where = games_table.c.id == game_id
        if version is not None:
            where &= games_table.c.version == version
        values = saved_game_row(record, winner, scores, time.time())
        with storage_errors("could not save the game"), self.engine.begin() as db:
            row = db.execute(update(games_table).where(where).values(values)
                             .returning(games_table.c.version)).first()
        if row is None:
            raise VersionConflict(game_id)
        new_version: int = row[0]
        return new_version

    def load(self, game_id: str) -> StoredGame | None:
        with storage_errors("could not read the game"), self.engine.connect() as db:
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).first()
        return _stored(row._mapping) if row is not None else None

    def finished(self, limit: int = 200) -> list[StoredGame]:
        """The finished games, the latest first."""
        query = (
            select(games_table).where(games_table.c.status == "finished")
            .order_by(games_table.c.updated.desc()).limit(limit)
        )
        with storage_errors("could not read the games"), self.engine.connect() as db:
            return [_stored(row._mapping) for row in db.execute(query)]

    def close(self) -> None:
        self.engine.dispose()


def new_game_row(
    game_id: str, levels: Sequence[str | None], record: dict[str, Any], now: float,
) -> dict[str, Any]:
    """The columns of a new game's row (the rooms table writes games through this too)."""
    return {"id": game_id, "created": now, "updated": now, "status": "playing", "version": 1,
            "levels": json.dumps(list(levels)), "record": compact_json(record)}


def saved_game_row(
    record: dict[str, Any], winner: int | None, scores: Sequence[int] | None, now: float,
) -> dict[str, Any]:
    """The columns a save changes: the record, the version, and the result once finished."""
    values: dict[str, Any] = {
        "updated": now, "record": compact_json(record), "version": games_table.c.version + 1,
    }
    if winner is not None:
        values |= {"status": "finished", "winner": winner, "scores": json.dumps(list(scores or ()))}
    return values


def _open(url: str) -> Engine:
    """The engine for ``url``, its connections set up for a server (or a clear StorageError)."""
    try:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        # pre_ping: a connection the database dropped (restart, failover) is replaced, not used.
        return create_engine(url, pool_pre_ping=True, pool_size=8, max_overflow=8)
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise StorageError(f"cannot use {url!r} as the game store: {_first_line(error)}") from None


@contextlib.contextmanager
def storage_errors(doing: str) -> Iterator[None]:
    """Turn a database failure into a StorageError with one line saying what and why."""
    try:
        yield
    except SQLAlchemyError as error:
        raise StorageError(f"{doing}: {_reason(error)}") from None


def _reason(error: SQLAlchemyError) -> str:
    """The database's own reason, short: "database is locked", "file is not a database"."""
    original = error.orig if isinstance(error, DBAPIError) else None
    reason = _first_line(original) if original is not None else _first_line(error)
    if "locked" in reason or "could not obtain lock" in reason:
        return f"the store is busy ({reason}); try again"
    return reason


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0].strip() if lines else type(error).__name__


def _add_version_column(engine: Engine) -> None:
    """Stores written before versions existed get the column (every row at version 1)."""
    columns = {column["name"] for column in inspect(engine).get_columns("games")}
    if "version" not in columns:
        with engine.begin() as db:
            db.execute(text("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 1"))


def _stored(row: Any) -> StoredGame:
    return StoredGame(
        id=row["id"], created=row["created"], updated=row["updated"],
        finished=row["status"] == "finished", levels=tuple(json.loads(row["levels"])),
        record=json.loads(row["record"]), winner=row["winner"],
        scores=tuple(json.loads(row["scores"])) if row["scores"] else None, version=row["version"],
    )


def compact_json(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
