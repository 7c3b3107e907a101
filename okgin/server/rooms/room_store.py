"""The rooms' store: the store's rooms table, reading each row back as a ``Room``."""

from __future__ import annotations

from okgin.server.rooms.room import Room
from okgin.server.store.room_store import RoomTable
from okgin.server.store.storage import Store


class RoomStore(RoomTable[Room]):
    """Rooms saved and read back as the room model (the store itself saves plain data)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store, Room.from_data)
