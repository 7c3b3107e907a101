"""One room this process serves, an actor: its lock, each change committed, the reload, the
broker's messages and who is here. A change (a pure command of ``commands``) runs in a worker
thread under the lock; the room (compare-and-set on its version) and its game are saved together,
and a failed save reloads the room, so an error always means nothing changed. Every saved change
is published; each process pushes fresh per-seat frames (``watchers``) to its own connections
(reloading first when the version is newer than its own)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import anyio.to_thread

from okgin.errors import OkginError
from okgin.server.rooms import commands
from okgin.server.rooms.autoplay import Autoplay
from okgin.server.rooms.catch_up import stored_game
from okgin.server.rooms.changes import Change, NotSaved, RoomClosed, Stale, save_change
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room
from okgin.server.rooms.services import PROCESS, RoomServices
from okgin.server.rooms.table import TableCommands
from okgin.server.rooms.watchers import Frames, Spectators, Watcher, follow_seats, make_frames, send
from okgin.server.store.room_store import Conflict
from okgin.server.store.storage import StorageError

log = logging.getLogger("okgin.server")
__all__ = ["PROCESS", "Change", "LiveRoom", "NotSaved", "RoomClosed", "Stale", "Watcher"]


class LiveRoom(TableCommands):
    """One room in this process (what the table asks of it: ``TableCommands``)."""

    def __init__(self, services: RoomServices, room: Room, game: Game | None) -> None:
        self.services = services
        self.room = room
        self.game = game
        self.watchers: set[Watcher] = set()
        self.lock = asyncio.Lock()
        self._pushed = room.version
        self._diverged = False
        self._spectators: Spectators | None = None
        self._moved = False
        """Watchers moved to new seats (``follow_seats``) since their seats were last held."""
        self.autoplay = Autoplay(self)

    @property
    def channel(self) -> str:
        return f"room:{self.room.code}"

    # -- changes --------------------------------------------------------------------------

    async def commit(self, mutate: Callable[[], Change]) -> Change:
        """Run ``mutate``, save, and make this process's watchers' frames, in one thread job;
        send them; publish the change (for the other processes); wake the computer players."""
        refused: OkginError | None = None
        async with self.lock:
            before, watchers = self.room.version, list(self.watchers)
            try:
                change, frames = await anyio.to_thread.run_sync(self._change, mutate, watchers)
            except OkginError as error:
                if self.room.version <= before:
                    raise
                refused = error
            else:
                if frames is not None:  # shown here, made in the change's own job: not again when published
                    self._pushed = self.room.version
                    send(watchers, frames)
            await self._hold_moved()
        if refused is not None:  # the refusal's reload found changes we never heard of: show them
            await self._show_stored(self.room.version)
            raise refused
        if not change.save:
            return change
        services = self.services
        if change.game and self.game is not None and self.game.match.final:
            services.game_over(self.game, list(self.room.names), self.room.solo, self.room.coach,
                               self.room.abandoned())
        self.autoplay.arm_timer()  # the new turn's deadline (saved with the change, in its frames)
        await services.broker.publish(self.channel, {
            "room": self.room.code, "version": self.room.version, "event": change.event,
            "from": services.process,
        })
        self.wake()
        if self.room.tournament is not None and self.room.phase is Phase.FINISHED and change.game:
            services.table_finished(self.room.tournament)
        return change

    def _change(self, mutate: Callable[[], Change], watchers: list[Watcher]) -> tuple[Change, Frames | None]:
        """The change saved, and the frames it shows ``watchers`` (None: nothing to show, or the
        frames failed: they are made again when it is published). One thread job for both."""
        change = self._mutate_and_save(mutate)
        if not change.save:
            return change, None
        try:
            return change, self._frames(watchers, change.event)
        except Exception:
            log.exception("room %s: could not make the frames of %s", self.room.code, change.event)
            self._spectators = None
            return change, None

    def _mutate_and_save(self, mutate: Callable[[], Change], again: bool = True) -> Change:
        # Another process may have changed the room since we last heard (its broker message
        # is still on the way): a refusal or a conflict is then judged once more on the
        # stored room, so a move is never refused for what this process had not yet seen.
        if self._diverged:
            self._reload()
        try:
            change = mutate()
            if change.dealt is not None:
                self.game = change.dealt
        except OkginError:
            stored = self.services.rooms.load(self.room.code) if again else None
            if stored is not None and stored.version > self.room.version:  # we are behind
                self._reload()
                return self._mutate_and_save(mutate, again=False)
            raise  # the engine and the room check before they change anything
        except BaseException:
            self._reload()
            raise
        if not change.save:
            return change
        try:
            save_change(self.services, self.room, self.game, change)
        except Conflict:
            self._reload()
            if again:
                return self._mutate_and_save(mutate, again=False)
            raise Stale("stale: someone else moved first; look again and retry") from None
        except NotSaved:
            with contextlib.suppress(StorageError):  # if unreadable too, the next change reads it first
                self._reload()
            raise
        except BaseException:
            self._reload()
            raise
        return change

    def _reload(self) -> None:
        """Read the room and its game back from the store: the truth after a failed change."""
        self._diverged = True  # until the store is read, memory may hold a change it never took
        room = self.services.rooms.load(self.room.code)
        if room is None:  # removed as abandoned (by another process, or while we were away)
            raise RoomClosed("this room was closed after a long time without a move: start a new game")
        self.room = room
        self.game = stored_game(self.services.store, room.game, self.game)
        self._diverged = False

    # -- frames ---------------------------------------------------------------------------

    async def on_message(self, message: dict[str, Any]) -> None:
        """A broker message about this room: bring it up to date and show it to our watchers."""
        if "say" in message:
            for watcher in list(self.watchers):
                watcher.send({"type": "said", **message["say"]})
            return
        if message.get("sync"):  # another process just listened: it may have missed our last change
            await self.services.broker.publish(self.channel, {
                "room": self.room.code, "version": self.room.version, "from": self.services.process,
            })
            return
        if message.get("check"):  # just subscribed: was a change published before we heard?
            try:
                stored = await anyio.to_thread.run_sync(self.services.rooms.version, self.room.code)
            except StorageError as error:  # the next change reads the store anyway
                log.warning("room %s: %s", self.room.code, error)
                return
            if stored is None or stored <= self._pushed:
                return
            message = {"room": self.room.code, "version": stored}
        version = int(message.get("version", 0))
        if version <= self._pushed and not message.get("resync"):
            return  # shown already (our own change, heard back; a broker may deliver twice)
        async with self.lock:
            if message.get("resync"):  # the broker was down: events may be missed, read the store
                await anyio.to_thread.run_sync(self._reload)
                version = self.room.version
                self._pushed = version - 1  # show it again: our watchers may have missed it
            if version > self.room.version:
                await anyio.to_thread.run_sync(self._reload)
            if version <= self._pushed:
                return  # already shown (a broker may deliver a message twice)
            self._pushed = version
            watchers = list(self.watchers)
            frames = await anyio.to_thread.run_sync(self._frames, watchers, message.get("event"))
            send(watchers, frames)
            await self._hold_moved()
        await self._back_here()

    async def _back_here(self) -> None:
        """Mark present again each seat a page here holds that another process marked away (it
        read who holds the seat just before this page came in, and marked it after)."""
        for seat in self.seats_here():
            if self.room.seats[seat].away_since is not None:
                with contextlib.suppress(OkginError):  # the room moved on or was removed: all see it
                    await self.commit(lambda seat=seat: commands.came_back(self.room, seat))  # type: ignore[misc]

    def _frames(self, watchers: list[Watcher], event: str | None) -> Frames:
        """Each watcher's frames (``watchers.make_frames``); what the spectators among them were
        shown is kept for a spectator who asks again."""
        if self._diverged:
            self._reload()
        self._moved = follow_seats(self.room, watchers) or self._moved
        frames, self._spectators = make_frames(self.room, self.game, watchers, event)
        return frames

    async def _hold_moved(self) -> None:
        """Watchers moved to new seats (the room closed up): their new seats held at once, so no
        process marks their people away in the meantime."""
        if self._moved:
            self._moved = False
            await self._hold(self.seats_here())

    async def show(self, watcher: Watcher) -> None:
        """Send one watcher the room and the game as they are now. A spectator is sent what the
        spectators were last sent, without the lock (unless the room has moved on since)."""
        kept = self._spectators
        if watcher.seat is None and kept is not None and kept.version == self.room.version \
                and not self._diverged:
            again = kept.frames_for(watcher)
            if again is not None:
                send([watcher], [again])
                return
        async with self.lock:
            frames = await anyio.to_thread.run_sync(self._frames, [watcher], None)
            send([watcher], frames)

    # -- attendance -----------------------------------------------------------------------

    async def attach(self, watcher: Watcher) -> None:
        self.watchers.add(watcher)
        if watcher.seat is not None:
            watcher.holds = self.room.seats[watcher.seat].token_hash
            await self._hold([watcher.seat])
        try:
            stored = await anyio.to_thread.run_sync(self.services.rooms.version, self.room.code)
        except StorageError as error:  # show what we hold; the next change reads the store anyway
            log.warning("room %s: %s", self.room.code, error)
            stored = None
        caught_up = False
        if stored is not None and stored > self.room.version:
            await self._show_stored(stored)
            caught_up = True
        seat = watcher.seat
        # Under the lock: a leaving page's mark (``mark_away``) may be waiting for it.
        if seat is not None and (await self.commit(lambda: commands.came_back(self.room, seat))).save:
            return
        if not caught_up:
            await self.show(watcher)
        self.wake()

    async def _show_stored(self, version: int) -> None:
        """Reload a newer stored version and show it to every watcher. A process killed between
        saving a change and publishing it leaves the others behind until the next event: a
        player coming back through another process (or a refused change) must not wait for it."""
        await self.on_message({"room": self.room.code, "version": version})
        self.wake()

    async def detach(self, watcher: Watcher, staying: bool = False) -> None:
        """``watcher`` goes; the room leaves this process's memory when nobody is left, unless the
        same page is ``staying`` (it swaps its window: a spectator who sits, a player who leaves
        the table and watches), or it would come back to a room this process no longer hears."""
        self.watchers.discard(watcher)
        seat = watcher.seat
        still_here = any(other.seat == seat for other in self.watchers)
        if seat is not None and not still_here:
            with contextlib.suppress(Exception):  # Redis down: the mark runs out by itself
                await self.services.presence.release(self.room.code, seat)
            await self.mark_away()
        if not staying:
            self.services.idle(self)

    async def _hold(self, seats: list[int]) -> None:
        try:
            await self.services.presence.hold(self.room.code, seats)
        except Exception as error:  # Redis down: our seats count as held by us alone meanwhile
            log.warning("room %s: could not mark who is here: %s", self.room.code, error)

    def seats_here(self) -> list[int]:
        """The seats this process's connections hold."""
        return sorted({w.seat for w in self.watchers if w.seat is not None})

    async def keep_presence(self, held: set[int]) -> None:
        """Mark away the people nobody holds (``held``: the seats held by every process, as the
        hall read them for all its rooms at once); at a tournament's or Play online's table a
        computer player takes over from each person away past the grace (nobody hosts such a
        table to ask for it)."""
        await self.mark_away(held)
        if self.room.phase is Phase.PLAYING:
            now = time.time()
            for seat in [s for s in range(len(self.room.seats)) if self.room.due_stand_in(s, now)]:
                with contextlib.suppress(OkginError):
                    await self.commit(lambda seat=seat: commands.stand_in(self.room, seat, now))  # type: ignore[misc]

    async def mark_away(self, seen: set[int] | None = None) -> None:
        """Mark away each person whose seat no connection holds, in this process or another.
        ``seen``: seats known to be held a moment ago; when they cover everyone, nothing is read
        (a person missing from them is looked for again before being marked away)."""
        seats = self.room.seats
        present = [i for i, seat in enumerate(seats) if seat.kind == "person" and seat.away_since is None]
        here = {w.seat for w in self.watchers}
        if not present or (seen is not None and set(present) <= seen | here):
            return
        try:
            held = await self.services.presence.held(self.room.code) | here
        except Exception as error:  # Redis down: judge by our own connections only
            log.warning("room %s: could not read who is here: %s", self.room.code, error)
            held = here
        now = time.time()
        for seat in present:
            if seat not in held:
                with contextlib.suppress(OkginError):  # the room moved on or was removed: all see it
                    await self.commit(lambda seat=seat: self._went_away(seat, now))  # type: ignore[misc]

    def _went_away(self, seat: int, now: float) -> Change:
        """``seat`` marked away, unless a page came in for it here since ``mark_away`` looked
        (a page swapped for another: the new one's ``attach`` found it present and let it be).
        Run under the lock, in the change's thread job: the watchers are copied in one step."""
        if any(watcher.seat == seat for watcher in tuple(self.watchers)):
            return Change(save=False)
        return commands.went_away(self.room, seat, now)

    @property
    def idle(self) -> bool:
        """Nobody watches and no computer thinks; a tournament's table is kept until its match
        ends (its absent people must be seen away, and stood in for, by ``keep_presence``)."""
        playing_table = self.room.tournament is not None and self.room.phase is Phase.PLAYING
        return not self.watchers and not self.autoplay.busy and not playing_table

    def wake(self) -> None:
        """Start the computer players if one is to act, and the turn timer if it runs."""
        self.autoplay.wake()
