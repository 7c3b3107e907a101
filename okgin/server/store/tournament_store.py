"""Tournaments in SQL as plain data: the event, its entrants, rounds and tables, changed compare-and-set.

Every change that moves a tournament on (a join, the start, the next round, the end) writes
only if the tournament's stored ``version`` is the one it was decided from, and bumps it, in
one transaction with the rows it adds: two processes deciding the same step at once write it
once, and the later one is told (``Moved``). A table's result is written once (only while it
has none). Which process runs a tournament's tables is a lease (``claim``) that runs out, so
another process takes over from one that died. Every call blocks: run it in a thread.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from okgin.server.store import chips
from okgin.server.store.db import compact_json, storage_errors
from okgin.server.store.schema import (
    bot_accounts,
    chip_pools,
    rooms,
    tournament_entrants,
    tournament_rounds,
    tournament_tables,
    tournaments,
)


class Moved(Exception):
    """The tournament changed since it was read (another process moved it on): nothing was written."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant: a person (``player``) or a computer player (``level``), by seed from 0."""

    seed: int
    name: str
    player: str | None = None
    level: str | None = None
    bot: bool = False
    """A bot account (marked BOT): read from ``bot_accounts`` as the entrants are loaded."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table of a round: its room, its entrants in seat order, and its result once finished."""

    round: int
    number: int
    room: str
    seats: tuple[int, ...]
    result: dict[str, Any] | None = None
    game: str | None = None


@dataclass(slots=True)
class StoredTournament:
    """A tournament as stored: its settings (``data``), status, round and everything under it."""

    code: str
    version: int
    status: str
    host: str
    data: dict[str, Any]
    round: int
    created: float
    entrants: list[Entrant] = field(default_factory=list)
    byes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Each round's byes, by round number (from 1)."""
    tables: list[TableRow] = field(default_factory=list)
    name: str = ""
    """Its name, as its host gave it (or "Ann's Swiss")."""

    def tables_of(self, number: int) -> list[TableRow]:
        return [t for t in self.tables if t.round == number]


@dataclass(frozen=True, slots=True)
class Listed:
    """A tournament as /t lists it: its code, name, settings and entrants so far."""

    code: str
    name: str
    data: dict[str, Any]
    entrants: int


class TournamentStore:
    """The tournaments tables, in the same database as the games and rooms."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- reading ------------------------------------------------------------------------

    def load(self, code: str) -> StoredTournament | None:
        with storage_errors("could not read the tournament"), self.engine.connect() as db:
            row = db.execute(select(tournaments).where(tournaments.c.code == code)).first()
            if row is None:
                return None
            t = row._mapping
            event = StoredTournament(t["code"], t["version"], t["status"], t["host"], json.loads(t["data"]),
                                     t["round"], t["created"], name=t["name"])
            is_bot = bot_accounts.c.player.is_not(None).label("bot")
            event.entrants = [
                Entrant(e.seed, e.name, e.player, e.level, bool(e.bot)) for e in db.execute(
                    select(tournament_entrants, is_bot)
                    .outerjoin(bot_accounts, bot_accounts.c.player == tournament_entrants.c.player)
                    .where(tournament_entrants.c.tournament == code).order_by(tournament_entrants.c.seed))
            ]
            event.byes = {r.round: tuple(json.loads(r.byes)) for r in db.execute(
                select(tournament_rounds).where(tournament_rounds.c.tournament == code))}
            event.tables = [
                TableRow(r.round, r.number, r.room, tuple(json.loads(r.seats)),
                         json.loads(r.result) if r.result else None, r.game)
                for r in db.execute(select(tournament_tables).where(tournament_tables.c.tournament == code)
                                    .order_by(tournament_tables.c.round, tournament_tables.c.number))
            ]
        return event

    def listed(self, status: str, limit: int = 50) -> list[Listed]:
        """The newest tournaments with ``status`` (the finished: the last to finish first)."""
        count = (select(func.count()).where(tournament_entrants.c.tournament == tournaments.c.code)
                 .scalar_subquery())
        newest = tournaments.c.updated if status == "finished" else tournaments.c.created
        query = (select(tournaments.c.code, tournaments.c.name, tournaments.c.data, count)
                 .where(tournaments.c.status == status).order_by(newest.desc()).limit(limit))
        with storage_errors("could not read the tournaments"), self.engine.connect() as db:
            return [Listed(code, name, json.loads(data), int(n)) for code, name, data, n in db.execute(query)]

    def rooms_made(self, event: StoredTournament) -> set[str]:
        """The rooms of the current round's tables that exist yet (the director makes them just
        after the round is written: a link is shown once its room is there to open)."""
        codes = [t.room for t in event.tables_of(event.round)]
        if not codes:
            return set()
        with storage_errors("could not read the tables"), self.engine.connect() as db:
            return {code for (code,) in db.execute(select(rooms.c.code).where(rooms.c.code.in_(codes)))}

    def starts(self) -> dict[str, float]:
        """The open tournaments' set start times, by code (read from their settings: the open
        ones are few, and a start written twice is refused by the version)."""
        query = select(tournaments.c.code, tournaments.c.data).where(tournaments.c.status == "open")
        with storage_errors("could not read the tournaments"), self.engine.connect() as db:
            return {code: float(starts) for code, data in db.execute(query)
                    if (starts := json.loads(data).get("starts")) is not None}

    def running(self) -> list[str]:
        with storage_errors("could not read the tournaments"), self.engine.connect() as db:
            return [code for (code,) in db.execute(
                select(tournaments.c.code).where(tournaments.c.status == "running"))]

    # -- changes ------------------------------------------------------------------------

    def create(self, code: str, host: str, data: dict[str, Any], fee: int = 0, name: str = "") -> None:
        """A new open tournament called ``name``; with a ``fee``, its empty pool of entry fees
        (named by its code)."""
        now = time.time()
        with storage_errors("could not save the tournament"), self.engine.begin() as db:
            db.execute(insert(tournaments).values(
                code=code, version=0, created=now, updated=now, status="open", host=host, name=name,
                data=compact_json(data), round=0))
            if fee:
                chips.open_pool(db, code, code, fee)

    def join(self, code: str, version: int, entrant: Entrant, fee: int = 0) -> None:
        """Add a person as the next entrant, if the tournament is still at ``version`` and open,
        taking ``fee`` chips from their wallet into its pool in the same transaction (raises
        chips.Short, writing nothing, if they have fewer; Moved if the tournament moved on)."""
        with storage_errors("could not save your entry"), self.engine.begin() as db:
            _bump(db, code, version, "open", "open", 0)
            db.execute(insert(tournament_entrants).values(
                tournament=code, seed=entrant.seed, player=entrant.player, level=entrant.level,
                name=entrant.name))
            if fee and entrant.player is not None:
                # The version joined at numbers the entry: never the same twice in a tournament.
                chips.take_entry(db, code, entrant.player, version)

    def leave(self, code: str, version: int, player: str) -> None:
        """``player``'s entry is withdrawn before the start (its fee given back); the entrants
        after them move up a seed. Raises Moved, writing nothing."""
        with storage_errors("could not withdraw your entry"), self.engine.begin() as db:
            _bump(db, code, version, "open", "open", 0)
            seed = db.execute(select(tournament_entrants.c.seed).where(
                tournament_entrants.c.tournament == code, tournament_entrants.c.player == player)).scalar()
            if seed is None:
                raise Moved(code)
            db.execute(delete(tournament_entrants).where(
                tournament_entrants.c.tournament == code, tournament_entrants.c.seed == seed))
            later = db.execute(select(tournament_entrants.c.seed).where(
                tournament_entrants.c.tournament == code, tournament_entrants.c.seed > seed)
                .order_by(tournament_entrants.c.seed)).scalars().all()
            for old in later:  # one by one, upwards: the key (tournament, seed) is never shared
                db.execute(update(tournament_entrants).where(
                    tournament_entrants.c.tournament == code, tournament_entrants.c.seed == old)
                    .values(seed=old - 1))
            chips.return_entry(db, code, player)

    def cancel(self, code: str, version: int) -> None:
        """The open tournament is cancelled: every entry fee given back. Raises Moved."""
        with storage_errors("could not cancel the tournament"), self.engine.begin() as db:
            _bump(db, code, version, "open", "cancelled", 0)
            chips.refund(db, code)

    def begin_round(
        self, code: str, version: int, number: int, byes: Sequence[int], tables: Sequence[TableRow],
        computers: Sequence[Entrant] = (),
    ) -> None:
        """Round ``number`` begins (the first also seats the ``computers`` in the empty places
        and turns the tournament from open to running). Raises Moved, writing nothing."""
        status = "open" if number == 1 else "running"
        now = time.time()
        with storage_errors("could not save the round"), self.engine.begin() as db:
            _bump(db, code, version, status, "running", number)
            for e in computers:
                db.execute(insert(tournament_entrants).values(
                    tournament=code, seed=e.seed, player=None, level=e.level, name=e.name))
            db.execute(insert(tournament_rounds).values(
                tournament=code, round=number, byes=json.dumps(list(byes)), started=now))
            for t in tables:
                db.execute(insert(tournament_tables).values(
                    tournament=code, round=number, number=t.number, room=t.room,
                    seats=json.dumps(list(t.seats))))

    def finish(self, code: str, version: int, number: int, shares: dict[str, int] | None = None) -> None:
        """The last round is over: the tournament is finished and its pool, if it has one, paid
        out as ``shares`` (chips by player) in the same transaction: once, however many times
        this is called. Raises Moved (or chips.ChipsError), writing nothing."""
        with storage_errors("could not save the tournament"), self.engine.begin() as db:
            _bump(db, code, version, "running", "finished", number)
            if shares is not None:
                chips.pay_entries(db, code, shares)

    def pool(self, code: str) -> tuple[int, dict[str, int]] | None:
        """The tournament's pool of entry fees (None: free): its chips, and each player's payout."""
        with storage_errors("could not read the pool"), self.engine.connect() as db:
            total = db.execute(select(chip_pools.c.total).where(chip_pools.c.game == code)).scalar()
            return None if total is None else (int(total), chips.paid(db, code))

    def record(self, code: str, number: int, table: int, result: dict[str, Any], game: str) -> bool:
        """Write a finished table's result, once; True if this call wrote it."""
        with storage_errors("could not save the table's result"), self.engine.begin() as db:
            written = db.execute(update(tournament_tables).where(
                tournament_tables.c.tournament == code, tournament_tables.c.round == number,
                tournament_tables.c.number == table, tournament_tables.c.result.is_(None),
            ).values(result=compact_json(result), game=game, finished=time.time())).rowcount
        return bool(written == 1)

    def claim(self, code: str, process: str, seconds: float) -> bool:
        """Run ``code``'s tables for ``seconds`` more: True if this process holds the lease
        (it held it already, or nobody did, or the holder's ran out)."""
        now = time.time()
        free = or_(tournaments.c.driver == process, tournaments.c.lease.is_(None), tournaments.c.lease < now)
        with storage_errors("could not claim the tournament"), self.engine.begin() as db:
            written = db.execute(update(tournaments).where(
                tournaments.c.code == code, tournaments.c.status == "running", free,
            ).values(driver=process, lease=now + seconds)).rowcount
        return bool(written == 1)


def forget(db: Connection, player: str, gone: str, name: str) -> None:
    """A deleted player's entries and the tournaments they host pass to ``gone`` (the id that
    names nobody, which has their chips: a stand-in plays on, a pool pays that wallet), and
    their entries are shown as ``name``; the names they gave their tournaments (which may hold
    their own, "Ann's Swiss") are forgotten, each then shown by its format. No version is
    bumped: nothing is decided from any of these."""
    db.execute(update(tournament_entrants).where(tournament_entrants.c.player == player)
               .values(player=gone, name=name))
    db.execute(update(tournaments).where(tournaments.c.host == player).values(host=gone, name=""))


def _bump(db: Connection, code: str, version: int, status: str, new_status: str, number: int) -> None:
    written = db.execute(update(tournaments).where(
        tournaments.c.code == code, tournaments.c.version == version, tournaments.c.status == status,
    ).values(version=version + 1, status=new_status, round=number, updated=time.time())).rowcount
    if written != 1:
        raise Moved(code)
