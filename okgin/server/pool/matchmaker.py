"""Play online's pairing: seekers join, their pages look in, and every process looks at the
shared pool every tick, claiming whole tables compare-and-set and seating them at rated rooms.

Every call here blocks (the pool's store, the game store, the deal): the app runs them in
worker threads (``anyio.to_thread``), and ``run`` is the loop that does so each tick.
A claim names the room it makes; a process that dies before seating its claim leaves it to
run out, and any process then seats those seekers (the room was made) or lets them wait again.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable, Collection
from typing import Any

import anyio.to_thread

from okgin.errors import OkginError
from okgin.rules import preset
from okgin.server.pool.choices import PoolSettings, checked
from okgin.server.pool.seekers import SEATED, WAITING, Seeker
from okgin.server.pool.store import PoolStore
from okgin.server.pool.window import compatible, tables, unblocked, window
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import MAX_NAME, Room, new_code
from okgin.server.rooms.turns import turn_deadline
from okgin.server.store.room_store import GameWrite, RoomTable

log = logging.getLogger("okgin.server")

RatingOf = Callable[[str, int], int]
"""A player's shown rating for a table of so many seats."""
BlockedAmong = Callable[[Collection[str]], set[frozenset[str]]]
"""The pairs of these players where either blocked the other (``Blocks.among``)."""


PURGE_SECONDS = 60.0
"""Seconds between two tidies of the pool (seated and lapsed seekers past ``keep_seconds``)."""

KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""A press of Seek's key: what the page makes (24 hex digits) and no more."""


def seek_id(player: str, key: object) -> str:
    """The seeker's id for ``player``'s press ``key``: the same press, the same id; another
    player's press with the same key, another id (the id is no one else's to guess)."""
    if not isinstance(key, str) or not KEY_SHAPE.fullmatch(key):
        raise PoolError('"key" names the press of Seek: 1 to 40 letters, digits, "-" or "_"')
    digest = hashlib.sha256(f"{player}\0{key}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode()


def _nobody_blocked(_players: Collection[str]) -> set[frozenset[str]]:
    return set()


WaitOf = Callable[[str], str | None]
"""Why a player may not seek yet (``Abandonments.refusal``: the wait after abandoned games)."""


def _no_wait(_player: str) -> str | None:
    return None


class PoolError(OkginError):
    """A seek, a look or a choice refused: the message says why; nothing changed."""


class Matchmaker:
    """This process's part in the pool: the seekers' calls, and the pairing of the pool."""

    def __init__(self, store: PoolStore, rooms: RoomTable[Room], rating_of: RatingOf,
                 settings: PoolSettings | None = None, away_grace: float = 60.0,
                 blocked_among: BlockedAmong = _nobody_blocked, wait_of: WaitOf = _no_wait) -> None:
        self.store = store
        self.wait_of = wait_of
        self.rooms = rooms
        self.rating_of = rating_of
        self.settings = settings or PoolSettings()
        self.away_grace = away_grace
        self.blocked_among = blocked_among
        self.accept: Callable[[Seeker, Seeker, float], bool] = compatible
        """The pairing rule (``window.compatible``); each look adds the blocks read from the store."""
        self.anyone_waiting = False
        """Whether the last look found anyone waiting (``run`` looks every tick then, else idly)."""
        self._joined: Callable[[], None] = _nothing
        """Wakes ``run``'s idle wait (set by ``run``: callable from any thread)."""

    # -- a seeker's calls ------------------------------------------------------------------

    def join(self, player: str, name: str, rules: object, seats: object, bots: bool = False,
             bot_rating: int | None = None, key: object = None) -> Seeker:
        """``player`` (shown as ``name``) seeks a table of ``rules`` and ``seats``, allowing bot
        opponents or not (``bots``); a bot account seeks with its ``bot_rating`` (its own pool's).
        ``key`` names the press of Seek: the same key sent again (its answer lost on the way) is
        the same seek, answered where it stands, never a second place in the pool. Refused
        (PoolError, saying how long) while the player waits after abandoned games."""
        chosen, count = checked(rules, seats)
        seeker_id = seek_id(player, key) if key is not None else None
        if seeker_id is not None:
            found = self.store.get(seeker_id)
            if found is not None and found.player == player:
                return found
        refused = self.wait_of(player)
        if refused is not None:
            raise PoolError(refused)
        now = time.time()
        bot = bot_rating is not None
        rating = bot_rating if bot_rating is not None else self.rating_of(player, count)
        seeker = Seeker.new(player, name, chosen, count, rating, now, self.settings.lease,
                            bot=bot, bots=bots and not bot, id=seeker_id)
        self.store.add(seeker)
        self._joined()
        return seeker

    def look(self, seeker: str, player: str) -> dict[str, Any]:
        """Where ``player``'s seeker stands (its page looks every second: each look renews its place)."""
        now = time.time()
        found = self.store.beat(seeker, player, now, now + self.settings.lease)
        return self.status(found, now)

    def status(self, seeker: Seeker | None, now: float) -> dict[str, Any]:
        if seeker is None or (seeker.state == WAITING and not seeker.live(now)):
            return {"state": "gone", "message": "You are no longer waiting for a table: seek again."}
        if seeker.state == SEATED:
            return {"state": "seated", "seeker": seeker.id, "room": seeker.room, "seat": seeker.seat}
        waited = seeker.waited(now)
        offer_in = max(0.0, self.settings.offer_seconds - waited)
        return {"state": "waiting" if seeker.state == WAITING else "pairing", "seeker": seeker.id,
                "rules": seeker.preset, "seats": seeker.seats, "rating": seeker.rating,
                "waited": round(waited, 1), "window": window(waited),
                "offer": offer_in == 0.0, "offer_in": round(offer_in, 1)}

    def renew(self, player: str) -> int:
        """``player``'s waiting seeker keeps its place (a bot's event stream, each look)."""
        now = time.time()
        return self.store.renew(player, now, now + self.settings.lease)

    def cancel(self, seeker: str, player: str) -> bool:
        """Take ``player``'s seeker out of the pool; False if it is not waiting (already seated)."""
        return self.store.cancel(seeker, player)

    def computer(self, seeker: str, player: str) -> dict[str, Any]:
        """The offer taken: ``player``'s seeker, once waited long enough, is seated at once with
        computer players in the other seats. Raises PoolError, changing nothing, before then."""
        now = time.time()
        found = self.store.get(seeker)
        if found is None or found.player != player or found.state != WAITING or not found.live(now):
            if found is not None and found.player == player and found.state == SEATED:
                return self.status(found, now)
            raise PoolError("you are no longer waiting for a table: seek again")
        if found.waited(now) < self.settings.offer_seconds:
            wait = self.settings.offer_seconds - found.waited(now)
            raise PoolError(f"a computer player is offered after {self.settings.offer_seconds:g} s "
                            f"of waiting: {wait:.0f} s more")
        code = new_code()
        if not self.store.claim(code, {found.id: 0}, now, now + self.settings.claim_seconds):
            return self.status(self.store.get(seeker), time.time())  # paired meanwhile, or gone
        self._seat_table(code, [found], now)
        return self.status(self.store.get(seeker), time.time())

    # -- the pairing -------------------------------------------------------------------------

    def pair(self) -> list[str]:
        """One look at the pool: stale claims settled, then every table that can be seated now
        claimed and seated. The rooms made, by code."""
        now = time.time()
        self.recover(now)
        made = []
        waiting = self.store.waiting(now)
        self.anyone_waiting = bool(waiting)
        rule = unblocked(self.accept, self.blocked_among({seeker.player for seeker in waiting}))
        for table in tables(waiting, now, rule):
            code, at = new_code(), time.time()
            seats = {seeker.id: seat for seat, seeker in enumerate(table)}
            if not self.store.claim(code, seats, at, at + self.settings.claim_seconds):
                continue  # another process took one of them first: the next look tries again
            if self._seat_table(code, table, at):
                made.append(code)
        return made

    def recover(self, now: float) -> None:
        """Claims that ran out (their process died): seated if their room was made, else back to wait."""
        claims: dict[str, list[Seeker]] = defaultdict(list)
        for seeker in self.store.stale(now):
            if seeker.claim is not None:
                claims[seeker.claim].append(seeker)
        for code, seekers in claims.items():
            ids = [seeker.id for seeker in seekers]
            made = self.rooms.load(code) is not None
            if made:
                self.store.seat(code, ids, now)
            else:
                self.store.release(code, ids)
            log.warning("pool: a claim for room %s ran out; its %d seekers %s", code, len(ids),
                        "are seated there" if made else "wait again")

    def _seat_table(self, code: str, table: list[Seeker], claimed: float) -> bool:
        """Make room ``code`` for the claimed ``table`` (computer players in the seats left) and
        seat them; on a failure they wait again. True when seated."""
        ids = [seeker.id for seeker in table]
        try:
            if time.time() > claimed + self.settings.claim_seconds / 2:  # too late: others may recover it
                raise PoolError("the claim is too old to be made")
            self.rooms.create(*make_room(code, table, self.settings, self.away_grace))
        except Exception as error:
            log.warning("pool: could not make room %s: %s", code, error)
            self.store.release(code, ids)
            return False
        if not self.store.seat(code, ids, time.time()):
            log.warning("pool: room %s was made but its claim had run out", code)
            return False
        return True

    def purge(self) -> int:
        return self.store.purge(time.time() - self.settings.keep_seconds)

    async def run(self) -> None:
        """For ever: a look at the pool in a worker thread, every tick while anyone waits, else
        every idle tick or at once when someone seeks here; every minute, a tidy."""
        loop, joined = asyncio.get_running_loop(), asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(joined.set)

        self._joined = wake
        try:
            await self._look_for_ever(joined)
        finally:
            self._joined = _nothing  # the loop may close: a seek made after wakes nothing

    async def _look_for_ever(self, joined: asyncio.Event) -> None:
        tidy = time.monotonic() + PURGE_SECONDS
        while True:
            joined.clear()
            try:
                await anyio.to_thread.run_sync(self.pair)
                if time.monotonic() >= tidy:
                    tidy = time.monotonic() + PURGE_SECONDS
                    await anyio.to_thread.run_sync(self.purge)
            except Exception as error:  # a lost Redis, a locked store: the next look tries again
                log.warning("pool: pairing failed: %s", error)
            if self.anyone_waiting:
                await asyncio.sleep(self.settings.tick)
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(joined.wait(), self.settings.idle_tick)


def _nothing() -> None:
    return None


def _unused_name(name: str, taken: list[str]) -> str:
    """``name``, or with a number after it when someone at the table has it already ("Guest 2")."""
    used = {other.casefold() for other in taken}
    number = 1
    shown = name
    while shown.casefold() in used:
        number += 1
        shown = f"{name[:MAX_NAME - 1 - len(str(number))]} {number}"
    return shown


def make_room(code: str, table: list[Seeker], settings: PoolSettings,
              away_grace: float) -> tuple[Room, GameWrite, dict[int, str]]:
    """The rated room for ``table`` (seat order), dealt and playing: public (among the games
    being played now), the coach off, the turn timer on, computer players in any seats the
    people do not fill. Its write and its people."""
    seats = table[0].seats
    room, _token = Room.create(preset(table[0].preset), seats, table[0].name, settings.timer, away_grace,
                               coach=False, listed=True)
    room.code = code
    room.pool = True
    for seat, seeker in enumerate(table[1:], start=1):
        room.sit(seat, _unused_name(seeker.name, room.names))  # the token is thrown away: each
        # finds their seat by their player
    for seat, seeker in enumerate(table):
        room.seats[seat].bot = seeker.bot  # marked BOT at the table, as a challenge's bot is
    now = time.time()
    for seat in range(len(table), seats):
        room.set_computer(room.host, seat, settings.level, now)
    game = Game.deal(room.rules, None)
    room.start(room.host, game.id)
    room.deadline = turn_deadline(room, game, now)
    write = GameWrite(game.id, 0, game.unsaved(), room.levels(), head=game.head(room.names))
    return room, write, {seat: seeker.player for seat, seeker in enumerate(table)}

