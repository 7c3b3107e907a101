"""Games put in the store from a record, as the server writes them: a solo room and its game's log."""

from __future__ import annotations

from typing import Any

from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.store.room_store import GameWrite, RoomTable
from okgin.server.store.storage import Store


def store_record(store: Store, game_id: str, record: dict[str, Any], levels: list[str]) -> Game:
    """Store ``record`` as game ``game_id`` of a new room against ``levels``; finished if it is."""
    game = Game.from_record(game_id, record)
    room, _ = Room.solo_game(game.match.rules, levels)
    room.game = game.id
    room.games.append(game.id)
    final = game.match.final
    if final is not None:
        room.finish()
    rows = game.unsaved()
    RoomTable(store, Room.from_data).create(room, GameWrite(
        game.id, 0, rows, room.levels(), head=game.head(record["players"]),
        winner=final.winner if final else None, scores=final.scores if final else None))
    game.saved(len(rows))
    return game
