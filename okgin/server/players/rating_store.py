"""Ratings in the store: each finished game rated once, the leaderboard, a player's own figures.

A game is rated in one transaction that first claims it (its ``rated_games`` row, keyed by the
game), then moves its people's ratings and writes their history rows: a second call, from a
re-run change, another process or a sweep, finds the claim and changes nothing; two at once
meet on the key, and the loser's transaction writes nothing. Calls block: run them in a thread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, case, delete, exists, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from okgin.errors import OkginError
from okgin.rules import Rules
from okgin.server.players.bots import bot_family, bots_among
from okgin.server.players.ratings import (
    COMPUTER_MU,
    FAMILIES,
    PROVISIONAL,
    Entrant,
    Rating,
    family,
    places,
    rate,
    weight,
)
from okgin.server.rooms.room import Seat, abandoned_seats
from okgin.server.store.db import StorageError, storage_errors
from okgin.server.store.schema import (
    abandonments,
    game_players,
    games,
    player_bans,
    players,
    rated_games,
    rating_counts,
    rating_history,
    ratings,
    rooms,
)

log = logging.getLogger("okgin.server")
TOP = 100
_TRIES = 5
"""Ratings at once that make the same new rows (a new player's first rating, a new tenth's
count) meet on the key; the one that loses reads again and rates again, up to this often."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A leaderboard row: a place, a name and a rating (never a player id)."""

    place: int
    name: str
    rating: Rating
    you: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's own place in a family (equal ratings share it), of how many, and their rating."""

    place: int
    of: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class Point:
    """One rated game in a player's history: when, its family, their place and rating after."""

    rated: float
    family: str
    place: int
    seats: int
    rating: float


@dataclass(frozen=True, slots=True)
class Results:
    """A player's finished, rated games of one preset, solo or in rooms."""

    preset: str
    solo: bool
    seats: int
    games: int
    won: int
    mean_place: float


class RatingStore:
    """Ratings, read and written in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- rating a game ------------------------------------------------------------------------

    def rate_game(self, game: str, solo: bool, coach: bool = False, left: Collection[int] = ()) -> bool:
        """Rate finished game ``game`` (``solo``: a game against the computer, not a room) if it
        was not yet; True if this call rated it. ``coach``: the coach was allowed at its table,
        so it is claimed as rated for nobody. ``left``: the seats whose people abandoned it (a
        computer player finished for them), rated as its last and their abandonment kept. An
        unfinished or unknown game changes nothing."""
        for _ in range(_TRIES):
            with storage_errors(f"could not rate game {game}"):
                try:
                    with self._locked() as db:
                        done = _rate(db, game, solo, coach, left)
                        db.commit()
                        return done
                except IntegrityError:  # a row another rating made first: read again, rate again
                    continue
        raise StorageError(f"could not rate game {game}: {_TRIES} tries met other ratings' new rows")

    def rate_later(self, game: str, solo: bool, coach: bool = False, left: Collection[int] = ()) -> None:
        """``rate_game``, for a caller that does not wait: a failure is logged, not raised."""
        try:
            self.rate_game(game, solo, coach, left)
        except StorageError as error:
            log.warning("%s", error)
        except Exception:
            log.exception("could not rate game %s", game)

    def rate_unrated(self, finished_before: float) -> int:
        """Rate finished games nobody rated (a process stopped between its last move and its
        rating), in the order they finished; a game is solo when every seat but one was a computer
        player, and was played with the coach allowed when its room (found by its current game)
        says so or is gone and it was solo. Returns how many."""
        query = (select(games.c.id, games.c.levels, rooms.c.data).where(
            games.c.status == "finished", games.c.updated < finished_before,
            ~select(rated_games.c.game).where(rated_games.c.game == games.c.id).exists())
            .outerjoin(rooms, rooms.c.game == games.c.id)
            .order_by(games.c.updated, games.c.id).limit(500))
        with storage_errors("could not read the unrated games"), self.engine.connect() as db:
            found = db.execute(query).all()
        total = 0
        for game, levels, room in found:
            solo = sum(lv is None for lv in json.loads(levels)) == 1
            total += self.rate_game(game, solo, _coached(room, solo), _abandoned(room))
        return total

    @contextlib.contextmanager
    def _locked(self) -> Iterator[Connection]:
        """A connection in a transaction that writes (SQLite: takes the write lock at once, so
        what it reads cannot change before it writes)."""
        with self.engine.connect() as db:
            if self.engine.dialect.name == "sqlite":
                db.exec_driver_sql("BEGIN IMMEDIATE")
            yield db

    # -- reading ------------------------------------------------------------------------------

    def ratings_of(self, player: str) -> dict[str, Rating]:
        """``player``'s rating in each family they have played."""
        query = select(ratings).where(ratings.c.player == player)
        with storage_errors("could not read your rating"), self.engine.connect() as db:
            return {row.family: Rating(row.mu, row.sigma, row.games) for row in db.execute(query)}

    def shown_at(self, player: str, seats: int) -> int:
        """``player``'s rating as pages show it, at a table of ``seats`` (a new player's if none)."""
        return self.ratings_in(family(seats), [player]).get(player, Rating()).shown

    def ratings_in(self, family: str, players: Collection[str]) -> dict[str, Rating]:
        """The ratings in ``family`` of those of ``players`` who have one."""
        if not players:
            return {}
        query = select(ratings).where(ratings.c.family == family, ratings.c.player.in_(list(players)))
        with storage_errors("could not read the ratings"), self.engine.connect() as db:
            return {row.player: Rating(row.mu, row.sigma, row.games) for row in db.execute(query)}

    def leaderboard(self, family: str, limit: int = TOP, you: str | None = None) -> list[Placed]:
        """The best ``limit`` of ``family``, by ordinal (equal ordinals share a place)."""
        with storage_errors("could not read the leaderboard"), self.engine.connect() as db:
            return _leaderboard(db, family, limit, you)

    def boards(self, you: str | None, limit: int = TOP) -> tuple[dict[str, list[Placed]],
                                                                 dict[str, Standing]]:
        """The leaderboard page's figures, read on one connection: each family's best ``limit``,
        and ``you``'s standing in each family they are rated in."""
        with storage_errors("could not read the leaderboard"), self.engine.connect() as db:
            return ({kind: _leaderboard(db, kind, limit, you) for kind in FAMILIES},
                    _standings(db, you) if you else {})

    def standings(self, player: str) -> dict[str, Standing]:
        """``player``'s place and rating in each family they are rated in, and how many are rated there."""
        with storage_errors("could not read your place"), self.engine.connect() as db:
            return _standings(db, player)

    def recount(self) -> None:
        """Rebuild ``rating_counts`` from the ratings (after ratings were loaded in bulk)."""
        with storage_errors("could not count the ratings"), self.engine.begin() as db:
            counted = Counter((kind, number) for kind, number in
                              db.execute(select(ratings.c.family, ratings.c.bucket)))
            db.execute(delete(rating_counts))
            if counted:
                db.execute(insert(rating_counts), [{"family": f, "bucket": b, "players": n}
                                                   for (f, b), n in counted.items()])

    def history(self, player: str, limit: int = 200) -> list[Point]:
        """``player``'s last ``limit`` rated games, oldest first."""
        query = (select(rating_history.c.rated, rating_history.c.family, rating_history.c.place,
                        rating_history.c.ordinal, rated_games.c.seats)
                 .join(rated_games, rated_games.c.game == rating_history.c.game)
                 .where(rating_history.c.player == player)
                 .order_by(rating_history.c.rated.desc()).limit(limit))
        with storage_errors("could not read your ratings"), self.engine.connect() as db:
            rows = db.execute(query).all()
        return [Point(r.rated, r.family, r.place, r.seats, r.ordinal) for r in reversed(rows)]

    def results(self, player: str) -> list[Results]:
        """``player``'s rated games by preset, solo or in rooms, and seats (nobody else's)."""
        h, g = rating_history.c, rated_games.c
        query = (select(g.preset, g.solo, g.seats, func.count(), func.sum(case((h.place == 1, 1), else_=0)),
                        func.avg(h.place))
                 .join(rated_games, g.game == h.game).where(h.player == player)
                 .group_by(g.preset, g.solo, g.seats).order_by(g.solo.desc(), g.preset, g.seats))
        with storage_errors("could not read your results"), self.engine.connect() as db:
            rows = db.execute(query).all()
        return [Results(preset, bool(solo), seats, count, int(won or 0), round(float(mean), 2))
                for preset, solo, seats, count, won, mean in rows]


def leaderboard_query(family: str, limit: int) -> Select[Any]:
    """The best ``limit`` of ``family`` with their names (also run by bench_leaderboard's EXPLAIN):
    only players past their provisional games and with a name they chose."""
    return (select(ratings.c.player, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.ordinal,
                   players.c.name)
            .join(players, players.c.id == ratings.c.player)
            .where(ratings.c.family == family, ratings.c.games >= PROVISIONAL,
                   players.c.name.is_not(None), players.c.name != "",
                   ~exists().where(player_bans.c.player == ratings.c.player))
            # Both descending: one backward walk of ix_ratings_family_ordinal, no sort.
            .order_by(ratings.c.ordinal.desc(), ratings.c.player.desc()).limit(limit))


def _leaderboard(db: Connection, family: str, limit: int, you: str | None) -> list[Placed]:
    rows = db.execute(leaderboard_query(family, limit)).all()
    board: list[Placed] = []
    for number, row in enumerate(rows, start=1):
        place = board[-1].place if board and rows[number - 2].ordinal == row.ordinal else number
        rating = Rating(row.mu, row.sigma, row.games)
        board.append(Placed(place, row.name, rating, row.player == you))
    return board


def _standings(db: Connection, player: str) -> dict[str, Standing]:
    return {kind: Standing(int(high) + int(close) + 1, int(every), Rating(mu, sigma, played))
            for kind, mu, sigma, played, high, close, every in db.execute(standings_query(player))}


def standings_query(player: str) -> Select[Any]:
    """One query: per family, ``player``'s rating, the players of the tenths above theirs and of
    the whole family (``rating_counts``, a few hundred rows each), and those above them in their
    own tenth (a short walk of ix_ratings_family_ordinal). Place = 1 + those rated higher."""
    mine, other, counts = ratings.alias("mine"), ratings.alias("other"), rating_counts.c
    in_family = counts.family == mine.c.family
    above = select(func.coalesce(func.sum(counts.players), 0)).where(
        in_family, counts.bucket > mine.c.bucket).scalar_subquery()
    total = select(func.coalesce(func.sum(counts.players), 0)).where(in_family).scalar_subquery()
    near = select(func.count()).select_from(other).where(
        other.c.family == mine.c.family, other.c.ordinal > mine.c.ordinal,
        other.c.ordinal < mine.c.ordinal + 0.2, other.c.bucket == mine.c.bucket).scalar_subquery()
    return select(mine.c.family, mine.c.mu, mine.c.sigma, mine.c.games, above, near, total) \
        .where(mine.c.player == player)


def _coached(room: str | None, solo: bool) -> bool:
    """Was the coach allowed at the table of a stored room's data (None: no room has the game)?"""
    if room is None:
        return solo
    data = json.loads(room)
    return bool(data.get("coach", data.get("tournament") is None))


def _abandoned(room: str | None) -> tuple[int, ...]:
    """The seats whose people abandoned a Play online table's game, by the stored room whose
    current game it is (``Room.abandoned`` on its data): none for any other room, or none left."""
    if room is None:
        return ()
    data = json.loads(room)
    if data.get("pool") is not True:
        return ()
    return abandoned_seats([Seat(**seat) for seat in data.get("seats", [])])


def _rate(db: Connection, game: str, solo: bool, coach: bool, left: Collection[int] = ()) -> bool:
    """Claim and rate ``game`` on ``db`` (in a transaction); False if rated already or unfinished.
    With the coach allowed (``coach``) it is claimed as rated for nobody. The people at the
    seats in ``left`` abandoned it: placed last, and their abandonment kept."""
    if db.execute(select(rated_games.c.game).where(rated_games.c.game == game)).first() is not None:
        return False
    row = db.execute(select(games.c.status, games.c.levels, games.c.head, games.c.winner, games.c.scores)
                     .where(games.c.id == game)).first()
    if row is None or row.status != "finished" or row.winner is None or not row.scores:
        return False
    levels: list[str | None] = json.loads(row.levels)
    try:
        preset = Rules.from_json(json.loads(row.head).get("rules", "oklahoma")).preset or "house"
    except OkginError:  # a stored game's rules were valid when it began
        preset = "house"
    entrants = _entrants(db, game, levels, places(row.winner, json.loads(row.scores), left))
    people = any(e.player is not None for e in entrants)
    kind = family(len(levels)) if people and len(entrants) >= 2 and not coach else None
    now = time.time()
    if left:
        sat = db.execute(select(game_players.c.seat, game_players.c.player).where(
            game_players.c.game == game, game_players.c.seat.in_(sorted(left)))).all()
        if sat:
            db.execute(insert(abandonments), [
                {"game": game, "seat": seat, "player": player, "created": now} for seat, player in sat])
    db.execute(insert(rated_games).values(game=game, rated=now, family=kind, preset=preset, solo=solo,
                                          seats=len(levels)))
    if kind is not None:
        _write_ratings(db, game, kind, entrants, now)
    return True


def _entrants(db: Connection, game: str, levels: list[str | None], standing: list[int]) -> list[Entrant]:
    """The rated seats: each recorded against a player (once: nobody is rated against
    themselves), and each computer player with a published rating."""
    sat = {seat: player for seat, player in db.execute(
        select(game_players.c.seat, game_players.c.player).where(game_players.c.game == game))}
    twice = {p for p in sat.values() if list(sat.values()).count(p) > 1}
    sat = {seat: player for seat, player in sat.items() if player not in twice}
    return [Entrant(sat.get(seat), None if seat in sat else level, standing[seat])
            for seat, level in enumerate(levels) if seat in sat or level in COMPUTER_MU]


def _write_ratings(db: Connection, game: str, kind: str, entrants: list[Entrant], now: float) -> None:
    """The people's new ratings, their history rows and the counts per tenth, from the ratings
    they had (locked first, in player order, on PostgreSQL). A bot account is rated in its own
    pool (``bots.bot_family``), against the people's ratings as they are and they against its."""
    people = [e.player for e in entrants if e.player is not None]
    bots = bots_among(db, people)
    pool = {player: bot_family(kind) if player in bots else kind for player in people}
    locked = select(ratings).where(ratings.c.family.in_(sorted(set(pool.values()))),
                                   ratings.c.player.in_(people)).order_by(ratings.c.player)
    if db.dialect.name == "postgresql":
        locked = locked.with_for_update()
    found = [r for r in db.execute(locked).all() if pool[r.player] == r.family]
    current = {r.player: Rating(r.mu, r.sigma, r.games) for r in found}
    moved: Counter[tuple[str, int]] = Counter()
    for r in found:
        moved[r.family, r.bucket] -= 1
    share = weight(entrants)
    for player, new in sorted(rate(entrants, current).items()):  # in one order: no deadlock
        family_of = pool[player]
        moved[family_of, bucket(new.ordinal)] += 1
        values = {"mu": new.mu, "sigma": new.sigma, "ordinal": new.ordinal, "bucket": bucket(new.ordinal),
                  "games": new.games, "updated": now}
        if player in current:
            db.execute(update(ratings).where(ratings.c.player == player, ratings.c.family == family_of)
                       .values(values))
        else:
            db.execute(insert(ratings).values(player=player, family=family_of, **values))
        place = next(e.place for e in entrants if e.player == player)
        db.execute(insert(rating_history).values(
            player=player, game=game, family=family_of, rated=now, place=place, weight=share,
            mu=new.mu, sigma=new.sigma, ordinal=new.ordinal))
    for family_of in sorted({f for f, _ in moved}):
        _count(db, family_of, Counter({number: n for (f, number), n in moved.items() if f == family_of}))


def bucket(ordinal: float) -> int:
    """The tenth of a rating an ordinal falls in: its row of ``rating_counts``."""
    return math.floor(ordinal * 10)


def _count(db: Connection, family: str, moved: Counter[int]) -> None:
    """Move the counts of ``family``'s buckets by ``moved``, in bucket order (so two ratings at
    once take the rows' locks in the same order: no deadlock)."""
    counts = rating_counts.c
    for number, change in sorted(moved.items()):
        if change == 0:
            continue
        key = (counts.family == family) & (counts.bucket == number)
        if not db.execute(update(rating_counts).where(key).values(players=counts.players + change)).rowcount:
            db.execute(insert(rating_counts).values(family=family, bucket=number, players=change))


def forget(db: Connection, player: str) -> None:
    """Delete ``player``'s ratings and history, their counts taken off (an account deleted)."""
    for kind, number in db.execute(select(ratings.c.family, ratings.c.bucket)
                                   .where(ratings.c.player == player)).all():
        _count(db, kind, Counter({number: -1}))
    for table in (ratings, rating_history):
        db.execute(delete(table).where(table.c.player == player))

