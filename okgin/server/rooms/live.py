"""One room this process serves: its commands, its game, its watchers and its lock.

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
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from okgin.actions import PlayerAction
from okgin.errors import OkginError
from okgin.server.coach import statistics
from okgin.server.coach.answers import coach_work
from okgin.server.rooms.autoplay import Autoplay
from okgin.server.rooms.catch_up import catch_up
from okgin.server.rooms.changes import Change, NotSaved, RoomClosed, Stale
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room, RoomError
from okgin.server.rooms.stakes import TableStakes, game_penalties, split_among
from okgin.server.store.chips import Short, Wallets
from okgin.server.store.room_store import Conflict, GameWrite
from okgin.server.store.storage import StorageError

if TYPE_CHECKING:
    from okgin.server.rooms.hall import Hall

log = logging.getLogger("okgin.server")
PROCESS = f"{os.getpid()}-{random.getrandbits(32):08x}"

Send = Callable[[dict[str, Any]], None]
Seen = tuple[Game, tuple[int, int]]
"""The game and its moves a computer player's decision was made on."""
__all__ = ["PROCESS", "Change", "LiveRoom", "NotSaved", "RoomClosed", "Stale", "Watcher"]


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
        self._room_shown: dict[str, Any] | None = None

    def room_changed(self, frame: dict[str, Any]) -> bool:
        """Is the room ``frame`` shows new to this watcher (its version aside)? A move leaves
        the room as it was: the page is then sent the state alone."""
        shown = {**frame, "version": None}
        if shown == self._room_shown:
            return False
        self._room_shown = shown
        return True


class LiveRoom:
    """One room in this process."""

    def __init__(self, hall: Hall, room: Room, game: Game | None) -> None:
        self.hall = hall
        self.room = room
        self.game = game
        self.watchers: set[Watcher] = set()
        self.lock = asyncio.Lock()
        self._pushed = room.version
        self._diverged = False
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
                    _send(watchers, frames)
        if refused is not None:  # the refusal's reload found changes we never heard of: show them
            await self._show_stored(self.room.version)
            raise refused
        if not change.save:
            return change
        if change.game and self.game is not None and self.game.match.final:
            self._game_over(self.game)
        self.autoplay.arm_timer()  # the new turn's deadline (saved with the change, in its frames)
        await self.hall.broker.publish(self.channel, {
            "room": self.room.code, "version": self.room.version, "event": change.event, "from": PROCESS,
        })
        self.wake()
        if self.room.tournament is not None and self.room.phase is Phase.FINISHED and change.game:
            self.hall.table_finished(self.room.tournament)
        return change

    def _change(
        self, mutate: Callable[[], Change], watchers: list[Watcher],
    ) -> tuple[Change, list[list[dict[str, Any]]] | None]:
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
            return change, None

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
            self.room.deadline = self.autoplay.deadline()
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

    def _game_over(self, game: Game) -> None:
        """A finished game: the hall is told (it is rated), and a game against the computer gets
        its statistics (seconds of reviews). In threads: the game no longer changes, and nobody
        waits for them."""
        engine, names, solo, finished = self.hall.store.engine, list(self.room.names), self.room.solo, \
            self.hall.finished
        loop = asyncio.get_running_loop()
        if finished is not None:
            loop.run_in_executor(None, finished, game.id, solo)
        if solo:
            loop.run_in_executor(
                None, lambda: statistics.record_finished(engine, game.id, game.record(names)))

    def _behind(self) -> bool:
        """True when the stored room is newer than ours (only asked after a refusal)."""
        stored = self.hall.rooms.load(self.room.code)
        return stored is not None and stored.version > self.room.version

    def _game_write(self, change: Change) -> GameWrite:
        game = self.game
        assert game is not None
        final = game.match.final
        staked = self.room.staked
        return GameWrite(
            game.id, game.version, game.unsaved(), self.room.levels(),
            head=game.head(self.room.names) if change.new_game else None,
            winner=final.winner if final else None, scores=final.scores if final else None,
            stakes=(self.room.stakes.stake, tuple(staked)) if change.new_game and staked else None,
            payout=change.payout,
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

    # -- commands: what the table does to the room, each one change -------------------------

    async def sit(self, seat: int, name: object) -> Change:
        """Take ``seat``; the change carries the seat's token (the one saved, if it was re-run)."""
        return await self.commit(lambda: Change("sit", token=self.room.sit(seat, name)))  # type: ignore[arg-type]

    async def set_computer(self, by: int | None, seat: int, level: object) -> Change:
        return await self.commit(lambda: _changed(self.room.set_computer, by, seat, level, time.time()))

    async def clear(self, by: int | None, seat: int) -> Change:
        return await self.commit(lambda: _changed(self.room.clear, by, seat))

    async def leave(self, seat: int) -> Change:
        """A person leaves the table for good (a computer player takes the seat)."""
        return await self.commit(lambda: _changed(self.room.leave, seat, event="left"))

    async def set_stakes(self, by: int | None, stake: object, split: object, cutoff: object) -> Change:
        """Host, in the lobby: the table's stake and prize rule (every seated person must have
        the chips: a table nobody can start is refused now, not at the start)."""
        return await self.commit(lambda: self._set_stakes(by, TableStakes.read(stake, split, cutoff)))

    def _set_stakes(self, by: int | None, stakes: TableStakes) -> Change:
        self.room.may_set_stakes(by)
        wallets = Wallets(self.hall.store.engine)
        players = wallets.seat_players(self.room.code)
        for seat in self.room.staking_seats(stakes):
            name = self.room.names[seat]
            if seat not in players:
                raise RoomError(f"{name} has no player to stake chips (a program's seat): "
                                "a staked table is for players in a browser")
            balance = wallets.balance(players[seat])
            if balance < stakes.stake:
                raise RoomError(f"{name} has {balance} chips, fewer than a stake of {stakes.stake}")
        self.room.set_stakes(by, stakes)
        return Change("room")

    async def begin(self, by: int | None, seed: int | None, rematch: bool) -> Change:
        """Start the room's game (or a rematch with the same seats): a fresh deal, saved with the room."""
        return await self.commit(lambda: self._begin(by, seed, rematch))

    def _begin(self, by: int | None, seed: int | None, rematch: bool) -> Change:
        game = Game.deal(self.room.rules, seed)
        if rematch:
            self.room.rematch(by, game.id)
        else:
            self.room.start(by, game.id)
        self.game = game
        return Change("start", game=True, new_game=True)

    async def apply(self, seat: int, action: str | PlayerAction, seen: Seen | None = None) -> Change:
        """Play ``seat``'s move: a person's text, or a computer player's (or the turn timer's)
        decision with ``seen``, the game and moves it was made on (refused as Stale if the
        game has moved on since)."""
        return await self.commit(lambda: self._apply(seat, action, seen))

    def _apply(self, seat: int, action: str | PlayerAction, seen: Seen | None) -> Change:
        game = self.game
        if seen is not None:
            if game is not seen[0] or game.moves != seen[1]:
                raise Stale("the game moved on")
        elif game is None or self.room.phase is not Phase.PLAYING:
            raise RoomError("the game has not started" if game is None else "the game is over")
        assert game is not None
        if isinstance(action, str):
            action = game.act(seat, action)
        else:
            game.apply(action)
        if game.match.over:
            self.room.finish()
            return Change(str(action).strip(), game=True, payout=self._settle(game))
        return Change(str(action).strip(), game=True)

    def _settle(self, game: Game) -> dict[int, int] | None:
        """A staked game just over: its pool's split (paid with the move's save), shown to all."""
        room, final = self.room, game.match.final
        if not room.staked or final is None:
            return None
        pool = room.stakes.stake * len(room.staked)
        shares = split_among(pool, room.staked, game_penalties(game.match), final.scores, final.winner,
                             room.stakes.prizes)
        room.chips = {"game": game.id, "pool": pool,
                      "shares": [shares.get(seat) for seat in range(len(room.seats))]}
        return shares

    async def next_hand(self, seen: object) -> Change:
        """Deal the next hand. ``seen``: the hand number the asker saw end (another may have asked first)."""
        return await self.commit(lambda: self._next_hand(seen))

    def _next_hand(self, seen: object) -> Change:
        game = self.game
        if game is None:
            raise RoomError("the game has not started")
        dealt = isinstance(seen, int) and len(game.match.hands) > seen
        if dealt or (seen is None and not self.room.solo and game.match.current is not None):
            return Change(None, save=False)  # another player asked first: the next hand is already dealt
        game.next_hand()
        return Change("deal", game=True)

    # -- frames ---------------------------------------------------------------------------

    async def on_message(self, message: dict[str, Any]) -> None:
        """A broker message about this room: bring it up to date and show it to our watchers."""
        if "say" in message:
            for watcher in list(self.watchers):
                watcher.send({"type": "said", **message["say"]})
            return
        if message.get("sync"):  # another process just listened: it may have missed our last change
            await self.hall.broker.publish(self.channel, {
                "room": self.room.code, "version": self.room.version, "from": PROCESS,
            })
            return
        if message.get("check"):  # just subscribed: was a change published before we heard?
            try:
                stored = await anyio.to_thread.run_sync(self.hall.rooms.version, self.room.code)
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
            _send(watchers, frames)

    def _frames(self, watchers: list[Watcher], event: str | None) -> list[list[dict[str, Any]]]:
        """Each watcher's room (when it changed for them) and state messages; each room frame
        made once (with each seat's ``you``, and the code for those with the link), each state
        once per distinct (seat, coach)."""
        if self._diverged:
            self._reload()
        if event and not (event[0].isdigit() or event in ("deal", "reshuffle")):
            event = None  # a room's own event (a seat taken, someone away): not a move to show
        shown = [w for w in watchers if w.only_game is None or w.only_game == self.room.game]
        # (A spectator who came by an earlier game's id is not carried into the next one.)
        rooms: dict[tuple[int | None, bool], dict[str, Any]] = {}
        if shown:
            room = self.room_frame(None)
            for seat, linked in dict.fromkeys((w.seat, w.only_game is None) for w in shown):
                rooms[seat, linked] = {**room, "you": seat, "code": room["code"] if linked else None}
        states: dict[tuple[int | None, bool], dict[str, Any]] = {}
        if self.game is not None:
            states = self.game.frames(list(dict.fromkeys((w.seat, w.coach) for w in shown)),
                                      self.room.names, self.room.levels(), event)
        out: list[list[dict[str, Any]]] = []
        for watcher in watchers:
            sent = []
            if watcher in shown:
                room = rooms[watcher.seat, watcher.only_game is None]
                if watcher.room_changed(room):
                    sent.append(room)
                if states:
                    sent.append(states[watcher.seat, watcher.coach])
            out.append(sent)
        return out

    def room_frame(self, seat: int | None, linked: bool = True) -> dict[str, Any]:
        """The room for ``seat``; its code only for someone who holds the link (``linked``)."""
        frame = self.room.public(seat)
        frame["deadline"] = self.room.deadline if self.autoplay.turn() is not None else None
        if not linked:
            frame["code"] = None
        return frame

    async def show(self, watcher: Watcher) -> None:
        """Send one watcher the room and the game as they are now."""
        async with self.lock:
            frames = await anyio.to_thread.run_sync(self._frames, [watcher], None)
            _send([watcher], frames)

    async def say(self, seat: int, phrase: str) -> None:
        said = {"seat": seat, "name": self.room.names[seat], "phrase": phrase}
        await self.hall.broker.publish(self.channel, {"room": self.room.code, "say": said})

    async def coach(self, seat: int, kind: str, ident: int | None, data: Mapping[str, Any]) -> dict[str, Any]:
        """The coach's answer (``kind``: hint, advice or review; its message's id and fields) for
        ``seat``: read under the lock, worked out in a thread after it, so a slow review never
        holds up the room's moves."""
        async with self.lock:
            game = self.game
            if game is None:
                raise RoomError("the game has not started")
            work = coach_work(game.match, self.room.names, seat, kind, ident, data)
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
                await self.hall.presence.release(self.room.code, seat)
            await self.mark_away()
        if not staying:
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
        if self.room.tournament is not None and self.room.phase is Phase.PLAYING:
            await self._stand_in_for_away()

    async def _stand_in_for_away(self) -> None:
        """A tournament's table: a computer player takes over from each person away past the
        grace (nobody hosts a tournament's table to ask for it)."""
        now = time.time()
        for seat in range(len(self.room.seats)):
            with contextlib.suppress(OkginError):
                await self.commit(functools.partial(self._stand_in, seat, now))

    def _stand_in(self, seat: int, now: float) -> Change:
        return Change("room") if self.room.stand_in_for(seat, now) else Change(save=False)

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
        """Nobody watches and no computer thinks; a tournament's table is kept until its match
        ends (its absent people must be seen away, and stood in for, by ``keep_presence``)."""
        playing_table = self.room.tournament is not None and self.room.phase is Phase.PLAYING
        return not self.watchers and not self.autoplay.busy and not playing_table

    def wake(self) -> None:
        """Start the computer players if one is to act, and the turn timer if it runs."""
        self.autoplay.wake()


def _send(watchers: list[Watcher], frames: list[list[dict[str, Any]]]) -> None:
    """Each watcher its frames (in the order made: under the room's lock, version by version)."""
    for watcher, sent in zip(watchers, frames, strict=True):
        for frame in sent:
            watcher.send(frame)


def _changed(method: Any, *args: Any, event: str = "room") -> Change:
    method(*args)
    return Change(event)
