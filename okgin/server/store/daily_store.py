"""The daily deal in SQL as plain data: the secret the days' seeds come from, and each player's
one attempt a day (docs/daily.md). The attempt's primary key (day, player) is what keeps it to
one: a second start, even at the same moment from another process, fails in the database. Each
save is compare-and-set on the attempt's version, so two tabs never both play a move.
Calls block: run them in a thread.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from okgin.server.store.db import storage_errors
from okgin.server.store.schema import daily_attempts, daily_secrets, player_bans, players


class AlreadyStarted(Exception):
    """The player has an attempt at that day already (kept: this one was not)."""


class Moved(Exception):
    """The attempt was saved by someone else since it was read (another tab): nothing written."""


@dataclass(slots=True)
class Attempt:
    """One player's attempt at one day, as stored."""

    day: str
    player: str
    code: str
    started: float
    moves: list[list[str]]
    """A list per deal started: its moves in record notation, the person's and hard's."""
    points: list[int] = field(default_factory=list)
    """The points to the player of each finished deal."""
    finished: float | None = None
    total: int | None = None
    version: int = 0


@dataclass(frozen=True, slots=True)
class Finisher:
    """A player who finished a day: their attempt's code, the name they go by, their total."""

    code: str
    player: str
    name: str | None
    total: int
    points: tuple[int, ...]
    finished: float


def _attempt(row: object) -> Attempt:
    data = row._mapping  # type: ignore[attr-defined]
    return Attempt(data["day"], data["player"], data["code"], data["started"], json.loads(data["moves"]),
                   json.loads(data["points"]), data["finished"], data["total"], data["version"])


class DailyStore:
    """The daily deal's rows in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def secret(self) -> bytes:
        """The server's secret for the days' seeds, made (32 random bytes) the first time it is
        asked for; every process reads the same one (a second maker's insert fails, and it reads)."""
        with storage_errors("reading the daily deal's secret"):
            with self.engine.connect() as db:
                found = db.execute(select(daily_secrets.c.secret).where(daily_secrets.c.id == 1)).scalar()
            if found is None:
                try:
                    with self.engine.begin() as db:
                        db.execute(insert(daily_secrets).values(id=1, secret=secrets.token_hex(32)))
                except IntegrityError:
                    pass
                with self.engine.connect() as db:
                    found = db.execute(select(daily_secrets.c.secret).where(daily_secrets.c.id == 1)).scalar()
        return bytes.fromhex(str(found))

    def attempt(self, day: str, player: str) -> Attempt | None:
        with storage_errors("reading a daily attempt"), self.engine.connect() as db:
            row = db.execute(select(daily_attempts).where(
                (daily_attempts.c.day == day) & (daily_attempts.c.player == player))).first()
        return None if row is None else _attempt(row)

    def by_code(self, day: str, code: str) -> Attempt | None:
        with storage_errors("reading a daily attempt"), self.engine.connect() as db:
            row = db.execute(select(daily_attempts).where(
                (daily_attempts.c.day == day) & (daily_attempts.c.code == code))).first()
        return None if row is None else _attempt(row)

    def start(self, attempt: Attempt) -> None:
        """Keep ``attempt``, the player's first at its day. Raises AlreadyStarted when they have
        one (the database's primary key decides, whoever asked first)."""
        with storage_errors("starting a daily attempt"):
            try:
                with self.engine.begin() as db:
                    db.execute(insert(daily_attempts).values(
                        day=attempt.day, player=attempt.player, code=attempt.code, started=attempt.started,
                        finished=None, moves=json.dumps(attempt.moves), points=json.dumps(attempt.points),
                        total=None, version=attempt.version))
            except IntegrityError:
                raise AlreadyStarted(attempt.day) from None

    def save(self, attempt: Attempt) -> None:
        """Write ``attempt`` over the stored one, only if that is still at ``attempt.version``
        (which then grows by one). Raises Moved, writing nothing, when it is not."""
        with storage_errors("saving a daily attempt"), self.engine.begin() as db:
            done = db.execute(update(daily_attempts).where(
                (daily_attempts.c.day == attempt.day) & (daily_attempts.c.player == attempt.player)
                & (daily_attempts.c.version == attempt.version)).values(
                moves=json.dumps(attempt.moves), points=json.dumps(attempt.points),
                finished=attempt.finished, total=attempt.total, version=attempt.version + 1))
            if done.rowcount != 1:
                raise Moved(attempt.day)
        attempt.version += 1

    def finishers(self, days: list[str]) -> dict[str, list[Finisher]]:
        """Who finished each of ``days``, with the name they go by now, by day."""
        found: dict[str, list[Finisher]] = {day: [] for day in days}
        query = (select(daily_attempts.c.day, daily_attempts.c.code, daily_attempts.c.player, players.c.name,
                        daily_attempts.c.total, daily_attempts.c.points, daily_attempts.c.finished)
                 .join(players, players.c.id == daily_attempts.c.player, isouter=True)
                 .where(daily_attempts.c.day.in_(days) & daily_attempts.c.finished.is_not(None))
                 .order_by(daily_attempts.c.finished))
        with storage_errors("reading the daily deal's results"), self.engine.connect() as db:
            for day, code, player, name, total, points, finished in db.execute(query).all():
                found[day].append(Finisher(code, player, name, total, tuple(json.loads(points)), finished))
        return found

    def banned(self, among: set[str]) -> set[str]:
        """Which of ``among`` the operator banned from the leaderboard (docs/moderation.md)."""
        if not among:
            return set()
        with storage_errors("reading the bans"), self.engine.connect() as db:
            rows = db.execute(select(player_bans.c.player).where(player_bans.c.player.in_(among))).all()
        return {player for (player,) in rows}

    def unfinished(self, day: str) -> int:
        """How many attempts at ``day`` were started and not finished."""
        with storage_errors("reading the daily deal's results"), self.engine.connect() as db:
            rows = db.execute(select(daily_attempts.c.code).where(
                (daily_attempts.c.day == day) & daily_attempts.c.finished.is_(None))).all()
        return len(rows)


def forget(db: Connection, player: str) -> None:
    """A deleted account's attempts go (the days' averages are then of the others)."""
    db.execute(delete(daily_attempts).where(daily_attempts.c.player == player))
