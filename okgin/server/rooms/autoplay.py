"""A room's computer players and its turn timer: the moves nobody at the table makes.

Both decide off the room's lock and then play through the room's one ``apply``, the path a
person's move takes, naming the game and the moves they decided on: a decision about a game
that has moved on meanwhile is refused as out of date, not played. A move the store could not
save (busy, or the connection lost: nothing changed) is tried again, waiting longer each time:
nobody else would make it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from okgin.actions import PlayerAction
from okgin.bots import Player
from okgin.errors import OkginError
from okgin.server.rooms.changes import Change, NotSaved, Stale
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Phase, Room
from okgin.server.rooms.services import RoomServices
from okgin.server.rooms.thinking import computer_player
from okgin.server.rooms.turns import Turn, timed_turn

log = logging.getLogger("okgin.server")

RETRY_SECONDS = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Waits before a move the store did not save is tried again (the last one repeats)."""
T = TypeVar("T")


class Table(Protocol):
    """The room the computer players and the timer play at (a ``LiveRoom``): what they read
    under its lock, and the two moves they make through it, as a person's are made."""

    room: Room
    game: Game | None
    lock: asyncio.Lock
    services: RoomServices

    async def apply(
        self, seat: int, action: str | PlayerAction, seen: tuple[Game, tuple[int, int]] | None = None,
    ) -> Change: ...

    async def next_hand(self, seen: object) -> Change: ...


class Autoplay:
    """One room's computer players (one task at a time) and its turn timer."""

    def __init__(self, live: Table) -> None:
        self.live = live
        self._bots: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timed: Turn | None = None
        self._dealer: asyncio.Task[None] | None = None
        self._deal: tuple[str, int] | None = None
        self._players: dict[tuple[int, str], Player] = {}

    @property
    def busy(self) -> bool:
        """True while a computer player of this room thinks or plays (from another task)."""
        bots = self._bots
        return bots is not None and not bots.done() and bots is not asyncio.current_task()

    # -- computer players -----------------------------------------------------------------

    def wake(self) -> None:
        """Start the computer players if one is to act (one task per room at a time)."""
        if self._bots is None or self._bots.done():
            loop, live = asyncio.get_running_loop(), self.live
            if self._computer_to_act():
                self._bots = loop.create_task(self._play_bots())
            else:  # as the computer players do when they stop
                loop.call_soon(live.services.idle, live)
        self.arm_timer()

    def _computer_to_act(self) -> bool:
        """Is a computer player to act (or, at a tournament's table of computers between hands,
        to deal), by what the room holds now (off its lock: a change on its way wakes us again
        when it is made; ``_bot_turn`` looks again under the lock)? A table of people alone
        starts no task after each of their moves."""
        game = self.live.game
        if game is None:
            return False
        seat = game.to_act()
        if seat is None:
            return self._deals(game)
        return self.live.room.levels()[seat] is not None

    async def _until_saved(self, what: str, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt``, and again while the store fails to save it (nothing was changed)."""
        failures = 0
        while True:
            try:
                return await attempt()
            except NotSaved as error:
                delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                log.warning("room %s: %s was not saved (%s); trying again in %g s",
                            self.live.room.code, what, error, delay)
                await asyncio.sleep(delay)

    async def _play_bots(self) -> None:
        live = self.live
        try:
            while await self._until_saved("a computer player's move", self._bot_turn):
                pass
        except OkginError as error:
            log.warning("room %s: a computer player's move failed: %s", live.room.code, error)
        finally:
            live.services.idle(live)

    async def _bot_turn(self) -> bool:
        live = self.live
        async with live.lock:
            game, room = live.game, live.room
            if game is None or room.phase is not Phase.PLAYING or not (room.people or room.tournament):
                return False  # (with nobody left at a friends' table, the computers do not play on alone)
            seat = game.to_act()
            deal = seat is None and self._deals(game)
            level = room.levels()[seat] if seat is not None else None
            if not deal and (seat is None or level is None):
                return False
            view = game.match.view(seat) if seat is not None else None
            moves, hands = game.moves, len(game.match.hands)
        if seat is None or level is None or view is None:  # a tournament's table nobody is at
            await live.next_hand(hands)
            return True
        action = await live.services.thinking.decide(level, self._player(seat, level), view, game.rng)
        with contextlib.suppress(Stale):
            await live.apply(seat, action, (game, moves))
        return True

    def _deals(self, game: Game) -> bool:
        """A tournament's table between hands with no person playing (each seat a computer
        player or a stand-in): nobody would press Next hand, so the computers deal it."""
        room = self.live.room
        return (room.tournament is not None and game.match.current is None and not game.match.over
                and all(level is not None for level in room.levels()))

    def _player(self, seat: int, level: str) -> Player:
        key = (seat, level)
        if key not in self._players:
            self._players[key] = computer_player(level, random.Random())
        return self._players[key]

    # -- the turn timer -------------------------------------------------------------------

    def arm_timer(self) -> None:
        """With a turn timer, a person who lets it run out has that one move made for them.

        The deadline is the room's (``turns``), saved with the move that began the turn, so
        every process shows the same one. Only the process that committed that move arms the
        timer for it (``LiveRoom.commit``); another process arms it only when something wakes
        the room there (a page coming in, a change of its own, a tournament's director looking
        at its table), and then waits for the same moment (the first to act wins; the others'
        moves are then out of date). Armed once per turn: a later call for the same turn leaves it alone."""
        self._arm_deal()
        turn = self.turn()
        if turn is not None and turn == self._timed and self._timer is not None and not self._timer.done():
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timed = turn
        deadline = self.live.room.deadline
        if turn is None or deadline is None:
            return
        self._timer = asyncio.get_running_loop().create_task(self._time_out(turn, deadline))

    def _arm_deal(self) -> None:
        """A tournament's table between hands: if nobody presses Next hand within the away
        grace (a page left open on the result), the next hand is dealt, so no person holds up
        the round. Armed once per finished hand, in every process serving the table (the first
        to deal wins; the others find it dealt)."""
        game, room = self.live.game, self.live.room
        due = (room.tournament is not None and game is not None and room.phase is Phase.PLAYING
               and game.match.current is None and not game.match.over)
        key = (game.id, len(game.match.hands)) if due and game is not None else None
        if key is not None and key == self._deal and self._dealer is not None and not self._dealer.done():
            return
        if self._dealer is not None:
            self._dealer.cancel()
            self._dealer = None
        self._deal = key
        if key is not None:
            self._dealer = asyncio.get_running_loop().create_task(self._deal_after(key, room.away_grace))

    async def _deal_after(self, key: tuple[str, int], seconds: float) -> None:
        await asyncio.sleep(seconds)
        game = self.live.game
        if game is None or (game.id, len(game.match.hands)) != key:
            return  # dealt meanwhile (or another game)
        self._dealer = None
        with contextlib.suppress(OkginError):
            await self._until_saved("the next hand's deal", lambda: self.live.next_hand(key[1]))

    def turn(self) -> Turn | None:
        """The person's turn a timer would run for: (game, seat, moves), or None."""
        return timed_turn(self.live.room, self.live.game)

    async def _time_out(self, turn: Turn, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        game, (_, seat, moves) = self.live.game, turn
        if game is None or self.turn() != turn:
            return  # the person moved in time (or the game moved on another way)
        view = game.match.view(seat)
        thinking = self.live.services.thinking
        action = await thinking.decide("normal", self._player(seat, "normal"), view, game.rng)
        self._timer = None
        with contextlib.suppress(OkginError):
            await self._until_saved("a timed-out turn's move",
                                    lambda: self.live.apply(seat, action, (game, moves)))
