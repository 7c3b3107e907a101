"""The game store on SQLite and on a real PostgreSQL: the action log (a row per action, the record
put together from it, catching up reads only what is new), compare-and-set between two processes,
and clear one-line errors for a corrupt, locked or unreachable database."""

from __future__ import annotations

import multiprocessing
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest
from real_servers import Postgres, free_port

from okgin.rules import preset
from okgin.server.rooms.catch_up import catch_up
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.store import db
from okgin.server.store.migrate import head
from okgin.server.store.room_store import Conflict, GameWrite, RoomTable
from okgin.server.store.storage import StorageError, Store

NAMES = ["You", "Ruby"]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return str(request.getfixturevalue("postgres").fresh_database())


def new_solo(store: Store, seed: int = 2) -> tuple[RoomTable[Room], Room, Game]:
    """A stored solo room against `easy` and its new game, as the server makes them."""
    rooms = RoomTable(store, Room.from_data)
    game = Game.deal(preset("oklahoma"), seed=seed)
    room, _ = Room.solo_game(game.match.rules, ["easy"])
    room.game = game.id
    rows = game.unsaved()
    rooms.create(room, GameWrite(game.id, 0, rows, room.levels(), head=game.head(NAMES)))
    game.saved(len(rows))
    return rooms, room, game


def step(game: Game, rng: random.Random) -> None:
    """One legal move (or the next deal when the hand is over)."""
    hand = game.match.current
    if hand is None:
        game.next_hand()
    else:
        game.apply(rng.choice(hand.legal_actions()))


def save(rooms: RoomTable[Room], room: Room, game: Game) -> int:
    """Save what the game has that the store has not; return how many log rows that was."""
    rows = game.unsaved()
    rooms.save(room, GameWrite(game.id, game.version, rows))
    game.saved(len(rows))
    return len(rows)


def test_each_action_is_one_row_and_the_record_is_put_together_from_them(url: str) -> None:
    store = Store(url)
    rooms, room, game = new_solo(store)
    rng = random.Random(1)
    written = []
    while len(game.match.hands) < 3:
        step(game, rng)
        written.append(save(rooms, room, game))
    loaded = store.load(game.id)
    store.close()
    assert loaded is not None and loaded.record == game.record(NAMES)
    assert loaded.version == game.version == sum(1 + len(hand.actions) for hand in game.match.hands)
    assert set(written) == {1}  # an action is a row, and so is a deal, however long the game


def test_a_process_catching_up_reads_only_the_rows_after_its_version(url: str) -> None:
    store = Store(url)
    rooms, room, game = new_solo(store)
    stored = store.load(game.id)
    assert stored is not None
    behind = Game.from_record(stored.id, stored.record, stored.version)
    rng = random.Random(5)
    while len(game.match.hands) < 2 or len(game.match.hands[-1].actions) < 3:
        step(game, rng)
        save(rooms, room, game)
    rows = store.log_after(game.id, behind.version)
    store.close()
    assert len(rows) == game.version - behind.version
    assert catch_up(behind, rows) and behind.version == game.version
    assert behind.record(NAMES) == game.record(NAMES)
    assert not catch_up(behind, rows)  # the same rows again do not follow: the caller reloads


def _race(url: str, code: str, seed: int, start: Any, answers: Any) -> None:
    """One process's move: load the room and game, play a move, save it (at the barrier)."""
    store = Store(url)
    rooms = RoomTable(store, Room.from_data)
    room, stored = rooms.load(code), None
    assert room is not None and room.game is not None
    stored = store.load(room.game)
    assert stored is not None
    game = Game.from_record(stored.id, stored.record, stored.version)
    hand = game.match.current
    assert hand is not None
    legal = hand.legal_actions()
    game.apply(legal[seed % len(legal)])
    start.wait()
    try:
        answers.put((seed, save(rooms, room, game)))
    except Conflict:
        answers.put((seed, "out of date"))
    store.close()


@pytest.mark.slow
def test_of_two_processes_moving_at_the_same_moment_one_wins_and_nothing_else_changes(url: str) -> None:
    store = Store(url)
    _, room, game = new_solo(store)
    before = store.load(game.id)
    context = multiprocessing.get_context("spawn")
    start, answers = context.Barrier(2), context.Queue()
    racers = [context.Process(target=_race, args=(url, room.code, seed, start, answers)) for seed in (0, 1)]
    for racer in racers:
        racer.start()
    results = dict(answers.get(timeout=120) for _ in racers)
    for racer in racers:
        racer.join()
    after = store.load(game.id)
    store.close()
    assert sorted(results.values(), key=str) == [1, "out of date"]
    assert before is not None and after is not None and after.version == before.version + 1
    won = next(seed for seed, answer in results.items() if answer == 1)
    legal = game.match.current.legal_actions()  # type: ignore[union-attr]
    assert after.record["hands"][0]["actions"] == [str(legal[won % len(legal)])]


def test_a_new_store_is_made_at_the_head_revision(url: str) -> None:
    store = Store(url)
    with store.engine.connect() as db:
        (revision,) = db.exec_driver_sql("SELECT version_num FROM alembic_version").one()
    store.close()
    assert revision == head()
    Store(url).close()  # opened again: already there


def test_a_corrupt_database_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.db"
    path.write_bytes(b"this is not a database file " * 200)
    with pytest.raises(StorageError) as raised:
        Store(f"sqlite:///{path}")
    assert str(raised.value) == f"cannot open the game store sqlite:///{path}: file is not a database"


@pytest.mark.slow
def test_a_locked_database_answers_busy_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = Store(f"sqlite:///{path}")
    rooms, room, game = new_solo(store)
    step(game, random.Random(3))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageError) as raised:
            save(rooms, room, game)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert str(raised.value) == "could not save the room: the store is busy (database is locked); try again"
    loaded = store.load(game.id)
    assert loaded is not None and loaded.version == 1 and loaded.record["hands"][0]["actions"] == []
    store.close()


@pytest.mark.parametrize("bad", ["nonsense", "mysql+nodriver://x/y"])
def test_a_bad_url_is_one_clear_error(bad: str) -> None:
    with pytest.raises(StorageError, match=re.escape(f"cannot use {bad!r} as the game store: ")):
        Store(bad)


def test_an_unreachable_postgresql_is_one_clear_error() -> None:
    unreachable = f"postgresql+psycopg://okgin:secret@127.0.0.1:{free_port()}/okgin"
    with pytest.raises(StorageError) as raised:
        Store(unreachable)
    message = str(raised.value)
    assert message.startswith("cannot open the game store postgresql+psycopg://okgin:***@127.0.0.1:")
    assert "\n" not in message and "secret" not in message


def test_the_postgres_fixture_is_real(postgres: Postgres) -> None:
    store = Store(postgres.fresh_database())
    assert store.engine.dialect.name == "postgresql"
    store.close()


def test_a_connection_postgresql_dropped_while_idle_is_replaced(
    postgres: Postgres, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A restart or a failover drops the pool's connections: the next use pings the idle one,
    finds it gone and takes a new one, so the player sees no error."""
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.0)
    url = postgres.fresh_database()
    store = Store(url)
    _, _, game = new_solo(store)
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as other:
        dropped = other.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()
    assert dropped is not None and dropped[0] >= 1  # the pool's idle connection is gone
    loaded = store.load(game.id)
    store.close()
    assert loaded is not None and loaded.version == game.version
