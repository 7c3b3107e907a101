"""One room this process serves: its lock, the commit of each change, the reload, the broker's
messages and who is here.

A change (a pure command of ``commands``) runs in a worker thread under the room's lock: the
engine checks and applies it, then the room (compare-and-set on its version) and the game
record are saved together. If the save fails the room is reloaded from the store, so an error
always means nothing changed. Every saved change is published on the broker; each process then
pushes fresh per-seat frames (``watchers``) to its own connections (reloading first when the
version is newer than its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import anyio.to_thread

from okgin.actions import PlayerAction
from okgin.errors import OkginError
from okgin.server.rooms import commands
from okgin.server.rooms.autoplay import Autoplay
from okgin.server.rooms.catch_up import stored_game
from okgin.server.rooms.changes import Change, NotSaved, RoomClosed, Stale, game_write
from okgin.server.rooms.commands import Seen
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room, RoomError
from okgin.server.rooms.services import PROCESS, RoomServices
from okgin.server.rooms.stakes import TableStakes
from okgin.server.rooms.turns import turn_deadline
from okgin.server.rooms.watchers import Frames, Spectators, Watcher, make_frames, send
from okgin.server.store.chips import Short
from okgin.server.store.room_store import Conflict
from okgin.server.store.storage import StorageError

log = logging.getLogger("okgin.server")
__all__ = ["PROCESS", "Change", "LiveRoom", "NotSaved", "RoomClosed", "Stale", "Watcher"]


class LiveRoom:
    """One room in this process."""

    def __init__(self, services: RoomServices, room: Room, game: Game | None) -> None:
        self.services = services
        self.room = room
        self.game = game
        self.watchers: set[Watcher] = set()
        self.lock = asyncio.Lock()
        self._pushed = room.version
        self._diverged = False
        self._spectators: Spectators | None = None
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
        if refused is not None:  # the refusal's reload found changes we never heard of: show them
            await self._show_stored(self.room.version)
            raise refused
        if not change.save:
            return change
        services = self.services
        if change.game and self.game is not None and self.game.match.final:
            services.game_over(self.game, list(self.room.names), self.room.solo)
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
        """The change saved, and the frames it shows ``watchers`` (None: nothing to show, or
        the frames failed, and the change stays made: they are made again when it is published).
        One thread job for both: each hop to a worker thread and back costs the event loop too."""
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
            if again and self._behind():
                self._reload()
                return self._mutate_and_save(mutate, again=False)
            raise  # the engine and the room check before they change anything
        except BaseException:
            self._reload()
            raise
        if not change.save:
            return change
        if change.game:  # the room's rule: a person's new turn against the clock gets its deadline
            self.room.deadline = turn_deadline(self.room, self.game, time.time())
        try:
            write = game_write(self.room, self.game, change) if change.game and self.game else None
            self.services.rooms.save(self.room, write, change.seated)
            if write is not None and self.game is not None:
                self.game.saved(len(write.rows))
        except Conflict:
            self._reload()
            if again:
                return self._mutate_and_save(mutate, again=False)
            raise Stale("stale: someone else moved first; look again and retry") from None
        except Short as short:  # a game's stakes, all or none: none were taken
            self._reload()
            name = self.room.names[short.seat]
            raise RoomError(f"{name} has {short.balance} chips, fewer than the stake of {short.stake}: "
                            "lower the stake, or wait for tomorrow's chips") from None
        except StorageError as error:  # a locked or lost database: one line in the log, not a traceback
            log.warning("room %s: %s", self.room.code, error)
            with contextlib.suppress(StorageError):  # if unreadable too, the next change reads it first
                self._reload()
            raise NotSaved("the game could not be saved, so nothing changed: try again") from None
        except BaseException:
            self._reload()
            raise
        return change

    def _behind(self) -> bool:
        """True when the stored room is newer than ours (only asked after a refusal)."""
        stored = self.services.rooms.load(self.room.code)
        return stored is not None and stored.version > self.room.version

    def _reload(self) -> None:
        """Read the room and its game back from the store: the truth after a failed change."""
        self._diverged = True  # until the store is read, memory may hold a change it never took
        room = self.services.rooms.load(self.room.code)
        if room is None:  # removed as abandoned (by another process, or while we were away)
            raise RoomClosed("this room was closed after a long time without a move: start a new game")
        self.room = room
        self.game = stored_game(self.services.store, room.game, self.game)
        self._diverged = False

    # -- commands: what the table does to the room, each one change (see ``commands``) --------

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

    def _frames(self, watchers: list[Watcher], event: str | None) -> Frames:
        """Each watcher's frames (``watchers.make_frames``); what the spectators among them were
        shown is kept for a spectator who asks again."""
        if self._diverged:
            self._reload()
        frames, self._spectators = make_frames(self.room, self.game, watchers, event)
        return frames

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

    async def say(self, seat: int, phrase: str) -> None:
        said = {"seat": seat, "name": self.room.names[seat], "phrase": phrase}
        await self.services.broker.publish(self.channel, {"room": self.room.code, "say": said})

    async def coach(self, seat: int, kind: str, ident: int | None, data: Mapping[str, Any]) -> dict[str, Any]:
        """The coach's answer (``kind``: hint, advice or review; its message's id and fields) for
        ``seat``: read under the lock, worked out in a thread after it, so a slow review never
        holds up the room's moves."""
        async with self.lock:
            game = self.game
            if game is None:
                raise RoomError("the game has not started")
            work = self.services.coach(game.match, self.room.names, seat, kind, ident, data)
        return await anyio.to_thread.run_sync(work)

    # -- attendance -----------------------------------------------------------------------

    async def attach(self, watcher: Watcher) -> None:
        self.watchers.add(watcher)
        if watcher.seat is not None:
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
        if seat is not None and self.room.seats[seat].away_since is not None:
            await self.commit(lambda: commands.came_back(self.room, seat))
        else:
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
        """``watcher`` goes; the room leaves this process's memory when nobody is left, unless
        the same page is ``staying`` (it swaps its window: a spectator who sits, a player who
        leaves the table and watches), or it would come back to a room this process no
        longer serves nor hears."""
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

    async def keep_presence(self) -> None:
        """Mark the seats our connections hold, then mark away the people nobody holds; at a
        tournament's table a computer player takes over from each person away past the grace
        (nobody hosts a tournament's table to ask for it)."""
        await self._hold(sorted({w.seat for w in self.watchers if w.seat is not None}))
        await self.mark_away()
        if self.room.tournament is not None and self.room.phase is Phase.PLAYING:
            now = time.time()
            for seat in range(len(self.room.seats)):
                with contextlib.suppress(OkginError):
                    await self.commit(lambda seat=seat: commands.stand_in(self.room, seat, now))  # type: ignore[misc]

    async def mark_away(self) -> None:
        """Mark away each person whose seat no connection holds, in this process or another."""
        seats = self.room.seats
        present = [i for i, seat in enumerate(seats) if seat.kind == "person" and seat.away_since is None]
        if not present:
            return
        here = {w.seat for w in self.watchers}
        try:
            held = await self.services.presence.held(self.room.code) | here
        except Exception as error:  # Redis down: judge by our own connections only
            log.warning("room %s: could not read who is here: %s", self.room.code, error)
            held = here
        now = time.time()
        for seat in present:
            if seat not in held:
                # If the room moved on or was removed, whoever is here sees it anyway.
                with contextlib.suppress(OkginError):
                    await self.commit(lambda seat=seat: commands.went_away(self.room, seat, now))  # type: ignore[misc]

    @property
    def idle(self) -> bool:
        """Nobody watches and no computer thinks; a tournament's table is kept until its match
        ends (its absent people must be seen away, and stood in for, by ``keep_presence``)."""
        playing_table = self.room.tournament is not None and self.room.phase is Phase.PLAYING
        return not self.watchers and not self.autoplay.busy and not playing_table

    def wake(self) -> None:
        """Start the computer players if one is to act, and the turn timer if it runs."""
        self.autoplay.wake()
