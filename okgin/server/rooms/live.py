"""The rooms this process serves: each room's game, watchers, lock and computer players.

A change runs in a worker thread under the room's lock: the engine checks and applies it,
then the room (compare-and-set on its version) and the game record are saved together. If
the save fails the room is reloaded from the store, so an error always means nothing changed.
Every saved change is published on the broker; each process then pushes fresh per-seat
frames to its own connections (reloading first when the version is newer than its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from okgin.actions import PlayerAction
from okgin.bots import Player
from okgin.errors import OkginError
from okgin.server.coach import statistics
from okgin.server.coach.answers import coach_work
from okgin.server.rooms.broker import Broker
from okgin.server.rooms.catch_up import catch_up
from okgin.server.rooms.games import Game
from okgin.server.rooms.presence import REFRESH, LocalPresence, Presence
from okgin.server.rooms.room import Phase, Room, RoomError
from okgin.server.rooms.thinking import Thinking, computer_player
from okgin.server.store.room_store import Conflict, GameWrite, RoomStore
from okgin.server.store.storage import StorageError
from okgin.server.wire.codes import Code
from okgin.server.wire.messages import Message

log = logging.getLogger("okgin.server")
PROCESS = f"{os.getpid()}-{random.getrandbits(32):08x}"

Send = Callable[[dict[str, Any]], None]


class Watcher:
    """One connection's window on a room: its seat (None: a spectator) and where frames go.

    ``only_game``: a spectator who came by a game's id, not the room's link: shown that game
    and nothing else (never the room's code, nor its next game)."""

    def __init__(
        self, send: Send, seat: int | None, coach: bool = False, only_game: str | None = None,
    ) -> None:
        self.send = send
        self.seat = seat
        self.coach = coach
        self.only_game = only_game


@dataclass(slots=True)
class Change:
    """What a change did: the event shown to the table, and whether the game row is written."""

    event: str | None = None
    game: bool = False
    new_game: bool = False
    save: bool = True
    token: str | None = None
    """A seat token the change made: a change re-run after a conflict makes a new one."""


class Stale(RoomError):
    """A change made on a stale copy: someone else changed the room first (a computer
    player's decision about a game that has moved on, or a save that lost the race)."""

    code = Code.STALE


class NotSaved(RoomError):
    """The store failed (locked, lost): nothing was saved."""

    code = Code.NOT_SAVED


class RoomClosed(RoomError):
    """The room was removed after a long time without a move."""

    code = Code.ROOM_CLOSED


class LiveRoom:
    """One room in this process."""

    def __init__(self, hall: Hall, room: Room, game: Game | None) -> None:
        self.hall = hall
        self.room = room
        self.game = game
        self.watchers: set[Watcher] = set()
        self.lock = asyncio.Lock()
        self._pushed = room.version
        self._bots: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timed: tuple[str, int, tuple[int, int]] | None = None
        self._players: dict[tuple[int, str], Player] = {}
        self._diverged = False

    @property
    def channel(self) -> str:
        return f"room:{self.room.code}"

    # -- changes --------------------------------------------------------------------------

    async def commit(self, mutate: Callable[[], Change]) -> Change:
        """Run ``mutate`` and save, in a thread; publish the change; wake the computer players."""
        refused: OkginError | None = None
        async with self.lock:
            before = self.room.version
            try:
                change = await anyio.to_thread.run_sync(self._mutate_and_save, mutate)
            except OkginError as error:
                if self.room.version <= before:
                    raise
                refused = error
        if refused is not None:  # the refusal's reload found changes we never heard of: show them
            await self._show_stored(self.room.version)
            raise refused
        if not change.save:
            return change
        if change.game and self.room.solo and self.game is not None and self.game.match.final:
            self._record_results(self.game)
        self._arm_timer()  # before the frames are made: they carry the new turn's deadline
        await self.hall.broker.publish(self.channel, {
            "room": self.room.code, "version": self.room.version, "event": change.event, "from": PROCESS,
        })
        self.wake()
        return change

    def _mutate_and_save(self, mutate: Callable[[], Change], again: bool = True) -> Change:
        # Another process may have changed the room since we last heard (its broker message
        # is still on the way): a refusal or a conflict is then judged once more on the
        # stored room, so a move is never refused for what this process had not yet seen.
        if self._diverged:
            self._reload()
        try:
            change = mutate()
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
        if change.game:
            self.room.deadline = self._deadline()
        try:
            write = self._game_write(change) if change.game else None
            self.hall.rooms.save(self.room, write)
            if write is not None and self.game is not None:
                self.game.saved(len(write.rows))
        except Conflict:
            self._reload()
            if again:
                return self._mutate_and_save(mutate, again=False)
            raise Stale("stale: someone else moved first; look again and retry") from None
        except StorageError as error:  # a locked or lost database: one line in the log, not a traceback
            log.warning("room %s: %s", self.room.code, error)
            with contextlib.suppress(StorageError):  # if unreadable too, the next change reads it first
                self._reload()
            raise NotSaved("the game could not be saved, so nothing changed: try again") from None
        except BaseException:
            self._reload()
            raise
        return change

    def _record_results(self, game: Game) -> None:
        """A finished game against the computer: its statistics (seconds of reviews, in a thread;
        the game no longer changes, and nobody waits for them)."""
        engine, names = self.hall.store.engine, list(self.room.names)
        asyncio.get_running_loop().run_in_executor(
            None, lambda: statistics.record_finished(engine, game.id, game.record(names)))

    def _behind(self) -> bool:
        """True when the stored room is newer than ours (only asked after a refusal)."""
        stored = self.hall.rooms.load(self.room.code)
        return stored is not None and stored.version > self.room.version

    def _game_write(self, change: Change) -> GameWrite:
        game = self.game
        assert game is not None
        final = game.match.final
        return GameWrite(
            game.id, game.version, game.unsaved(), self.room.levels(),
            head=game.head(self.room.names) if change.new_game else None,
            winner=final.winner if final else None, scores=final.scores if final else None,
        )

    def _reload(self) -> None:
        """Read the room and its game back from the store: the truth after a failed change."""
        self._diverged = True  # until the store is read, memory may hold a change it never took
        room = self.hall.rooms.load(self.room.code)
        if room is None:  # removed as abandoned (by another process, or while we were away)
            raise RoomClosed("this room was closed after a long time without a move: start a new game")
        self.room = room
        game, store = self.game, self.hall.store
        if room.game is None:
            self.game = None
        elif game is None or game.id != room.game or not catch_up(
                game, store.log_after(game.id, game.version)):
            stored = store.load(room.game)
            self.game = Game.from_record(stored.id, stored.record, stored.version) if stored else None
        self._diverged = False

    # -- frames ---------------------------------------------------------------------------

    async def on_message(self, message: dict[str, Any]) -> None:
        """A broker message about this room: bring it up to date and show it to our watchers."""
        if "say" in message:
            for watcher in list(self.watchers):
                watcher.send({"type": "said", **message["say"]})
            return
        version = int(message.get("version", 0))
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
        for watcher, sent in zip(watchers, frames, strict=True):
            for frame in sent:
                watcher.send(frame)

    def _frames(self, watchers: list[Watcher], event: str | None) -> list[list[dict[str, Any]]]:
        """Each watcher's room and state messages; one state per distinct (seat, coach)."""
        if self._diverged:
            self._reload()
        made: dict[tuple[int | None, bool], dict[str, Any]] = {}
        out: list[list[dict[str, Any]]] = []
        if event and not (event[0].isdigit() or event in ("deal", "reshuffle")):
            event = None  # a room's own event (a seat taken, someone away): not a move to show
        for watcher in watchers:
            if watcher.only_game is not None and watcher.only_game != self.room.game:
                out.append([])  # came by an earlier game's id: not carried into the next one
                continue
            sent = [self.room_frame(watcher.seat, watcher.only_game is None)]
            if self.game is not None:
                key = (watcher.seat, watcher.coach)
                if key not in made:
                    made[key] = self.game.frame(watcher.seat, self.room.names, self.room.levels(),
                                                watcher.coach, event)
                sent.append(made[key])
            out.append(sent)
        return out

    def room_frame(self, seat: int | None, linked: bool = True) -> dict[str, Any]:
        """The room for ``seat``; its code only for someone who holds the link (``linked``)."""
        frame = self.room.public(seat)
        frame["deadline"] = self.room.deadline if self._turn() is not None else None
        if not linked:
            frame["code"] = None
        return frame

    async def show(self, watcher: Watcher) -> None:
        """Send one watcher the room and the game as they are now."""
        async with self.lock:
            (frames,) = await anyio.to_thread.run_sync(self._frames, [watcher], None)
        for frame in frames:
            watcher.send(frame)

    async def say(self, seat: int, phrase: str) -> None:
        said = {"seat": seat, "name": self.room.names[seat], "phrase": phrase}
        await self.hall.broker.publish(self.channel, {"room": self.room.code, "say": said})

    async def coach(self, seat: int, message: Message) -> dict[str, Any]:
        """The coach's answer (hint, advice, review) for ``seat``: read under the lock, worked
        out in a thread after it, so a slow review never holds up the room's moves."""
        async with self.lock:
            game = self.game
            if game is None:
                raise RoomError("the game has not started")
            work = coach_work(game.match, self.room.names, seat, message)
        return await anyio.to_thread.run_sync(work)

    # -- watchers -------------------------------------------------------------------------

    async def attach(self, watcher: Watcher) -> None:
        self.watchers.add(watcher)
        if watcher.seat is not None:
            await self._hold([watcher.seat])
        try:
            stored = await anyio.to_thread.run_sync(self.hall.rooms.version, self.room.code)
        except StorageError as error:  # show what we hold; the next change reads the store anyway
            log.warning("room %s: %s", self.room.code, error)
            stored = None
        caught_up = False
        if stored is not None and stored > self.room.version:
            await self._show_stored(stored)
            caught_up = True
        seat = watcher.seat
        if seat is not None and self.room.seats[seat].away_since is not None:
            await self.commit(lambda: self._came_back(seat))
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

    def _came_back(self, seat: int) -> Change:
        self.room.came_back(seat)
        return Change("back")

    async def detach(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        seat = watcher.seat
        still_here = any(other.seat == seat for other in self.watchers)
        if seat is not None and not still_here:
            with contextlib.suppress(Exception):  # Redis down: the mark runs out by itself
                await self.hall.presence.release(self.room.code, seat)
            await self.mark_away()
        self.hall.forget_if_idle(self)

    async def _hold(self, seats: list[int]) -> None:
        try:
            await self.hall.presence.hold(self.room.code, seats)
        except Exception as error:  # Redis down: our seats count as held by us alone meanwhile
            log.warning("room %s: could not mark who is here: %s", self.room.code, error)

    async def keep_presence(self) -> None:
        """Mark the seats our connections hold, then mark away the people nobody holds."""
        await self._hold(sorted({w.seat for w in self.watchers if w.seat is not None}))
        await self.mark_away()

    async def mark_away(self) -> None:
        """Mark away each person whose seat no connection holds, in this process or another."""
        seats = self.room.seats
        present = [i for i, seat in enumerate(seats) if seat.kind == "person" and seat.away_since is None]
        if not present:
            return
        here = {w.seat for w in self.watchers}
        try:
            held = await self.hall.presence.held(self.room.code) | here
        except Exception as error:  # Redis down: judge by our own connections only
            log.warning("room %s: could not read who is here: %s", self.room.code, error)
            held = here
        now = time.time()
        for seat in present:
            if seat not in held:
                # If the room moved on or was removed, whoever is here sees it anyway.
                with contextlib.suppress(OkginError):
                    await self.commit(functools.partial(self._went_away, seat, now))

    def _went_away(self, seat: int, now: float) -> Change:
        if self.room.seats[seat].kind != "person" or self.room.seats[seat].away_since is not None:
            return Change(save=False)  # marked by another process meanwhile
        self.room.went_away(seat, now)
        return Change("away")

    @property
    def idle(self) -> bool:
        busy = self._bots is not None and not self._bots.done() and self._bots is not asyncio.current_task()
        return not self.watchers and not busy

    # -- computer players and the turn timer ----------------------------------------------

    def wake(self) -> None:
        """Start the computer players if one is to act (one task per room at a time)."""
        if self._bots is None or self._bots.done():
            self._bots = asyncio.get_running_loop().create_task(self._play_bots())
        self._arm_timer()

    async def _play_bots(self) -> None:
        try:
            while await self._bot_turn():
                pass
        except OkginError as error:
            log.warning("room %s: a computer player's move failed: %s", self.room.code, error)
        finally:
            self.hall.forget_if_idle(self)

    async def _bot_turn(self) -> bool:
        async with self.lock:
            game = self.game
            if game is None or self.room.phase is not Phase.PLAYING or not self.room.people:
                return False  # (with nobody left at the table, the computers do not play on alone)
            seat = game.to_act()
            level = self.room.levels()[seat] if seat is not None else None
            if seat is None or level is None:
                return False
            view, moves = game.match.view(seat), game.moves
        player = self._player(seat, level)
        action = await self.hall.thinking.decide(level, player, view, game.rng)
        with contextlib.suppress(Stale):
            await self.commit(lambda: self._play(game, moves, action))
        return True

    def _player(self, seat: int, level: str) -> Player:
        key = (seat, level)
        if key not in self._players:
            self._players[key] = computer_player(level, random.Random())
        return self._players[key]

    def _play(self, game: Game, moves: tuple[int, int], action: PlayerAction) -> Change:
        if self.game is not game or game.moves != moves:
            raise Stale("the game moved on")
        game.apply(action)
        if game.match.over:
            self.room.finish()
        return Change(str(action).strip(), game=True)

    def _deadline(self) -> float | None:
        """A new turn's deadline, saved with the move that starts the turn (None: no timer)."""
        return time.time() + self.room.timer if self.room.timer and self._turn() is not None else None

    def _arm_timer(self) -> None:
        """With a turn timer, a person who lets it run out has that one move made for them.

        The deadline is the room's, saved with the move that began the turn, so every process
        serving the room waits for the same moment (the first to act wins; the others' moves
        are then out of date). Armed once per turn: a later call for the same turn (someone
        entering the room, a frame shown again) leaves it alone."""
        turn = self._turn()
        if turn is not None and turn == self._timed and self._timer is not None and not self._timer.done():
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timed = turn
        deadline = self.room.deadline
        if turn is None or deadline is None:
            return
        self._timer = asyncio.get_running_loop().create_task(self._time_out(turn, deadline))

    def _turn(self) -> tuple[str, int, tuple[int, int]] | None:
        """The person's turn a timer would run for: (game, seat, moves), or None."""
        game = self.game
        if self.room.timer is None or game is None or self.room.phase is not Phase.PLAYING:
            return None
        seat = game.to_act()
        if seat is None or self.room.levels()[seat] is not None:
            return None
        return game.id, seat, game.moves

    async def _time_out(self, turn: tuple[str, int, tuple[int, int]], deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        game, (_, seat, moves) = self.game, turn
        if game is None or self._turn() != turn:
            return  # the person moved in time (or the game moved on another way)
        view = game.match.view(seat)
        action = await self.hall.thinking.decide("normal", self._player(seat, "normal"), view, game.rng)
        self._timer = None
        with contextlib.suppress(OkginError):
            await self.commit(lambda: self._play(game, moves, action))


class Hall:
    """Every live room of this process, loaded from the store on first use."""

    def __init__(
        self, rooms: RoomStore, broker: Broker, thinking: Thinking, presence: Presence | None = None,
    ) -> None:
        self.rooms = rooms
        self.store = rooms.store
        self.broker = broker
        self.thinking = thinking
        self.presence: Presence = presence or LocalPresence()
        self._live: dict[str, LiveRoom] = {}

    def __len__(self) -> int:
        return len(self._live)

    async def get(self, code: str) -> LiveRoom | None:
        if code in self._live:
            return self._live[code]
        room = await anyio.to_thread.run_sync(self.rooms.load, code)
        return await self._keep(room) if room is not None else None

    async def by_game(self, game_id: str) -> LiveRoom | None:
        for live in self._live.values():
            if live.room.game == game_id:
                return live
        room = await anyio.to_thread.run_sync(self.rooms.by_game, game_id)
        if room is None or room.game != game_id:
            return None
        return self._live.get(room.code) or await self._keep(room)

    async def create(self, room: Room, game: Game | None) -> LiveRoom:
        """Store a new room (and its first game) and serve it."""
        write = None
        if game is not None:
            write = GameWrite(game.id, 0, game.unsaved(), room.levels(), head=game.head(room.names))
        await anyio.to_thread.run_sync(self.rooms.create, room, write)
        if game is not None and write is not None:
            game.saved(len(write.rows))
        return self._serve(LiveRoom(self, room, game))

    async def _keep(self, room: Room) -> LiveRoom:
        stored = await anyio.to_thread.run_sync(self.store.load, room.game) if room.game else None
        game = await anyio.to_thread.run_sync(
            Game.from_record, stored.id, stored.record, stored.version) if stored else None
        if room.code in self._live:  # loaded twice at once: keep the first
            return self._live[room.code]
        return self._serve(LiveRoom(self, room, game))

    def _serve(self, live: LiveRoom) -> LiveRoom:
        self._live[live.room.code] = live
        self.broker.subscribe(live.channel, live.on_message)
        return live

    def forget_if_idle(self, live: LiveRoom) -> None:
        """Drop a room from memory once nobody watches it and no computer thinks (it stays stored)."""
        if live.idle and self._live.get(live.room.code) is live:
            del self._live[live.room.code]
            self.broker.unsubscribe(live.channel, live.on_message)

    async def keep_presence(self) -> None:
        """For ever: every REFRESH seconds, mark who is here in every room we serve."""
        while True:
            await asyncio.sleep(REFRESH)
            for live in list(self._live.values()):
                try:
                    await live.keep_presence()
                except Exception:
                    log.exception("room %s: keeping presence failed", live.room.code)

    async def sweep(self, idle_seconds: float) -> list[str]:
        """Remove unfinished rooms and games nobody has touched for ``idle_seconds`` (a room a
        connection here watches is not abandoned, however long its players think)."""
        watched = [code for code, live in self._live.items() if live.watchers]
        removed = await anyio.to_thread.run_sync(self.rooms.remove_idle, time.time() - idle_seconds, watched)
        for code in removed:
            live = self._live.pop(code, None)
            if live is not None:
                self.broker.unsubscribe(live.channel, live.on_message)
        return removed
