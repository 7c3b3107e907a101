"""Every live room of this process, loaded from the store on first use and dropped when idle:
the registry of rooms. What the rooms use outside themselves is their ``RoomServices``."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time

import anyio.to_thread

from okgin.rules import Rules
from okgin.server.rooms.games import Game
from okgin.server.rooms.live import LiveRoom
from okgin.server.rooms.presence import REFRESH
from okgin.server.rooms.room import Room
from okgin.server.rooms.services import RoomServices
from okgin.server.store.room_store import GameWrite
from okgin.server.store.storage import Store

log = logging.getLogger("okgin.server")


class Hall:
    """Every live room of this process, loaded from the store on first use."""

    def __init__(self, services: RoomServices) -> None:
        self.services = dataclasses.replace(services, idle=self.forget_if_idle)
        """Each room's services: the ones given, with this hall told when a room may be idle."""
        self._live: dict[str, LiveRoom] = {}

    @property
    def store(self) -> Store:
        """The games' store the rooms are saved in (the socket reads the players' chips there)."""
        return self.services.store

    def __len__(self) -> int:
        return len(self._live)

    async def get(self, code: str) -> LiveRoom | None:
        if code in self._live:
            return self._live[code]
        room = await anyio.to_thread.run_sync(self.services.rooms.load, code)
        return await self._keep(room) if room is not None else None

    async def by_game(self, game_id: str) -> LiveRoom | None:
        for live in self._live.values():
            if live.room.game == game_id:
                return live
        room = await anyio.to_thread.run_sync(self.services.rooms.by_game, game_id)
        if room is None or room.game != game_id:
            return None
        return self._live.get(room.code) or await self._keep(room)

    async def solo(
        self, rules: Rules, levels: list[str], seed: int | None, player: str | None = None,
    ) -> tuple[LiveRoom, str]:
        """A game against the computer: a room of its own, the person at seat 0 (and its token;
        ``player``, if known, written as that seat's with the room)."""
        game = await anyio.to_thread.run_sync(Game.deal, rules, seed)
        room, token = Room.solo_game(rules, levels)
        room.game = game.id
        room.games.append(game.id)
        return await self.create(room, game, {0: player} if player is not None else None), token

    async def open(
        self, rules: Rules, players: int, name: object, timer: object, away_grace: float,
        player: str | None = None, coach: bool = False, listed: bool = False,
    ) -> tuple[LiveRoom, str]:
        """A room for friends, its host at seat 0 (and its token; ``player``, if known, written
        as that seat's with the room); nobody has been dealt yet. ``coach``: the host allows it;
        ``listed``: an open table, listed for anyone to join."""
        room, token = Room.create(rules, players, name, timer, away_grace, coach,  # type: ignore[arg-type]
                                  listed)
        return await self.create(room, None, {0: player} if player is not None else None), token

    async def create(self, room: Room, game: Game | None, seated: dict[int, str] | None = None) -> LiveRoom:
        """Store a new room (and its first game, and the players ``seated``) and serve it."""
        write = None
        if game is not None:
            write = GameWrite(game.id, 0, game.unsaved(), room.levels(), head=game.head(room.names))
        await anyio.to_thread.run_sync(self.services.rooms.create, room, write, seated)
        if game is not None and write is not None:
            game.saved(len(write.rows))
        return self._serve(LiveRoom(self.services, room, game))

    async def _keep(self, room: Room) -> LiveRoom:
        store = self.services.store
        stored = await anyio.to_thread.run_sync(store.load, room.game) if room.game else None
        game = await anyio.to_thread.run_sync(
            Game.from_record, stored.id, stored.record, stored.version) if stored else None
        if room.code in self._live:  # loaded twice at once: keep the first
            return self._live[room.code]
        return self._serve(LiveRoom(self.services, room, game))

    def _serve(self, live: LiveRoom) -> LiveRoom:
        self._live[live.room.code] = live
        self.services.broker.subscribe(live.channel, live.on_message)
        return live

    def serving(self, live: LiveRoom) -> LiveRoom:
        """The room as this process serves it now: ``live``, served again if it was let go
        while a page was on its way to it (its last watcher left meanwhile), or the one loaded
        since. A page attached to a room let go would hear nothing of the others' changes."""
        current = self._live.get(live.room.code)
        return self._serve(live) if current is None else current

    def forget_if_idle(self, live: LiveRoom) -> None:
        """Drop a room from memory once nobody watches it and no computer thinks (it stays stored)."""
        if live.idle and self._live.get(live.room.code) is live:
            del self._live[live.room.code]
            self.services.broker.unsubscribe(live.channel, live.on_message)

    async def keep_presence(self) -> None:
        """For ever: every REFRESH seconds, mark who is here in every room we serve and read who
        is anywhere (all rooms at once: one call each, not two a room), then let each room mark
        away the people nobody holds."""
        while True:
            await asyncio.sleep(REFRESH)
            lives = list(self._live.values())
            held = await self._refresh(lives)
            for live in lives:
                try:
                    await live.keep_presence(held.get(live.room.code, set()))
                except Exception:
                    log.exception("room %s: keeping presence failed", live.room.code)

    async def _refresh(self, lives: list[LiveRoom]) -> dict[str, set[int]]:
        """Mark the seats our connections hold in ``lives``; the seats held anywhere, by room
        (nothing known if the presence cannot be reached: each room then looks for itself)."""
        presence = self.services.presence
        try:
            await presence.hold_all({live.room.code: live.seats_here() for live in lives})
            return await presence.held_all([live.room.code for live in lives])
        except Exception as error:  # Redis down: our seats count as held by us alone meanwhile
            log.warning("could not mark who is here: %s", error)
            return {}

    async def sweep(self, idle_seconds: float) -> list[str]:
        """Remove unfinished rooms and games nobody has touched for ``idle_seconds`` (a room a
        connection here watches is not abandoned, however long its players think)."""
        watched = [code for code, live in self._live.items() if live.watchers]
        removed = await anyio.to_thread.run_sync(
            self.services.rooms.remove_idle, time.time() - idle_seconds, watched)
        for code in removed:
            live = self._live.pop(code, None)
            if live is not None:
                self.services.broker.unsubscribe(live.channel, live.on_message)
        return removed
