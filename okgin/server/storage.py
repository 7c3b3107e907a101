"""Storage: every game as a game record in a SQL database (SQLite by default).

A game is written before its action is acknowledged, so a reload or a restart resumes it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
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
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

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
)


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


class Store:
    """The games table. Writes commit before returning (WAL, so a killed server loses none)."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        _metadata.create_all(self.engine)
        # One connection kept open and one prepared statement: a save is on every action.
        self._connection = self.engine.connect()
        self._save = update(games_table).where(games_table.c.id == bindparam("game_id")).values(
            updated=bindparam("updated"), record=bindparam("record"),
        )

    def create(self, game_id: str, levels: Sequence[str], record: dict[str, Any]) -> None:
        now = time.time()
        with self.engine.begin() as db:
            db.execute(insert(games_table).values(
                id=game_id, created=now, updated=now, status="playing",
                levels=json.dumps(list(levels)), record=_compact(record),
            ))

    def save(
        self,
        game_id: str,
        record: dict[str, Any],
        winner: int | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        """Write the record; a ``winner`` marks the game finished with its final ``scores``."""
        if winner is None:
            values = {"game_id": game_id, "updated": time.time(), "record": _compact(record)}
            self._connection.execute(self._save, values)
            self._connection.commit()
            return
        with self.engine.begin() as db:
            db.execute(update(games_table).where(games_table.c.id == game_id).values(
                updated=time.time(), record=_compact(record), status="finished", winner=winner,
                scores=json.dumps(list(scores or ())),
            ))

    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as db:
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).first()
        return _stored(row._mapping) if row is not None else None

    def finished(self, limit: int = 200) -> list[StoredGame]:
        """The finished games, the latest first."""
        query = (
            select(games_table).where(games_table.c.status == "finished")
            .order_by(games_table.c.updated.desc()).limit(limit)
        )
        with self.engine.connect() as db:
            return [_stored(row._mapping) for row in db.execute(query)]

    def close(self) -> None:
        self._connection.close()
        self.engine.dispose()


def _stored(row: Any) -> StoredGame:
    return StoredGame(
        id=row["id"], created=row["created"], updated=row["updated"],
        finished=row["status"] == "finished", levels=tuple(json.loads(row["levels"])),
        record=json.loads(row["record"]), winner=row["winner"],
        scores=tuple(json.loads(row["scores"])) if row["scores"] else None,
    )


def _compact(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
