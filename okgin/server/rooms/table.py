"""What the table asks of a live room: each of its commands (``commands``, pure) run through
the room's one ``commit``, and the coach's answers, read under the room's lock."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from okgin.actions import PlayerAction
from okgin.server.rooms import commands
from okgin.server.rooms.changes import Change
from okgin.server.rooms.commands import Seen
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room, RoomError
from okgin.server.rooms.services import RoomServices
from okgin.server.rooms.stakes import TableStakes


class TableCommands:
    """The commands of a ``LiveRoom``, as the socket, the computer players and the timer call
    them: each one change, committed (saved, shown and published) by the room."""

    room: Room
    game: Game | None
    lock: asyncio.Lock
    services: RoomServices

    if TYPE_CHECKING:
        async def commit(self, mutate: Callable[[], Change]) -> Change: ...

        @property
        def channel(self) -> str: ...

    async def sit(self, seat: int, name: object, player: str | None = None) -> Change:
        """Take ``seat`` (for ``player``, if known: written with the room); the change carries
        the seat's token (the one saved, if it was re-run)."""
        return await self.commit(lambda: commands.sit(self.room, seat, name, player))  # type: ignore[arg-type]

    async def set_computer(self, by: int | None, seat: int, level: object) -> Change:
        return await self.commit(
            lambda: commands.computer(self.room, by, seat, level, time.time()))  # type: ignore[arg-type]

    async def clear(self, by: int | None, seat: int) -> Change:
        return await self.commit(lambda: commands.clear(self.room, by, seat))

    async def leave(self, seat: int) -> Change:
        """A person leaves the table for good (a computer player takes the seat)."""
        return await self.commit(lambda: commands.leave(self.room, seat))

    async def set_stakes(self, by: int | None, stake: object, split: object, cutoff: object) -> Change:
        """Host, in the lobby: the table's stake and prize rule, each seated person's chips read
        for the command in its own job."""
        def stakes() -> Change:
            table = TableStakes.read(stake, split, cutoff)
            wallets, room = self.services.wallets, self.room
            room.may_set_stakes(by)  # refused before the store is read, as ever
            return commands.stakes(room, by, table, wallets.seat_players(room.code), wallets.balance)
        return await self.commit(stakes)

    async def begin(self, by: int | None, seed: int | None, rematch: bool) -> Change:
        """Start the room's game (or a rematch with the same seats): a fresh deal, saved with the room."""
        return await self.commit(lambda: commands.begin(self.room, by, seed, rematch))

    async def apply(self, seat: int, action: str | PlayerAction, seen: Seen | None = None) -> Change:
        """Play ``seat``'s move: a person's text, or a computer player's (or the turn timer's)
        decision with ``seen``, the game and moves it was made on (refused as Stale if the
        game has moved on since)."""
        return await self.commit(lambda: commands.play(self.room, self.game, seat, action, seen))

    async def next_hand(self, seen: object) -> Change:
        """Deal the next hand. ``seen``: the hand number the asker saw end (another may have asked first)."""
        return await self.commit(lambda: commands.next_hand(self.room, self.game, seen))

    async def coach(self, seat: int, kind: str, ident: int | None, data: Mapping[str, Any]) -> dict[str, Any]:
        """The coach's answer (``kind``: hint, advice or review; its message's id and fields) for
        ``seat``: read under the lock, worked out in a thread after it, so a slow review never
        holds up the room's moves."""
        async with self.lock:
            if kind != "review":  # a finished hand's review is no help in play: never refused
                self.room.may_coach()
            game = self.game
            if game is None:
                raise RoomError("the game has not started")
            asker = f"seat {seat} of table {self.room.code}"
            work = self.services.coach(asker, game.match, self.room.names, seat, kind, ident, data)
        return await anyio.to_thread.run_sync(work)

    async def say(self, seat: int, phrase: str) -> None:
        said = {"seat": seat, "name": self.room.names[seat], "phrase": phrase}
        await self.services.broker.publish(self.channel, {"room": self.room.code, "say": said})
