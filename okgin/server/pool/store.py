"""Where the pool is kept: ``PoolStore``, the calls every backend answers, and ``SqlPool`` in
the game store's database (SQLite or PostgreSQL), for a server with no broker. With a broker
the pool lives in Redis (``redis_pool``). Every call blocks: run it in a thread.

Exactly once: a pairing claims its seekers in one compare-and-set (every one still waiting and
live, or nothing changes), makes its room, then seats them (only if still claimed by it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.engine import Engine

from okgin.server.pool.seekers import CLAIMED, SEATED, WAITING, Seeker
from okgin.server.store.db import storage_errors
from okgin.server.store.schema import pool_seekers


class PoolStore(Protocol):
    """The pool's seekers, shared by every process serving the site."""

    def add(self, seeker: Seeker) -> None:
        """Put ``seeker`` in the pool (their player's other waiting seekers leave it)."""

    def get(self, seeker: str) -> Seeker | None: ...

    def beat(self, seeker: str, player: str, now: float, lease_until: float) -> Seeker | None:
        """``player``'s page is still there: a waiting seeker whose lease runs past ``now`` has
        it run to ``lease_until`` (a lapsed one is not revived: it is told to seek again). The
        seeker as it is now, or None (not in the pool, or not this player's)."""

    def renew(self, player: str, now: float, lease_until: float) -> int:
        """``player``'s waiting seekers whose lease runs past ``now`` have it run to
        ``lease_until`` (a bot's event stream, open, keeps its seek). How many."""

    def cancel(self, seeker: str, player: str) -> bool:
        """Take ``player``'s waiting seeker out of the pool; False if it was not waiting."""

    def waiting(self, now: float) -> list[Seeker]:
        """Every waiting seeker whose lease runs past ``now``."""

    def claim(self, room: str, seats: Mapping[str, int], now: float, until: float) -> bool:
        """Claim the seekers of ``seats`` (id to seat) for ``room``, until ``until``: all of them
        if every one is waiting and live at ``now``, else none (False)."""

    def seat(self, room: str, seekers: Sequence[str], now: float) -> bool:
        """The claimed ``seekers`` are seated at ``room``: all of them if all are still claimed
        for it, else none (False)."""

    def release(self, room: str, seekers: Sequence[str]) -> None:
        """The claim for ``room`` is given up: its seekers still claimed for it wait again."""

    def stale(self, now: float) -> list[Seeker]:
        """Claimed seekers whose claim ran out before ``now`` (its process died or hung)."""

    def purge(self, gone_before: float) -> int:
        """Forget seekers whose lease ran out, and seated ones, before ``gone_before``."""

    def close(self) -> None: ...


class SqlPool:
    """The pool in the game store's database: one row per seeker."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, seeker: Seeker) -> None:
        with storage_errors("could not join the pool"), self.engine.begin() as db:
            db.execute(delete(pool_seekers).where(pool_seekers.c.player == seeker.player,
                                                  pool_seekers.c.state == WAITING))
            db.execute(pool_seekers.insert().values(seeker.to_data()))

    def get(self, seeker: str) -> Seeker | None:
        with storage_errors("could not read the pool"), self.engine.connect() as db:
            row = db.execute(select(pool_seekers).where(pool_seekers.c.id == seeker)).mappings().first()
        return Seeker.from_data(dict(row)) if row is not None else None

    def beat(self, seeker: str, player: str, now: float, lease_until: float) -> Seeker | None:
        c = pool_seekers.c
        with storage_errors("could not read the pool"), self.engine.begin() as db:
            db.execute(update(pool_seekers).where(c.id == seeker, c.player == player, c.state == WAITING,
                                                  c.lease > now).values(lease=lease_until))
            mine = select(pool_seekers).where(c.id == seeker, c.player == player)
            row = db.execute(mine).mappings().first()
        return Seeker.from_data(dict(row)) if row is not None else None

    def renew(self, player: str, now: float, lease_until: float) -> int:
        c = pool_seekers.c
        with storage_errors("could not read the pool"), self.engine.begin() as db:
            mine = update(pool_seekers).where(c.player == player, c.state == WAITING, c.lease > now)
            return int(db.execute(mine.values(lease=lease_until)).rowcount)

    def cancel(self, seeker: str, player: str) -> bool:
        c = pool_seekers.c
        with storage_errors("could not leave the pool"), self.engine.begin() as db:
            gone = db.execute(delete(pool_seekers).where(c.id == seeker, c.player == player,
                                                         c.state == WAITING)).rowcount
        return bool(gone)

    def waiting(self, now: float) -> list[Seeker]:
        c = pool_seekers.c
        query = select(pool_seekers).where(c.state == WAITING, c.lease > now)
        with storage_errors("could not read the pool"), self.engine.connect() as db:
            return [Seeker.from_data(dict(row)) for row in db.execute(query).mappings()]

    def claim(self, room: str, seats: Mapping[str, int], now: float, until: float) -> bool:
        c = pool_seekers.c
        try:
            with storage_errors("could not claim seekers"), self.engine.begin() as db:
                for seeker, seat in sorted(seats.items()):  # one order: two claims wait, never deadlock
                    claimed = db.execute(
                        update(pool_seekers).where(c.id == seeker, c.state == WAITING, c.lease > now)
                        .values(state=CLAIMED, claim=room, claim_until=until, seat=seat, changed=now)
                    ).rowcount
                    if claimed != 1:
                        raise _Taken
        except _Taken:  # the transaction rolled back: nobody was claimed
            return False
        return True

    def seat(self, room: str, seekers: Sequence[str], now: float) -> bool:
        c = pool_seekers.c
        try:
            with storage_errors("could not seat seekers"), self.engine.begin() as db:
                seated = db.execute(update(pool_seekers).where(
                    c.id.in_(list(seekers)), c.state == CLAIMED, c.claim == room)
                    .values(state=SEATED, room=room, changed=now)).rowcount
                if seated != len(seekers):
                    raise _Taken
        except _Taken:
            return False
        return True

    def release(self, room: str, seekers: Sequence[str]) -> None:
        c = pool_seekers.c
        with storage_errors("could not release seekers"), self.engine.begin() as db:
            claimed = update(pool_seekers).where(c.id.in_(list(seekers)), c.state == CLAIMED, c.claim == room)
            db.execute(claimed.values(state=WAITING, claim=None, claim_until=None, seat=None))

    def stale(self, now: float) -> list[Seeker]:
        c = pool_seekers.c
        query = select(pool_seekers).where(c.state == CLAIMED, c.claim_until < now)
        with storage_errors("could not read the pool"), self.engine.connect() as db:
            return [Seeker.from_data(dict(row)) for row in db.execute(query).mappings()]

    def purge(self, gone_before: float) -> int:
        c = pool_seekers.c
        old = or_(and_(c.state == WAITING, c.lease < gone_before),
                  and_(c.state == SEATED, c.changed < gone_before))
        with storage_errors("could not tidy the pool"), self.engine.begin() as db:
            return int(db.execute(delete(pool_seekers).where(old)).rowcount)

    def close(self) -> None:
        return None


class _Taken(Exception):
    """A seeker of the claim was not there to take: the transaction is rolled back."""
