"""The game store on SQLite and on a real PostgreSQL: round trips, compare-and-set saves,
and clear one-line errors for a corrupt, locked or unreachable database."""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from real_servers import Postgres, free_port

from okgin.server.store.storage import StorageError, Store, VersionConflict

RECORD = {"format": "okgin/1", "rules": "oklahoma", "players": ["You", "Ruby"], "hands": []}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'games.db'}"
    else:
        url = request.getfixturevalue("postgres").fresh_database()
    opened = Store(url)
    yield opened
    opened.close()


def test_a_game_round_trips_and_each_save_bumps_the_version(store: Store) -> None:
    assert store.create("g1", ["normal"], RECORD) == 1
    played = {**RECORD, "hands": [{"dealer": 0, "actions": ["1 pass"]}]}
    assert store.save("g1", played) == 2
    assert store.save("g1", played, 0, [150, 20], version=2) == 3
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 3 and loaded.record == played
    assert loaded.finished and loaded.winner == 0 and loaded.scores == (150, 20)
    assert [game.id for game in store.finished()] == ["g1"] and store.load("nope") is None


def test_a_save_from_a_stale_version_writes_nothing(store: Store) -> None:
    store.create("g1", ["easy"], RECORD)
    store.save("g1", {**RECORD, "players": ["A", "B"]}, version=1)
    with pytest.raises(VersionConflict):
        store.save("g1", {**RECORD, "players": ["stale", "write"]}, version=1)
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 2 and loaded.record["players"] == ["A", "B"]


def test_of_racing_saves_from_one_version_exactly_one_wins(store: Store) -> None:
    store.create("g1", ["easy"], RECORD)
    start, won, lost = threading.Barrier(8), [], []

    def write(n: int) -> None:
        start.wait()
        try:
            store.save("g1", {**RECORD, "players": [f"w{n}", "x"]}, version=1)
            won.append(n)
        except VersionConflict:
            lost.append(n)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    loaded = store.load("g1")
    assert len(won) == 1 and len(lost) == 7
    assert loaded is not None and loaded.version == 2 and loaded.record["players"][0] == f"w{won[0]}"


def test_a_store_from_before_versions_gets_the_column(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (id VARCHAR(40) PRIMARY KEY, created FLOAT NOT NULL, "
                   "updated FLOAT NOT NULL, status VARCHAR(16) NOT NULL, levels TEXT NOT NULL, "
                   "record TEXT NOT NULL, winner INTEGER, scores TEXT)")
        db.execute("INSERT INTO games VALUES ('old', 1, 1, 'playing', '[\"easy\"]', '{}', NULL, NULL)")
    db.close()
    store = Store(f"sqlite:///{path}")
    loaded = store.load("old")
    assert loaded is not None and loaded.version == 1
    assert store.save("old", RECORD, version=1) == 2
    store.close()


def test_a_corrupt_database_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.db"
    path.write_bytes(b"this is not a database file " * 200)
    with pytest.raises(StorageError) as raised:
        Store(f"sqlite:///{path}")
    assert str(raised.value) == f"cannot open the game store sqlite:///{path}: file is not a database"


def test_a_locked_database_answers_busy_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = Store(f"sqlite:///{path}")
    store.create("g1", ["easy"], RECORD)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageError) as raised:
            store.save("g1", {**RECORD, "players": ["x", "y"]}, version=1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert str(raised.value) == "could not save the game: the store is busy (database is locked); try again"
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 1 and loaded.record == RECORD
    store.close()


@pytest.mark.parametrize("url", ["nonsense", "mysql+nodriver://x/y"])
def test_a_bad_url_is_one_clear_error(url: str) -> None:
    with pytest.raises(StorageError, match=re.escape(f"cannot use {url!r} as the game store: ")):
        Store(url)


def test_an_unreachable_postgresql_is_one_clear_error() -> None:
    url = f"postgresql+psycopg://okgin:secret@127.0.0.1:{free_port()}/okgin"
    with pytest.raises(StorageError) as raised:
        Store(url)
    message = str(raised.value)
    assert message.startswith("cannot open the game store postgresql+psycopg://okgin:***@127.0.0.1:")
    assert "\n" not in message and "secret" not in message


def test_the_postgres_fixture_is_real(postgres: Postgres) -> None:
    store = Store(postgres.fresh_database())
    assert store.engine.dialect.name == "postgresql"
    store.close()
