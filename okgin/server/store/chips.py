"""Play chips in the store: each player's wallet, the daily grant, staked games' pools, the ledger.

Chips are made only by the daily grant: a player is topped up to ``DAILY_CHIPS`` the first
time their wallet is read on a UTC day. Every other movement takes chips from one place and
puts them in another: a game's stakes go from its seats' wallets into its pool (all or
nothing, in the transaction that starts the game), the pool goes back out whole when the
game ends (its split) or is abandoned (each stake refunded). A tournament's entry fees are a
pool that people enter one at a time (``open_pool``, ``take_entry``, ``return_entry``) and that
is paid out by player (``pay_entries``) or refunded whole. Every movement is a row of the
append-only ledger, so the sum of the wallets and the held pools is the sum of the grants.

A balance never goes below zero: a stake is a conditional UPDATE (``balance >= stake``) and
the table has a CHECK, so two processes staking the same chips at once cannot both succeed.
A pool is settled at most once: its status moves from ``held`` by a conditional UPDATE, and
the ledger holds one row per game, seat and kind. Every call blocks: run it in a thread.
"""

from __future__ import annotations

import datetime
import json
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.dml import Insert

from okgin.errors import OkginError
from okgin.server.store.db import storage_errors
from okgin.server.store.schema import chip_ledger, chip_pools, chip_wallets, room_players
from okgin.server.store.schema import tournaments as tournament_table

DAILY_CHIPS = 1000
"""A wallet below this is topped up to it once per UTC day (the only way chips are made)."""


class ChipsError(OkginError):
    """A movement of chips that cannot happen; nothing was changed."""


class Short(ChipsError):
    """A seat's player has fewer chips than the stake."""

    def __init__(self, seat: int, balance: int, stake: int) -> None:
        super().__init__(f"seat {seat} has {balance} chips, fewer than the stake of {stake}")
        self.seat = seat
        self.balance = balance
        self.stake = stake


@dataclass(frozen=True, slots=True)
class Line:
    """One movement in a player's ledger."""

    at: float
    kind: str
    amount: int
    balance: int
    game: str | None
    seat: int | None


def utc_day(now: float | None = None) -> str:
    """The UTC day of ``now`` (Unix time; default: now), as YYYY-MM-DD."""
    moment = datetime.datetime.fromtimestamp(time.time() if now is None else now, datetime.UTC)
    return moment.date().isoformat()


class Wallets:
    """The players' chips, in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def balance(self, player: str, now: float | None = None) -> int:
        """``player``'s chips, after today's grant if they have not had it yet."""
        with storage_errors("could not read your chips"), self.engine.begin() as db:
            return grant(db, player, now)

    def ledger(self, player: str, limit: int = 10) -> list[Line]:
        """``player``'s last ``limit`` movements, newest first."""
        query = (select(chip_ledger).where(chip_ledger.c.player == player)
                 .order_by(chip_ledger.c.id.desc()).limit(limit))
        with storage_errors("could not read your chips"), self.engine.connect() as db:
            return [Line(r.at, r.kind, r.amount, r.balance, r.game, r.seat) for r in db.execute(query)]

    def tournaments(self, pools: Iterable[str | None]) -> dict[str, tuple[str, str]]:
        """Which of ``pools`` are tournaments' entry fees (a pool made at its own name): each
        one's tournament's name ("" once its host's account is deleted) and format, by pool."""
        ids = [p for p in pools if p is not None]
        if not ids:
            return {}
        pools_ = chip_pools.c
        query = (select(pools_.game, tournament_table.c.name, tournament_table.c.data)
                 .join(tournament_table, tournament_table.c.code == pools_.game)
                 .where(pools_.game.in_(ids), pools_.room == pools_.game))
        with storage_errors("could not read your chips"), self.engine.connect() as db:
            return {str(game): (str(name), str(json.loads(data).get("format", "")))
                    for game, name, data in db.execute(query)}

    def seat_players(self, room: str) -> dict[int, str]:
        """Who took each person's seat of ``room`` (the players a stake is taken from)."""
        with storage_errors("could not read the room's players"), self.engine.connect() as db:
            return _seat_players(db, room)

    def pool(self, game: str) -> tuple[int, str] | None:
        """The pool of ``game``: its chips and its status (held, paid, refunded), or None."""
        query = select(chip_pools.c.total, chip_pools.c.status).where(chip_pools.c.game == game)
        with storage_errors("could not read the pool"), self.engine.connect() as db:
            row = db.execute(query).first()
        return None if row is None else (int(row.total), str(row.status))

    def refund(self, game: str) -> bool:
        """Give back every stake of ``game``'s held pool; False if none is held (nothing changed)."""
        with storage_errors("could not refund the pool"), self.engine.begin() as db:
            return refund(db, game)


# -- in a transaction the caller holds (a room's save): each all or nothing with it ----------------


def grant(db: Connection, player: str, now: float | None = None) -> int:
    """Top ``player`` up to DAILY_CHIPS if they have not had today's grant; return the balance.

    Compare-and-set on the day and balance read: a grant raced by another process is read again,
    so a day never grants twice."""
    day = utc_day(now)
    for _ in range(10):
        row = db.execute(select(chip_wallets.c.balance, chip_wallets.c.granted)
                         .where(chip_wallets.c.player == player)).first()
        if row is None:  # a new wallet (unless another process makes it first), read again
            db.execute(_new_wallet(db).values(player=player, balance=0, granted=""))
            continue
        balance, granted = int(row.balance), str(row.granted)
        if granted >= day:
            return balance
        amount = max(0, DAILY_CHIPS - balance)
        written = db.execute(update(chip_wallets).where(
            chip_wallets.c.player == player, chip_wallets.c.granted == granted,
            chip_wallets.c.balance == balance).values(balance=balance + amount, granted=day)).rowcount
        if written == 1:
            if amount:
                _line(db, player, "grant", amount, balance + amount)
            return balance + amount
    raise ChipsError("your chips are being changed elsewhere: try again")


def take_stakes(db: Connection, game: str, room: str, stake: int, seats: Sequence[int]) -> int:
    """Take ``stake`` from the player of each of ``room``'s ``seats`` into ``game``'s new pool;
    returns the pool. Raises Short (or ChipsError) at the first seat that cannot pay: the
    caller's transaction then writes nothing, so a game's stakes are all taken or none."""
    players = _seat_players(db, room)
    missing = [seat for seat in seats if seat not in players]
    if missing:
        raise ChipsError(f"seat {missing[0]} has no player to stake chips: it needs a browser's page")
    return take_pool(db, game, room, stake, {seat: players[seat] for seat in seats})


def take_pool(db: Connection, pool: str, source: str, stake: int, players: Mapping[int, str]) -> int:
    """Take ``stake`` from each ``players[place]`` into the new pool ``pool`` (a game's id), made
    at ``source`` (a room's code); returns the pool. Raises Short for the first place that
    cannot pay, ChipsError for a bad stake: the caller's transaction then writes nothing.
    ``pay_out`` and ``refund`` settle it by place."""
    _check_stake(stake)
    # Wallets are locked in one order (by player), so two starts sharing players never deadlock.
    for place in sorted(players, key=lambda p: (players[p], p)):
        _debit(db, players[place], stake, pool, place)
    total = stake * len(players)
    db.execute(insert(chip_pools).values(game=pool, room=source, stake=stake, total=total, status="held",
                                         created=time.time()))
    return total


def open_pool(db: Connection, pool: str, source: str, stake: int) -> None:
    """An empty held pool ``pool`` that entries of ``stake`` chips join one at a time
    (``take_entry``): a tournament's entry fees, made with the tournament at ``source``."""
    _check_stake(stake)
    db.execute(insert(chip_pools).values(game=pool, room=source, stake=stake, total=0, status="held",
                                         created=time.time()))


def take_entry(db: Connection, pool: str, player: str, place: int) -> int:
    """Take the held ``pool``'s stake from ``player`` as its entry ``place`` (a number never used
    twice in that pool); returns the player's balance left. Raises Short or ChipsError, and the
    caller's transaction then writes nothing."""
    row = db.execute(select(chip_pools.c.stake).where(chip_pools.c.game == pool,
                                                      chip_pools.c.status == "held")).first()
    if row is None:
        raise ChipsError("the entry fees are no longer held: the tournament has been settled")
    stake = int(row.stake)
    left = _debit(db, player, stake, pool, place)
    db.execute(update(chip_pools).where(chip_pools.c.game == pool)
               .values(total=chip_pools.c.total + stake))
    return left


def return_entry(db: Connection, pool: str, player: str) -> bool:
    """Give ``player``'s entry to the held ``pool`` back (they left before it was played for);
    False if they have none in it (nothing changed)."""
    entries = {place: stake for place, (who, stake) in _entries(db, pool).items() if who == player}
    held = db.execute(select(chip_pools.c.game).where(chip_pools.c.game == pool,
                                                      chip_pools.c.status == "held")).first()
    if not entries or held is None:
        return False
    for place, stake in entries.items():
        _credit(db, player, "refund", -stake, pool, place)
        db.execute(update(chip_pools).where(chip_pools.c.game == pool)
                   .values(total=chip_pools.c.total + stake))
    return True


def pay_entries(db: Connection, pool: str, shares: Mapping[str, int]) -> bool:
    """``pay_out`` by player: ``shares[player]`` chips to each player with an entry in ``pool``."""
    places = {who: place for place, (who, _) in _entries(db, pool).items()}
    unknown = sorted(set(shares) - set(places))
    if unknown:
        raise ChipsError(f"{len(unknown)} of the players to pay have no entry in the pool")
    return pay_out(db, pool, {places[who]: chips for who, chips in shares.items()})


def paid(db: Connection, pool: str) -> dict[str, int]:
    """What ``pool``'s payout gave each player (none yet: empty)."""
    rows = db.execute(select(chip_ledger.c.player, chip_ledger.c.amount)
                      .where(chip_ledger.c.game == pool, chip_ledger.c.kind == "payout"))
    return {str(r.player): int(r.amount) for r in rows}


def pay_out(db: Connection, game: str, shares: Mapping[int, int]) -> bool:
    """Pay ``game``'s held pool out: ``shares[seat]`` chips to each seat that staked. False when
    no pool is held (none, or already settled: a game is paid once). Raises ChipsError, paying
    nothing, when the shares are not whole chips adding up to the pool among its seats."""
    stakes = _settle(db, game, "paid")
    if stakes is None:
        return False
    total = sum(-amount for _, amount in stakes.values())
    if set(shares) != set(stakes) or any(not _whole(c) or c < 0 for c in shares.values()) \
            or sum(shares.values()) != total:
        raise ChipsError(f"the shares {dict(shares)} do not split the pool of {total} among seats "
                         f"{sorted(stakes)}")
    for seat, chips in sorted(shares.items()):
        if chips:
            _credit(db, stakes[seat][0], "payout", chips, game, seat)
    return True


def refund(db: Connection, game: str) -> bool:
    """Give every stake of ``game``'s held pool back; False if no pool is held."""
    stakes = _settle(db, game, "refunded")
    if stakes is None:
        return False
    for seat, (player, amount) in sorted(stakes.items()):
        _credit(db, player, "refund", -amount, game, seat)
    return True


def forget(db: Connection, player: str) -> str:
    """A deleted player's wallet and ledger lines pass to a new random id that names nobody: the
    chips stay counted (a held pool still pays out whole), and no row names the player. Returns
    that id (a tournament's entries pass to it too, so their pool still pays out by player)."""
    gone = "gone-" + secrets.token_urlsafe(16)
    db.execute(update(chip_wallets).where(chip_wallets.c.player == player).values(player=gone))
    db.execute(update(chip_ledger).where(chip_ledger.c.player == player).values(player=gone))
    return gone


def held_pools(db: Connection, games: Iterable[str]) -> list[str]:
    """Which of ``games`` have a pool still held."""
    ids = list(games)
    if not ids:
        return []
    query = select(chip_pools.c.game).where(chip_pools.c.game.in_(ids), chip_pools.c.status == "held")
    return [str(game) for (game,) in db.execute(query)]


def _settle(db: Connection, game: str, status: str) -> dict[int, tuple[str, int]] | None:
    """Mark ``game``'s pool settled if it is held; its stakes (seat: player, signed amount)."""
    settled = db.execute(update(chip_pools).where(chip_pools.c.game == game, chip_pools.c.status == "held")
                         .values(status=status, settled=time.time())).rowcount
    if settled != 1:
        return None
    return _entries(db, game)


def _entries(db: Connection, game: str) -> dict[int, tuple[str, int]]:
    """``game``'s stakes still in its pool (seat or place: player, signed amount): those not
    given back already (an entrant who left a tournament before its start)."""
    ledger = chip_ledger.c
    rows = db.execute(select(ledger.seat, ledger.player, ledger.amount, ledger.kind)
                      .where(chip_ledger.c.game == game, chip_ledger.c.kind.in_(("stake", "refund"))))
    stakes: dict[int, tuple[str, int]] = {}
    returned: set[int] = set()
    for r in rows:
        if r.kind == "stake":
            stakes[int(r.seat)] = (str(r.player), int(r.amount))
        else:
            returned.add(int(r.seat))
    return {seat: stake for seat, stake in stakes.items() if seat not in returned}


def _debit(db: Connection, player: str, stake: int, pool: str, place: int) -> int:
    """Take ``stake`` from ``player`` (after today's grant) into ``pool`` as its ``place``: one
    conditional UPDATE, never below zero; returns the balance left. Raises Short."""
    grant(db, player)
    left = db.execute(update(chip_wallets).where(
        chip_wallets.c.player == player, chip_wallets.c.balance >= stake)
        .values(balance=chip_wallets.c.balance - stake).returning(chip_wallets.c.balance)).scalar()
    if left is None:  # read again: another start may have taken chips since our grant's read
        balance = db.execute(select(chip_wallets.c.balance).where(chip_wallets.c.player == player))
        raise Short(place, int(balance.scalar() or 0), stake)
    _line(db, player, "stake", -stake, int(left), pool, place)
    return int(left)


def _credit(db: Connection, player: str, kind: str, chips: int, game: str, seat: int) -> None:
    balance = db.execute(update(chip_wallets).where(chip_wallets.c.player == player)
                         .values(balance=chip_wallets.c.balance + chips)
                         .returning(chip_wallets.c.balance)).scalar()
    if balance is None:
        raise ChipsError(f"seat {seat}'s player has no wallet to pay into")
    _line(db, player, kind, chips, int(balance), game, seat)


def _line(db: Connection, player: str, kind: str, amount: int, balance: int,
          game: str | None = None, seat: int | None = None) -> None:
    db.execute(insert(chip_ledger).values(player=player, at=time.time(), kind=kind, amount=amount,
                                          balance=balance, game=game, seat=seat))


def _seat_players(db: Connection, room: str) -> dict[int, str]:
    query = select(room_players.c.seat, room_players.c.player).where(room_players.c.room == room)
    return {int(seat): str(player) for seat, player in db.execute(query)}


def _new_wallet(db: Connection) -> Insert:
    """An INSERT of a wallet that does nothing if the player has one already."""
    if db.dialect.name == "postgresql":
        return postgresql.insert(chip_wallets).on_conflict_do_nothing()
    return sqlite.insert(chip_wallets).on_conflict_do_nothing()


def _check_stake(stake: object) -> None:
    if not isinstance(stake, int) or isinstance(stake, bool) or stake <= 0:
        raise ChipsError(f"a stake is a whole number of chips above 0, not {stake!r}")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
