"""The statistics' table: one row per hand of each finished game, for the seat that was a person.

Whose statistics: in a game against the computer the person plays seat 0 ("You"), so the rows
are seat 0's. A game's rows are written once, when it finishes, from its record (and the
review of each hand, for the mistakes); a page reads them back. Calls are blocking: the server
makes them in a worker thread.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from okgin.advice.review import review_match
from okgin.record import replay
from okgin.scoring import Outcome
from okgin.server.coach.line import CoachLine
from okgin.server.store.schema import game_players, hand_results
from okgin.server.store.storage import StorageError, storage_errors

log = logging.getLogger("okgin.server")

PERSON = 0
"""The seat whose statistics are kept: the person's, in games against the computer."""

@dataclass(frozen=True, slots=True)
class HandRow:
    game: str
    hand: int
    finished: float
    preset: str
    outcome: str
    won_hand: bool
    points: int
    knocked_against: int | None
    mistakes: int | None
    won_game: bool


def rows_of(game_id: str, record: Mapping[str, Any], review: bool = True) -> list[HandRow]:
    """The person's rows for a finished game's record (``review``: count each hand's mistakes)."""
    match, _ = replay(record)
    if match.final is None:
        return []
    now = time.time()
    preset = match.rules.preset or "house"
    reviews = review_match(match, PERSON) if review else None  # with the scores before each hand
    rows = []
    for number, hand in enumerate(match.hands, start=1):
        result = hand.result
        if result is None:
            continue
        against = result.knocker is not None and result.knocker != PERSON
        rows.append(HandRow(
            game=game_id, hand=number, finished=now, preset=preset, outcome=str(result.outcome),
            won_hand=result.winner == PERSON, points=result.points[PERSON],
            knocked_against=result.deadwood[PERSON] if against and _knocked(result.outcome) else None,
            mistakes=len(reviews[number - 1].mistakes) if reviews is not None else None,
            won_game=match.final.winner == PERSON,
        ))
    return rows


def _knocked(outcome: Outcome) -> bool:
    return outcome in (Outcome.KNOCK, Outcome.UNDERCUT, Outcome.GIN, Outcome.BIG_GIN)


def write(engine: Engine, rows: Sequence[HandRow]) -> None:
    """Write a game's rows (once: a game already written is left as it is)."""
    if not rows:
        return
    with engine.begin() as db:
        game = hand_results.c.game
        known = db.execute(select(game).where(game == rows[0].game)).first()
        if known is None:
            db.execute(insert(hand_results), [_values(row) for row in rows])


def _values(row: HandRow) -> dict[str, Any]:
    return {name: getattr(row, name) for name in HandRow.__slots__}


def read(engine: Engine, player: str | None = None) -> list[HandRow]:
    """Every row (or ``player``'s: the games they played at seat 0), the oldest game first."""
    columns = hand_results.c
    query = select(hand_results).order_by(columns.finished, columns.game, columns.hand)
    if player is not None:
        theirs = select(game_players.c.game).where(game_players.c.player == player,
                                                   game_players.c.seat == PERSON)
        query = query.where(columns.game.in_(theirs))
    with engine.connect() as db:
        return [HandRow(**dict(row._mapping)) for row in db.execute(query)]


def record_finished(engine: Engine, game_id: str, record: Mapping[str, Any],
                    line: CoachLine | None = None) -> None:
    """Work out and write a finished game's rows (call it from a thread): the reviews, the slow
    part, in the coach's ``line`` when given (the server's: never in its own process).

    Nobody waits for this, so a failure is logged here rather than lost with its future."""
    try:
        if line is None:
            rows = rows_of(game_id, record)
        else:
            rows = line.run_background(rows_of, game_id, dict(record))
        with storage_errors(f"could not write the statistics of game {game_id}"):
            write(engine, rows)
    except StorageError as error:  # a locked or lost database: one line, not a traceback
        log.warning("%s", error)
    except Exception:
        log.exception("could not write the statistics of game %s", game_id)
