"""Rooms in the database, saved compare-and-set on their ``version`` with their game's new log rows.

Plain SQLAlchemy Core, the same on SQLite and PostgreSQL. A change writes the room (only if
its version is the one the change was made from) and appends the game's new log rows (only
if the game's version is the one they follow) in one transaction: a conflict writes nothing
and the caller reloads. What a change writes does not grow with the game: the room's row and
a row per action. A database that fails (locked, lost) raises ``StorageError``, one line.
Every call blocks: run it in a thread.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.engine import Connection

from okgin.server.store import chips
from okgin.server.store.db import one_statement
from okgin.server.store.schema import game_log, game_players, games, room_players, rooms
from okgin.server.store.storage import LogRow, Store, compact_json, game_row, storage_errors


class Conflict(Exception):
    """The room or its game was changed by someone else since it was loaded: nothing was written."""


@dataclass(frozen=True, slots=True)
class GameWrite:
    """What a change writes of its game: the log rows after ``version`` (the stored version
    they follow), the game's row when ``new`` (with the record's ``head``), its result when over."""

    id: str
    version: int
    rows: Sequence[LogRow]
    levels: list[str | None] = field(default_factory=list)
    head: dict[str, Any] | None = None
    winner: int | None = None
    scores: tuple[int, ...] | None = None
    stakes: tuple[int, tuple[int, ...]] | None = None
    """A staked game begun: (the stake, the seats staking), taken with the game's first write."""
    payout: Mapping[int, int] | None = None
    """A staked game over: each staking seat's chips, paid with the game's last write."""
    people: tuple[int, ...] = ()
    """A room's new game: its people's seats, whose players (the room's seat rows) become the
    game's in the same transaction."""

    @property
    def new(self) -> bool:
        return self.head is not None

    @property
    def moves_chips(self) -> bool:
        """True when this write moves chips too (then it is one ordinary transaction)."""
        return self.stakes is not None or self.payout is not None


class Saved(Protocol):
    """What the store reads of a room: plain data (the room model is the rooms' floor's)."""

    code: str
    version: int
    game: str | None
    listed: bool
    """An open table: written with the room when it is made and at each change but a move's
    (a move never changes it), so the lists read the listed rooms without opening the others."""

    @property
    def phase(self) -> object: ...

    def to_data(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Saved)


class RoomTable(Generic[R]):
    """The rooms table beside the games, in the same database. A room is saved as its code,
    version, phase, game and ``to_data()``; ``make(code, version, data)`` reads one back."""

    def __init__(self, store: Store, make: Callable[[str, int, dict[str, Any]], R]) -> None:
        self.store = store
        self._make = make
        self.engine = store.engine

    def create(self, room: R, game: GameWrite | None = None, seated: Mapping[int, str] | None = None) -> None:
        """Write a new room (and its first game): ``seated``, the seats' players, with them (in
        its game too, if it has one)."""
        now = time.time()
        with storage_errors("could not save the room"), self.engine.begin() as db:
            db.execute(insert(rooms).values(
                code=room.code, version=room.version, created=now, updated=now,
                phase=str(room.phase), game=room.game, data=compact_json(room.to_data()),
                listed=room.listed,
            ))
            _seat_players(db, room.code, seated)
            if game is not None:
                _write_game(db, game, now)
                if seated:
                    db.execute(insert(game_players), [
                        {"game": game.id, "seat": seat, "player": player} for seat, player in seated.items()])
                _move_chips(db, room.code, game)

    def save(self, room: R, game: GameWrite | None = None, seated: Mapping[int, str] | None = None,
             kept: Sequence[int] | None = None) -> None:
        """Write ``room`` if its stored version is ``room.version``, then bump it. Raises Conflict.

        ``seated``: seats the change gave to players, written in the same transaction (a staked
        game's start reads them there). ``kept``: the room closed up (fewer seats), the old
        numbers of the seats it kept in their new order: its seats' players renumbered so."""
        now = time.time()
        if game is not None and not game.new and not game.moves_chips and not seated and not kept:
            self._save_move(room, game, now)
            room.version += 1
            return
        with storage_errors("could not save the room"), self.engine.begin() as db:
            if game is not None:  # the game's row before the room's, as a move takes them: no deadlock
                _write_game(db, game, now)
            written = db.execute(
                update(rooms)
                .where(rooms.c.code == room.code, rooms.c.version == room.version)
                .values(version=room.version + 1, updated=now, phase=str(room.phase), game=room.game,
                        data=compact_json(room.to_data()), listed=room.listed)
            ).rowcount
            if written != 1:
                raise Conflict(room.code)
            _renumber_seats(db, room.code, kept)
            _seat_players(db, room.code, seated)
            if game is not None:
                _game_players(db, room.code, game)
                _move_chips(db, room.code, game)
        room.version += 1

    def _save_move(self, room: R, game: GameWrite, now: float) -> None:
        """A move's save: the room, the game's row and its new log rows, compare-and-set, as
        driver SQL written once (SQLAlchemy Core built and compiled each statement anew, which
        cost four times the database's own work); on PostgreSQL one prepared statement in
        autocommit, one round trip (in a transaction it took three: BEGIN, it, COMMIT)."""
        params = {
            "code": room.code, "version": room.version, "now": now, "phase": str(room.phase),
            "game": room.game, "data": compact_json(room.to_data()), "game_id": game.id,
            "game_version": game.version, "new_version": game.version + len(game.rows),
            "status": "finished" if game.winner is not None else None, "winner": game.winner,
            "scores": json.dumps(list(game.scores or ())) if game.winner is not None else None,
        }
        if self.engine.dialect.name == "postgresql":
            # As array literals (text): psycopg's list dumper cost a tenth of the move's CPU.
            params["hands"] = "{" + ",".join(str(int(hand)) for hand, _ in game.rows) + "}"
            params["entries"] = text_array(entry for _, entry in game.rows)
            with one_statement(self.engine, "could not save the room") as db:
                counts = tuple(db.execute(_MOVE_POSTGRESQL, params, prepare=True).fetchone())
            if counts != (1, 1):  # (0, 0): the statement wrote nothing
                raise Conflict(room.code)
            return
        with storage_errors("could not save the room"), self.engine.connect() as db:
            written = db.exec_driver_sql(_ROOM_SQL, params).rowcount == 1
            written = written and db.exec_driver_sql(_GAME_SQL, params).rowcount == 1
            if written and game.rows:
                db.exec_driver_sql(_LOG_SQL, [
                    {"game_id": game.id, "seq": game.version + number, "hand": hand, "entry": entry}
                    for number, (hand, entry) in enumerate(game.rows, start=1)
                ])
            if not written:
                db.rollback()
                raise Conflict(room.code)
            db.commit()

    def load(self, code: str) -> R | None:
        with storage_errors("could not read the room"), self.engine.connect() as db:
            row = db.execute(_ROOM, {"code": code}).first()
        return self._room(row._mapping) if row is not None else None

    def version(self, code: str) -> int | None:
        """The stored version of room ``code`` (None: no such room), without reading the room."""
        with storage_errors("could not read the room"), self.engine.connect() as db:
            version: int | None = db.execute(select(rooms.c.version).where(rooms.c.code == code)).scalar()
        return version

    def by_game(self, game_id: str) -> R | None:
        with storage_errors("could not read the room"), self.engine.connect() as db:
            row = db.execute(select(rooms).where(rooms.c.game == game_id)).first()
        return self._room(row._mapping) if row is not None else None

    def listed_rooms(self, phase: str, limit: int) -> list[tuple[R, dict[int, str]]]:
        """The listed rooms (open tables) in ``phase`` ("lobby", "playing"), the last made first, at most
        ``limit``: each with the players of its people's seats (seat: player id)."""
        query = (select(rooms.c.code, rooms.c.version, rooms.c.data)
                 .where(rooms.c.listed.is_(True), rooms.c.phase == phase)
                 .order_by(rooms.c.created.desc()).limit(limit))
        with storage_errors("could not read the open tables"), self.engine.connect() as db:
            found = [self._room(row._mapping) for row in db.execute(query)]
            seated: dict[str, dict[int, str]] = {room.code: {} for room in found}
            if found:
                players = select(room_players).where(room_players.c.room.in_(list(seated)))
                for row in db.execute(players):
                    seated[row.room][int(row.seat)] = str(row.player)
        return [(room, seated[room.code]) for room in found]

    def _room(self, row: Any) -> R:
        return self._make(row["code"], row["version"], json.loads(row["data"]))

    def remove_idle(self, before: float, watched: Sequence[str] = ()) -> list[str]:
        """Delete unfinished rooms and games untouched since ``before``; return the room codes.

        The rooms ``watched`` (someone has them open, though nobody moves) and their games
        count as touched now: they are not abandoned. A removed game's held pool of chips is
        refunded, every stake, in the same transaction."""
        now = time.time()
        stale = (rooms.c.updated < before) & (rooms.c.phase != "finished")
        stale_games = (games.c.updated < before) & (games.c.status != "finished")
        with storage_errors("could not remove abandoned rooms"), self.engine.begin() as db:
            if watched:  # the games' rows first, as a move locks them: no deadlock with one
                kept = rooms.c.code.in_(watched)
                db.execute(update(games).where(games.c.id.in_(
                    select(rooms.c.game).where(kept).scalar_subquery())).values(updated=now))
                db.execute(update(rooms).where(kept).values(updated=now))
            codes = [row.code for row in db.execute(select(rooms.c.code).where(stale))]
            abandoned = [row.id for row in db.execute(select(games.c.id).where(stale_games))]
            for game in chips.held_pools(db, abandoned):  # every stake back, with the game's removal
                chips.refund(db, game)
            db.execute(delete(rooms).where(stale))
            db.execute(delete(game_log).where(game_log.c.game.in_(select(games.c.id).where(stale_games))))
            db.execute(delete(games).where(stale_games))
        return codes


_ROOM = text("SELECT code, version, data FROM rooms WHERE code = :code")
"""A room, as every process reads it after a change another made (written once, as ``_LOG_AFTER``)."""

_ROOM_SQL = """UPDATE rooms SET version = :version + 1, updated = :now, phase = :phase, game = :game,
    data = :data WHERE code = :code AND version = :version"""
_GAME_SQL = """UPDATE games SET version = :new_version, updated = :now, status = COALESCE(:status, status),
    winner = COALESCE(:winner, winner), scores = COALESCE(:scores, scores)
    WHERE id = :game_id AND version = :game_version"""
_LOG_SQL = "INSERT INTO game_log (game, seq, hand, entry) VALUES (:game_id, :seq, :hand, :entry)"
"""A move elsewhere (SQLite, named parameters): the room, the game's row, each new log row."""

_MOVE_POSTGRESQL = """
WITH locked AS (
    SELECT id FROM games WHERE id = %(game_id)s AND version = %(game_version)s FOR UPDATE
), room AS (
    UPDATE rooms SET version = %(version)s + 1, updated = %(now)s, phase = %(phase)s, game = %(game)s,
        data = %(data)s
    WHERE code = %(code)s AND version = %(version)s AND EXISTS (SELECT FROM locked)
    RETURNING code
), game AS (
    UPDATE games SET version = %(new_version)s, updated = %(now)s,
        status = COALESCE(%(status)s::varchar, status), winner = COALESCE(%(winner)s::int, winner),
        scores = COALESCE(%(scores)s::text, scores)
    WHERE id = (SELECT id FROM locked) AND version = %(game_version)s AND EXISTS (SELECT FROM room)
    RETURNING id
), log AS (
    INSERT INTO game_log (game, seq, hand, entry)
    SELECT game.id, %(game_version)s + x.n, x.hand, x.entry
    FROM game, unnest(%(hands)s::int[], %(entries)s::text[]) WITH ORDINALITY AS x(hand, entry, n)
)
SELECT (SELECT count(*) FROM room), (SELECT count(*) FROM game)
"""
"""A move on PostgreSQL, one statement in autocommit (its own transaction: all or nothing, one
round trip): the game's row locked at the version the rows follow, then the room
(compare-and-set), the game's row and its log rows. Counts of the rooms and games written:
(1, 1), or (0, 0) when either was out of date (the game's row is locked before the room is
written, so nobody can move it on between the two: the room is written only with its game)."""


def text_array(texts: Iterable[str]) -> str:
    """``texts`` as a PostgreSQL array literal: each element in double quotes, with backslashes
    and double quotes escaped (so a comma, a brace or the word NULL stays text)."""
    return "{" + ",".join('"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"' for t in texts) + "}"


def _seat_players(db: Connection, room: str, seated: Mapping[int, str] | None) -> None:
    """Each of ``seated``'s seats of ``room`` is its player's (their later games are theirs too)."""
    for seat, player in (seated or {}).items():
        db.execute(delete(room_players).where(room_players.c.room == room, room_players.c.seat == seat))
        db.execute(insert(room_players).values(room=room, seat=seat, player=player))


def _renumber_seats(db: Connection, room: str, kept: Sequence[int] | None) -> None:
    """``room`` closed up: each player of a seat ``kept`` has the seat's new number (its place in
    ``kept``); the players of the seats taken away hold none of ``room``'s seats any more (their
    past games' seats are the games' own rows, unchanged)."""
    if not kept:
        return
    query = select(room_players.c.seat, room_players.c.player).where(room_players.c.room == room)
    held = {int(seat): str(player) for seat, player in db.execute(query)}
    db.execute(delete(room_players).where(room_players.c.room == room))
    moved = [{"room": room, "seat": new, "player": held[old]} for new, old in enumerate(kept) if old in held]
    if moved:
        db.execute(insert(room_players), moved)


def _game_players(db: Connection, room: str, game: GameWrite) -> None:
    """A room's new game: each of its people's seats is the game's seat of the player who took it."""
    if not game.people:
        return
    query = select(room_players.c.seat, room_players.c.player).where(
        room_players.c.room == room, room_players.c.seat.in_(game.people))
    taken = {int(seat): str(player) for seat, player in db.execute(query)}
    if taken:
        db.execute(delete(game_players).where(game_players.c.game == game.id,
                                              game_players.c.seat.in_(list(taken))))
        db.execute(insert(game_players),
                   [{"game": game.id, "seat": seat, "player": player} for seat, player in taken.items()])


def _move_chips(db: Connection, room: str, game: GameWrite) -> None:
    """A staked game's stakes taken (begun) or its pool paid out (over), in the save's transaction."""
    if game.stakes is not None:
        stake, seats = game.stakes
        chips.take_stakes(db, game.id, room, stake, seats)
    if game.payout is not None:
        chips.pay_out(db, game.id, game.payout)


def _write_game(db: Connection, game: GameWrite, now: float) -> None:
    """The game's row (new, or its version moved on: compare-and-set) and its new log rows."""
    version = game.version + len(game.rows)
    result: dict[str, Any] = {}
    if game.winner is not None:
        result = {"status": "finished", "winner": game.winner, "scores": json.dumps(list(game.scores or ()))}
    if game.head is not None:
        db.execute(insert(games).values(game_row(game.id, game.levels, game.head, version, now) | result))
    else:
        written = db.execute(update(games).where(games.c.id == game.id, games.c.version == game.version)
                             .values(updated=now, version=version, **result)).rowcount
        if written != 1:
            raise Conflict(game.id)
    if game.rows:
        db.execute(insert(game_log), [
            {"game": game.id, "seq": game.version + number, "hand": hand, "entry": entry}
            for number, (hand, entry) in enumerate(game.rows, start=1)
        ])

