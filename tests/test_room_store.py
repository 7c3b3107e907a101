"""Rooms in the store: compare-and-set saves, and abandoned unfinished games removed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from okgin.rules import preset
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.rooms.seats import matches
from okgin.server.store.room_store import Conflict, GameWrite, RoomStore
from okgin.server.store.storage import Store


def solo_room(tmp_path: Path) -> tuple[Store, RoomStore, Game, Room, str]:
    """A store holding one solo room (a person against `easy`) and its new game."""
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    rooms = RoomStore(store)
    game = Game.deal(preset("oklahoma"), seed=2)
    room, token = Room.solo_game(game.match.rules, ["easy"])
    room.game = game.id
    rows = game.unsaved()
    rooms.create(room, GameWrite(game.id, 0, rows, room.levels(), head=game.head(room.names)))
    game.saved(len(rows))
    return store, rooms, game, room, token


def test_saves_are_compare_and_set_and_idle_games_go(tmp_path: Path) -> None:
    store, rooms, game, room, token = solo_room(tmp_path)
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


def test_a_room_appends_its_games_new_rows_compare_and_set(tmp_path: Path) -> None:
    """A change writes the game's new log rows after the version it was made from (its version
    grows by the rows), a finished game carries its winner and scores, and rows made from an
    out-of-date version write nothing, the room included."""
    store, rooms, game, room, _ = solo_room(tmp_path)
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
