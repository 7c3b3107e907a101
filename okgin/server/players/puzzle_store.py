"""Puzzles in the store: each player's puzzle rating, their one answer to each puzzle, the
puzzles' own ratings, the next puzzle to offer, and the puzzles mined from stored games.

An answer is claimed by its row in ``puzzle_attempts`` (keyed by player and puzzle) in the same
transaction that moves both ratings: a second answer, from a second click, a reload or another
process, finds the row and changes nothing; two at once meet on the key and the loser's
transaction writes nothing. Calls block: run them in a thread.
"""

from __future__ import annotations

import contextlib
import json
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError

from okgin.puzzles.puzzle import Puzzle, from_json, shipped, shipped_by_id
from okgin.server.players.puzzle_ratings import rate_answer
from okgin.server.players.ratings import MODEL, Rating
from okgin.server.store.db import StorageError, storage_errors
from okgin.server.store.schema import puzzle_attempts, puzzle_mined, puzzle_ratings, puzzles

HISTORY = 20
"""How many of a player's last answers their profile lists."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """A player's answer to a puzzle: their move, whether it was the answer, their shown puzzle
    rating before and after, and ``rated``: whether this call was the one that moved them."""

    puzzle: str
    answer: str
    solved: bool
    before: int
    after: int
    created: float
    rated: bool = False


class PuzzleStore:
    """Puzzles and puzzle ratings, read and written in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- reading ----------------------------------------------------------------------------

    def rating_of(self, player: str) -> Rating:
        """``player``'s puzzle rating (a new player's if they have answered none)."""
        with storage_errors("could not read your puzzle rating"), self.engine.connect() as db:
            return _rating(db, player)

    def puzzle(self, puzzle_id: str, player: str | None) -> Puzzle | None:
        """The puzzle ``puzzle_id`` if ``player`` may be given it (shipped, from a public game,
        or from their own private game), else None."""
        found = shipped_by_id().get(puzzle_id)
        if found is not None:
            return found
        query = select(puzzles.c.data, puzzles.c.owner).where(puzzles.c.id == puzzle_id,
                                                              puzzles.c.data.is_not(None))
        with storage_errors("could not read the puzzle"), self.engine.connect() as db:
            row = db.execute(query).first()
        if row is None or (row.owner is not None and row.owner != player):
            return None
        return from_json(json.loads(row.data))

    def next_for(self, player: str) -> Puzzle | None:
        """The puzzle to offer ``player`` next: of those they may be given and have not
        answered, the one whose rating is nearest theirs (ties by a hash of the two ids, so
        players of one rating are not all given the same one). None when none is left."""
        with storage_errors("could not choose a puzzle"), self.engine.connect() as db:
            mine = _rating(db, player).mu
            done = set(db.execute(select(puzzle_attempts.c.puzzle)
                                  .where(puzzle_attempts.c.player == player)).scalars())
            rows = db.execute(select(puzzles.c.id, puzzles.c.mu, puzzles.c.data).where(
                or_(puzzles.c.owner.is_(None), puzzles.c.owner == player))).all()
        ratings = {p.id: p.rating for p in shipped()}
        mined: dict[str, str] = {}
        for row in rows:
            if row.id in ratings or row.data is not None:
                ratings[row.id] = row.mu
            if row.data is not None:
                mined[row.id] = row.data
        left = [pid for pid in ratings if pid not in done]
        if not left:
            return None
        chosen = min(left, key=lambda pid: (round(abs(ratings[pid] - mine), 1),
                                            zlib.crc32(f"{player}:{pid}".encode())))
        return shipped_by_id().get(chosen) or from_json(json.loads(mined[chosen]))

    def attempt(self, player: str, puzzle_id: str) -> Attempt | None:
        """``player``'s answer to ``puzzle_id``, if they gave one."""
        with storage_errors("could not read your answer"), self.engine.connect() as db:
            return _attempt(db, player, puzzle_id)

    def history(self, player: str, limit: int = HISTORY) -> list[Attempt]:
        """``player``'s last ``limit`` answers, newest first."""
        query = (select(puzzle_attempts).where(puzzle_attempts.c.player == player)
                 .order_by(puzzle_attempts.c.created.desc()).limit(limit))
        with storage_errors("could not read your puzzles"), self.engine.connect() as db:
            return [_attempt_of(row) for row in db.execute(query)]

    # -- answering --------------------------------------------------------------------------

    def answer(self, player: str, puzzle: Puzzle, move: str) -> Attempt:
        """Record ``player``'s answer ``move`` to ``puzzle`` and move both ratings, once: a later
        answer to the same puzzle returns the first, unchanged (``rated`` False)."""
        for _ in range(5):
            with storage_errors("could not record your answer"):
                try:
                    with self._locked() as db:
                        done = _answer(db, player, puzzle, move)
                        db.commit()
                        return done
                except IntegrityError:  # another answer (or a first rating) came first: read again
                    continue
        raise StorageError("could not record your answer: other answers kept coming first")

    @contextlib.contextmanager
    def _locked(self) -> Iterator[Connection]:
        """A connection in a writing transaction (SQLite: the write lock taken at once)."""
        with self.engine.connect() as db:
            if self.engine.dialect.name == "sqlite":
                db.exec_driver_sql("BEGIN IMMEDIATE")
            yield db

    # -- mined puzzles ----------------------------------------------------------------------

    def mined(self, game: str) -> bool:
        """Whether ``game`` was looked at for puzzles already."""
        with storage_errors("could not read the mined games"), self.engine.connect() as db:
            query = select(puzzle_mined.c.game).where(puzzle_mined.c.game == game)
            return db.execute(query).first() is not None

    def add_mined(self, game: str, found: list[Puzzle], owners: dict[str, str | None]) -> int:
        """Keep the puzzles ``found`` in finished game ``game`` (``owners``: by puzzle id, the one
        player it is shown to, or None for everyone) and mark the game mined, once: a game
        mined already, or a puzzle known already, adds nothing. Returns how many were added."""
        now = time.time()
        with storage_errors("could not keep the mined puzzles"), self.engine.begin() as db:
            if db.execute(select(puzzle_mined.c.game).where(puzzle_mined.c.game == game)).first():
                return 0
            known = set(db.execute(select(puzzles.c.id).where(
                puzzles.c.id.in_([p.id for p in found]))).scalars()) | set(shipped_by_id())
            fresh = [p for p in found if p.id not in known]
            for puzzle in fresh:
                db.execute(insert(puzzles).values(
                    id=puzzle.id, data=json.dumps(puzzle.to_json()), game=game, owner=owners.get(puzzle.id),
                    mu=puzzle.rating, sigma=MODEL.sigma, attempts=0, created=now))
            db.execute(insert(puzzle_mined).values(game=game, found=len(fresh), mined=now))
            return len(fresh)


def _rating(db: Connection, player: str) -> Rating:
    row = db.execute(select(puzzle_ratings).where(puzzle_ratings.c.player == player)).first()
    return Rating() if row is None else Rating(row.mu, row.sigma, row.attempts)


def _attempt_of(row: Row[Any]) -> Attempt:
    return Attempt(row.puzzle, row.answer, bool(row.solved), row.before, row.after, row.created)


def _attempt(db: Connection, player: str, puzzle_id: str) -> Attempt | None:
    row = db.execute(select(puzzle_attempts).where(puzzle_attempts.c.player == player,
                                                   puzzle_attempts.c.puzzle == puzzle_id)).first()
    return None if row is None else _attempt_of(row)


def _answer(db: Connection, player: str, puzzle: Puzzle, move: str) -> Attempt:
    """Claim and rate ``player``'s answer to ``puzzle`` on ``db`` (in a transaction)."""
    done = _attempt(db, player, puzzle.id)
    if done is not None:
        return done
    row = db.execute(select(puzzles).where(puzzles.c.id == puzzle.id)).first()
    its = Rating(puzzle.rating) if row is None else Rating(row.mu, row.sigma, row.attempts)
    mine = _rating(db, player)
    solved = move == puzzle.answer
    new_mine, new_its = rate_answer(mine, its, solved)
    now = time.time()
    attempt = Attempt(puzzle.id, move, solved, mine.shown, new_mine.shown, now, rated=True)
    db.execute(insert(puzzle_attempts).values(player=player, puzzle=puzzle.id, answer=move, solved=solved,
                                              before=attempt.before, after=attempt.after, created=now))
    mine_values = {"mu": new_mine.mu, "sigma": new_mine.sigma, "attempts": new_mine.games, "updated": now}
    if mine.games:
        db.execute(update(puzzle_ratings).where(puzzle_ratings.c.player == player).values(mine_values))
    else:
        db.execute(insert(puzzle_ratings).values(player=player, **mine_values))
    its_values = {"mu": new_its.mu, "sigma": new_its.sigma, "attempts": new_its.games}
    if row is None:
        db.execute(insert(puzzles).values(id=puzzle.id, data=None, game=None, owner=None, created=now,
                                          **its_values))
    else:
        db.execute(update(puzzles).where(puzzles.c.id == puzzle.id).values(its_values))
    return attempt


def forget(db: Connection, player: str) -> None:
    """Delete ``player``'s puzzle rating, answers and the puzzles only they were shown (an
    account deleted)."""
    db.execute(delete(puzzle_ratings).where(puzzle_ratings.c.player == player))
    db.execute(delete(puzzle_attempts).where(puzzle_attempts.c.player == player))
    db.execute(delete(puzzles).where(puzzles.c.owner == player))
