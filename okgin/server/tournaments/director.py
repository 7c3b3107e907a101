"""Runs tournaments' rounds over rooms: makes each round's tables, keeps them playing, records
each finished match from its stored game, and pairs the next round when all have finished.

Every process runs a director; it starts the open tournaments whose set start time has come
(whichever process writes the start first; the other's is refused by the version), and for each
running tournament one of them holds a lease in the store (``claim``) and does the work,
renewing it every tick, so a process that dies is replaced once its lease runs out. Each step
reads the store and is safe to repeat: a table's room is made once (its code was stored with
the round), a result is written once, and the next round is written compare-and-set on the
tournament's version, so it starts once even if two processes decide it together; the last
round's end pays the pool of entry fees in the same write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import anyio.to_thread

from okgin.record import replay
from okgin.server.players.identity import Players
from okgin.server.rooms.games import Game
from okgin.server.rooms.hall import Hall
from okgin.server.rooms.live import LiveRoom
from okgin.server.rooms.room import Phase, Room, Seat, new_code
from okgin.server.rooms.services import PROCESS
from okgin.server.store.storage import StorageError
from okgin.server.store.tournament_store import Moved, StoredTournament, TableRow, TournamentStore
from okgin.server.tournaments.events import Tournaments
from okgin.server.tournaments.plan import match_result, next_round, pool_shares, round_over
from okgin.server.tournaments.settings import Settings

log = logging.getLogger("okgin.server")
TICK = 1.0
"""Seconds between two looks while a tournament runs (a table ending here looks at once)."""
IDLE_TICK = 2.0
"""Seconds between two looks while none runs (or sooner, at the next set start time seen)."""
LEASE = 10.0
"""Seconds a process runs a tournament's tables after its last look: another takes over after."""


class Director:
    """This process's part in running the tournaments."""

    def __init__(self, hall: Hall, store: TournamentStore, players: Players, away_grace: float,
                 tick: float = TICK, lease: float = LEASE, poked: asyncio.Event | None = None,
                 idle_tick: float = IDLE_TICK) -> None:
        self.hall = hall
        self.away_grace = away_grace
        self.store = store
        self.players = players
        self.tick = tick
        self.idle_tick = idle_tick
        self.lease = lease
        self._poked = poked or asyncio.Event()
        """Set to look again at once: by ``poke``, and by the rooms (``RoomServices.table_finished``)."""
        self._seated: set[str] = set()
        """Tables whose people this process has written as seated (their rooms and games)."""

    def poke(self, _code: str | None = None) -> None:
        """Look again now (a table ended, or a tournament started)."""
        self._poked.set()

    async def run(self) -> None:
        """For ever: look at the tournaments, then wait until the next look is due (or a poke)."""
        while True:
            self._poked.clear()
            wait = self.tick
            try:
                wait = await self.look()
            except Exception:  # a locked store, a lost Redis: the next tick tries again
                log.exception("running the tournaments failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), wait)

    async def look(self) -> float:
        """Start the tournaments whose set time has come and drive the running ones. The seconds
        until the next look: a tick while any runs, else the idle tick or the next set start."""
        now = time.time()
        starts = await anyio.to_thread.run_sync(self.store.starts)
        for code in [code for code, at in starts.items() if at <= now]:
            try:  # its set time has come: computer players fill the empty places
                await anyio.to_thread.run_sync(Tournaments(self.store).start, code, None)
            except Exception:
                log.exception("tournament %s: starting it at its set time failed", code)
        running = await anyio.to_thread.run_sync(self.store.running)
        for code in running:
            try:
                if await anyio.to_thread.run_sync(self.store.claim, code, PROCESS, self.lease):
                    await self.drive(code)
            except Exception:  # one tournament's failure holds up no other
                log.exception("tournament %s: this step failed (the next look tries again)", code)
        if running or any(at <= now for at in starts.values()):
            return self.tick
        return min([self.idle_tick] + [at - time.time() for at in starts.values()])

    async def drive(self, code: str) -> None:
        """One step of tournament ``code``: its tables playing, their results kept, the next round."""
        event = await anyio.to_thread.run_sync(self.store.load, code)
        if event is None or event.status != "running":
            return
        settings = Settings.from_data(event.data)
        recorded = False
        for table in event.tables_of(event.round):
            if table.result is None:
                recorded |= await self._table(event, settings, table)
        if recorded:
            event = await anyio.to_thread.run_sync(self.store.load, code)
            assert event is not None
        if round_over(event):
            await anyio.to_thread.run_sync(self._advance, event, settings)
            self.poke()  # make the new round's tables at once

    async def _table(self, event: StoredTournament, settings: Settings, table: TableRow) -> bool:
        """Keep ``table`` playing; record its result if its match has ended (True)."""
        live = await self.hall.get(table.room)
        if live is None:
            await anyio.to_thread.run_sync(self._seat_people, event, table, None)
            live = await self._make(event, settings, table)
        if table.room not in self._seated and live.room.game is not None:
            await anyio.to_thread.run_sync(self._seat_people, event, table, live.room.game)
            self._seated.add(table.room)
        stored = await anyio.to_thread.run_sync(self.hall.services.rooms.load, table.room)
        if stored is None or stored.phase is not Phase.FINISHED or stored.game is None:
            live.wake()
            return False
        recorded = await anyio.to_thread.run_sync(self._record, event, table, stored.game)
        if recorded:
            self._seated.discard(table.room)  # its match is over: nothing more to remember of it
        return recorded

    async def _make(self, event: StoredTournament, settings: Settings, table: TableRow) -> LiveRoom:
        entrants = {e.seed: e for e in event.entrants}
        seats = [Seat("person", entrants[s].name) if entrants[s].player else
                 Seat("computer", entrants[s].name, entrants[s].level) for s in table.seats]
        for seat, seed in zip(seats, table.seats, strict=True):
            seat.bot = entrants[seed].bot  # marked BOT at the table, as everywhere
        rules = settings.rules.replace(players=len(seats))
        game = await anyio.to_thread.run_sync(Game.deal, rules, None)
        room = Room.for_table(table.room, rules, seats, event.code, game.id, self.away_grace, settings.timer)
        try:
            return await self.hall.create(room, game)
        except StorageError:  # made meanwhile by another process (its code is the table's)
            live = await self.hall.get(table.room)
            if live is None:
                raise
            return live

    def _seat_people(self, event: StoredTournament, table: TableRow, game: str | None) -> None:
        """The table's people, by player: their seats in its room (and in its game, once dealt)."""
        people = {seat: e.player for seat, s in enumerate(table.seats)
                  for e in event.entrants if e.seed == s and e.player is not None}
        if game is None:
            for seat, player in people.items():
                self.players.sat_in_room(table.room, seat, player)
        else:
            self.players.sat_in_game(game, people)

    def _record(self, event: StoredTournament, table: TableRow, game_id: str) -> bool:
        stored = self.hall.services.store.load(game_id)
        if stored is None or not stored.finished:
            return False
        match, _ = replay(stored.record)
        result = match_result(match, table.seats)
        return self.store.record(event.code, table.round, table.number, result, game_id)

    def _advance(self, event: StoredTournament, settings: Settings) -> None:
        """Every table of the round is over: the next round, or the end (once, compare-and-set).

        The last round over, the pool of entry fees is paid out in the transaction that finishes
        the tournament: a second director's attempt finds it moved on and pays nothing."""
        upcoming = next_round(event, settings)
        with contextlib.suppress(Moved):
            if upcoming is None:
                self.store.finish(event.code, event.version, event.round, pool_shares(event, settings))
                return
            number = event.round + 1
            tables = [TableRow(number, i, new_code(), seats) for i, seats in enumerate(upcoming.tables)]
            self.store.begin_round(event.code, event.version, number, upcoming.byes, tables)
