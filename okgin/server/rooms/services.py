"""What a live room uses outside itself, handed to it once: the stores, the broker, presence,
the computer players' thinking, the wallets, this process's id and whom it tells of its ends.

A frozen bundle rather than a hall to reach into: a room (and a test of one) names exactly
what it needs, and nothing below the rooms' floor is looked up through the registry of rooms.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from okgin.match import Match
from okgin.server.rooms.broker import Broker
from okgin.server.rooms.games import Game
from okgin.server.rooms.presence import LocalPresence, Presence
from okgin.server.rooms.room import Room
from okgin.server.rooms.thinking import Thinking
from okgin.server.store.chips import Wallets
from okgin.server.store.room_store import RoomTable
from okgin.server.store.storage import Store

PROCESS = f"{os.getpid()}-{random.getrandbits(32):08x}"
"""This process among the others serving the same rooms (in the broker's messages, the leases)."""

CoachWork = Callable[[str, Match, Sequence[str], int, str, "int | None", Mapping[str, Any]],
                     Callable[[], dict[str, Any]]]
"""The coach's answer to a hint, advice or review, asked by a seat (named as one asker of the
coach's line; read under the room's lock; the slow part returned, to run in a thread after
it): the coach sits above the rooms and is handed in."""


def _nothing(*_args: Any) -> None:
    """Where a room's news goes when nobody listens for it."""


@dataclass(frozen=True, slots=True)
class RoomServices:
    """Everything a ``LiveRoom`` uses that is not the room itself."""

    rooms: RoomTable[Room]
    wallets: Wallets
    broker: Broker
    thinking: Thinking
    presence: Presence
    coach: CoachWork
    finished: Callable[[str, bool, bool, tuple[int, ...]], None] = _nothing
    """Told (in a worker thread) each game this process saw finish, whether it was a game
    against the computer (solo), whether the coach was allowed at its table, and the seats
    whose people abandoned it (Play online's: ``Room.abandoned``): the app rates it, or marks it
    rated for nobody when the coach was allowed (players/rating_store)."""
    solo_finished: Callable[[str, dict[str, Any]], None] = _nothing
    """Told (in a worker thread) each finished game against the computer with its record: the
    coach keeps its statistics."""
    table_finished: Callable[[str], None] = _nothing
    """Told a tournament's code when one of its tables' match ends here (the tournaments'
    floor listens; it also reads the store, so a table finished elsewhere is not missed)."""
    idle: Callable[[Any], None] = _nothing
    """Told a room that may have nobody left (the hall then lets it go)."""
    process: str = PROCESS

    @property
    def store(self) -> Store:
        return self.rooms.store

    def game_over(self, game: Game, names: list[str], solo: bool, coach: bool,
                  abandoned: tuple[int, ...] = ()) -> None:
        """A finished game: ``finished`` is told (it is rated, unless ``coach``: the coach was
        allowed at its table), and a game against the computer
        gets its statistics (seconds of reviews). In threads: the game no longer changes, and
        nobody waits for them."""
        loop = asyncio.get_running_loop()
        loop.run_in_executor(None, self.finished, game.id, solo, coach, abandoned)
        if solo:
            loop.run_in_executor(None, lambda: self.solo_finished(game.id, game.record(names)))

    @classmethod
    def of(cls, store: Store, broker: Broker, thinking: Thinking, coach: CoachWork,
           presence: Presence | None = None, **callbacks: Any) -> RoomServices:
        """The services over ``store`` (its rooms read back as ``Room``), the rest as given."""
        return cls(RoomTable(store, Room.from_data), Wallets(store.engine), broker, thinking,
                   presence or LocalPresence(), coach, **callbacks)
