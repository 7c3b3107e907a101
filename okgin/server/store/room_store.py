"""Rooms in the database, saved compare-and-set on their ``version`` with their game's record.

Plain SQLAlchemy Core, the same on SQLite and PostgreSQL. A change writes the room (only if
its version is the one the change was made from) and the game record in one transaction:
a conflict writes nothing and the caller reloads. A database that fails (locked, lost)
raises ``StorageError``, one line. Every call blocks: run it in a thread.
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
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from okgin.server.rooms.room import Room
from okgin.server.store.storage import (
    Store,
    compact_json,
    games_table,
    new_game_row,
    saved_game_row,
    storage_errors,
)

_metadata = MetaData()
rooms_table = Table(
    "rooms",
    _metadata,
    Column("code", String(40), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("phase", String(16), nullable=False),
    Column("game", String(40), nullable=True, index=True),
    Column("data", Text, nullable=False),
)


class Conflict(Exception):
    """The room was changed by someone else since it was loaded: nothing was written."""


@dataclass(frozen=True, slots=True)
class GameWrite:
    """The game row a change writes: created when ``new``, else its record updated."""

    id: str
    record: dict[str, Any]
    levels: list[str | None]
    new: bool = False
    winner: int | None = None
    scores: tuple[int, ...] | None = None


class RoomStore:
    """The rooms table beside the games table, in the same database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        with storage_errors(f"cannot open the game store {store.url}"):
            _metadata.create_all(self.engine)

    def create(self, room: Room, game: GameWrite | None = None) -> None:
        now = time.time()
        with storage_errors("could not save the room"), self.engine.begin() as db:
            db.execute(insert(rooms_table).values(
                code=room.code, version=room.version, created=now, updated=now,
                phase=str(room.phase), game=room.game, data=compact_json(room.to_data()),
            ))
            if game is not None:
                _write_game(db, game, now)

    def save(self, room: Room, game: GameWrite | None = None) -> None:
        """Write ``room`` if its stored version is ``room.version``, then bump it. Raises Conflict."""
        now = time.time()
        with storage_errors("could not save the room"), self.engine.begin() as db:
            written = db.execute(
                update(rooms_table)
                .where(rooms_table.c.code == room.code, rooms_table.c.version == room.version)
                .values(version=room.version + 1, updated=now, phase=str(room.phase), game=room.game,
                        data=compact_json(room.to_data()))
            ).rowcount
            if written != 1:
                raise Conflict(room.code)
            if game is not None:
                _write_game(db, game, now)
        room.version += 1

    def load(self, code: str) -> Room | None:
        with storage_errors("could not read the room"), self.engine.connect() as db:
            row = db.execute(select(rooms_table).where(rooms_table.c.code == code)).first()
        return _room(row._mapping) if row is not None else None

    def version(self, code: str) -> int | None:
        """The stored version of room ``code`` (None: no such room), without reading the room."""
        with storage_errors("could not read the room"), self.engine.connect() as db:
            version: int | None = db.execute(
                select(rooms_table.c.version).where(rooms_table.c.code == code)).scalar()
        return version

    def by_game(self, game_id: str) -> Room | None:
        with storage_errors("could not read the room"), self.engine.connect() as db:
            row = db.execute(select(rooms_table).where(rooms_table.c.game == game_id)).first()
        return _room(row._mapping) if row is not None else None

    def remove_idle(self, before: float, watched: Sequence[str] = ()) -> list[str]:
        """Delete unfinished rooms and games untouched since ``before``; return the room codes.

        The rooms ``watched`` (someone has them open, though nobody moves) and their games
        count as touched now: they are not abandoned."""
        now = time.time()
        stale = (rooms_table.c.updated < before) & (rooms_table.c.phase != "finished")
        with storage_errors("could not remove abandoned rooms"), self.engine.begin() as db:
            if watched:
                kept = rooms_table.c.code.in_(watched)
                db.execute(update(rooms_table).where(kept).values(updated=now))
                db.execute(update(games_table).where(games_table.c.id.in_(
                    select(rooms_table.c.game).where(kept).scalar_subquery())).values(updated=now))
            codes = [row.code for row in db.execute(select(rooms_table.c.code).where(stale))]
            db.execute(delete(rooms_table).where(stale))
            db.execute(delete(games_table).where(
                (games_table.c.updated < before) & (games_table.c.status != "finished")))
        return codes


def _write_game(db: Connection, game: GameWrite, now: float) -> None:
    if game.new:
        db.execute(insert(games_table).values(new_game_row(game.id, game.levels, game.record, now)))
    else:
        values = saved_game_row(game.record, game.winner, game.scores, now)
        db.execute(update(games_table).where(games_table.c.id == game.id).values(values))


def _room(row: Any) -> Room:
    return Room.from_data(row["code"], row["version"], json.loads(row["data"]))
