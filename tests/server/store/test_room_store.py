"""Rooms in the store: compare-and-set saves (on SQLite and PostgreSQL), and abandoned unfinished
games removed."""

from __future__ import annotations

import json
import time
from dataclasses import fields

import pytest
from real_servers import Postgres
from sqlalchemy import create_engine, text

from okgin.rules import preset
from okgin.server.players.identity import Players
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room, Seat
from okgin.server.rooms.seats import matches
from okgin.server.store.room_store import Conflict, GameWrite, RoomTable, text_array
from okgin.server.store.storage import StorageError, Store


def solo_room(url: str) -> tuple[Store, RoomTable[Room], Game, Room, str]:
    """A store holding one solo room (a person against `easy`) and its new game."""
    store = Store(url)
    rooms = RoomTable(store, Room.from_data)
    game = Game.deal(preset("oklahoma"), seed=2)
    room, token = Room.solo_game(game.match.rules, ["easy"])
    room.game = game.id
    rows = game.unsaved()
    rooms.create(room, GameWrite(game.id, 0, rows, room.levels(), head=game.head(room.names)))
    game.saved(len(rows))
    return store, rooms, game, room, token


def test_saves_are_compare_and_set_and_idle_games_go(store_url: str) -> None:
    store, rooms, game, room, token = solo_room(store_url)
    first, second = rooms.load(room.code), rooms.load(room.code)
    assert first is not None and second is not None and first.version == 0
    assert matches(token, first.seats[0].token_hash) and token not in str(first.to_data())
    rooms.save(first)
    assert first.version == 1
    with pytest.raises(Conflict):
        rooms.save(second)  # made from version 0: nothing written
    assert rooms.by_game(game.id) == first
    lobby, _ = Room.create(preset("oklahoma"), 2, "Ann")
    rooms.create(lobby)
    assert sorted(rooms.remove_idle(time.time() - 3600)) == []
    assert sorted(rooms.remove_idle(time.time() + 1)) == sorted([room.code, lobby.code])
    assert rooms.load(room.code) is None and store.load(game.id) is None
    assert store.log_after(game.id, 0) == []  # its log went with it
    store.close()


def test_a_room_appends_its_games_new_rows_compare_and_set(store_url: str) -> None:
    """A change writes the game's new log rows after the version it was made from (its version
    grows by the rows), a finished game carries its winner and scores, and rows made from an
    out-of-date version write nothing, the room included."""
    store, rooms, game, room, _ = solo_room(store_url)
    created = store.load(game.id)
    game.apply(game.match.current.legal_actions()[0])  # type: ignore[union-attr]
    rooms.save(room, GameWrite(game.id, game.version, game.unsaved()))
    game.saved(1)
    saved = store.load(game.id)
    stale = GameWrite(game.id, game.version - 1, [(1, "1 pass")])
    with pytest.raises(Conflict):
        rooms.save(room, stale)
    assert rooms.version(room.code) == room.version  # nothing written, the room neither
    rooms.save(room, GameWrite(game.id, game.version, [], winner=1, scores=(20, 170)))
    finished = store.load(game.id)
    store.close()
    assert created is not None and saved is not None and finished is not None
    assert (created.version, saved.version, finished.version) == (1, 2, 2)
    assert created.levels == (None, "easy") and saved.record == game.record(room.names)
    assert not saved.finished and finished.finished
    assert (finished.winner, finished.scores) == (1, (20, 170))


def test_a_move_from_an_out_of_date_room_writes_nothing(store_url: str) -> None:
    """The room's compare-and-set holds on its own: rows that follow the game's stored version
    but come with an out-of-date room write neither the room, nor the game, nor its log."""
    store, rooms, game, room, _ = solo_room(store_url)
    other = rooms.load(room.code)
    assert other is not None
    rooms.save(other)  # another process changed the room (a seat, say): version 1
    game.apply(game.match.current.legal_actions()[0])  # type: ignore[union-attr]
    with pytest.raises(Conflict):
        rooms.save(room, GameWrite(game.id, game.version, game.unsaved()))
    stored = store.load(game.id)
    assert rooms.version(room.code) == 1 and room.version == 0
    assert stored is not None and stored.version == game.version == 1
    assert store.log_after(game.id, 1) == []
    store.close()


def test_a_move_whose_connection_was_cut_is_not_saved_and_the_next_one_is(postgres: Postgres) -> None:
    """A pooled connection the database dropped (a restart, a failover): the move's save is a
    one-line StorageError and writes nothing; the broken connection leaves the pool, so the
    same move saved again goes through on a new one."""
    import psycopg

    store, rooms, game, room, _ = solo_room(postgres.fresh_database())
    game.apply(game.match.current.legal_actions()[0])  # type: ignore[union-attr]
    rooms.save(room, GameWrite(game.id, game.version, game.unsaved()))
    game.saved(1)
    database = store.engine.url.database
    with psycopg.connect(postgres.url(str(database)).replace("postgresql+psycopg", "postgresql"),
                         autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = %s AND pid <> pg_backend_pid()", (database,))
    game.apply(game.match.current.legal_actions()[0])  # type: ignore[union-attr]
    write = GameWrite(game.id, game.version, game.unsaved())
    with pytest.raises(StorageError, match=r"^could not save the room: ") as refused:
        rooms.save(room, write)
    assert "\n" not in str(refused.value)
    assert room.version == 1 and rooms.version(room.code) == 1
    rooms.save(room, write)
    game.saved(1)
    stored = store.load(game.id)
    store.close()
    assert room.version == 2 and stored is not None and stored.version == 3
    assert stored.record == game.record(room.names)


def test_a_room_and_every_field_of_its_seats_read_back_as_saved() -> None:
    room, _ = Room.create(preset("oklahoma-big-gin").replace(target=200), 3, "Ann", timer=30)
    room.seats[1] = Seat("person", "Ben", None, "a-hash", 12.5, "easy", False)
    room.seats[2] = Seat("computer", "Kit", "hard", None, None, None, True)
    room.deadline = 99.5
    assert set(room.seats[1].to_data()) == {f.name for f in fields(Seat)}
    back = Room.from_data(room.code, room.version, json.loads(json.dumps(room.to_data())))
    assert back == room and back.rules_json() == room.rules.to_json() != "oklahoma-big-gin"


def test_log_rows_of_any_text_read_back_from_their_array_literal_as_written(postgres: Postgres) -> None:
    """A move's log rows go to PostgreSQL as array literals (``text_array``): commas, braces,
    quotes, backslashes and the word NULL in an entry stay the entry's own text."""
    entries = ["1 discard KH", "a,b", "{x}", "NULL", "back\\slash", 'quote"d', "", "é ♠ \n"]
    engine = create_engine(postgres.fresh_database())
    literal = text_array(entries)
    with engine.connect() as db:
        back = db.execute(text("SELECT CAST(:entries AS text[])"), {"entries": literal}).scalar()
    engine.dispose()
    assert back == entries


def test_the_seats_players_are_written_in_the_rooms_own_transaction(store_url: str) -> None:
    """The players a change seats are written with the room's save (a staked start reads them
    in its own), a change that lost the compare-and-set writes none, and a room's new game
    makes each person's seat the game's seat of the player who took it, in the same write."""
    store = Store(store_url)
    rooms, players = RoomTable(store, Room.from_data), Players(store.engine)
    lobby, _ = Room.create(preset("oklahoma"), 2, "Ann")
    rooms.create(lobby, None, {0: "p-ann"})
    stale = rooms.load(lobby.code)
    assert stale is not None and players.seat_in_room("p-ann", lobby.code) == 0
    lobby.sit(1, "Ben")
    rooms.save(lobby, None, {1: "p-ben"})
    stale.sit(1, "Cy")
    with pytest.raises(Conflict):
        rooms.save(stale, None, {1: "p-cy"})
    assert players.seat_in_room("p-ben", lobby.code) == 1 and players.seat_in_room("p-cy", lobby.code) is None
    game = Game.deal(lobby.rules, seed=3)
    lobby.start(0, game.id)
    rows = game.unsaved()
    rooms.save(lobby, GameWrite(game.id, 0, rows, lobby.levels(), head=game.head(lobby.names), people=(0, 1)))
    assert players.games_of("p-ann") == {game.id: 0} and players.games_of("p-ben") == {game.id: 1}
    store.close()
