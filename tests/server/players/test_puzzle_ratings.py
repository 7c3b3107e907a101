"""Puzzle ratings in the store: an answer moves the player's and the puzzle's ratings once (a
second answer to the same puzzle changes nothing: a property test, as for games), the next
puzzle is the nearest the player's rating of those not answered, a private game's puzzle is
its owner's alone, and a deleted player's puzzle rows go."""

from __future__ import annotations

import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.engine import Engine

from okgin.puzzles.puzzle import Puzzle, shipped
from okgin.server.players.identity import Players
from okgin.server.players.puzzle_ratings import rate_answer
from okgin.server.players.puzzle_store import PuzzleStore, forget
from okgin.server.players.ratings import Rating
from okgin.server.store.schema import puzzle_attempts, puzzle_ratings, puzzles
from okgin.server.store.storage import Store


@pytest.fixture(scope="module")
def engine() -> Engine:
    folder = tempfile.mkdtemp(prefix="puzzles-")
    return Store(f"sqlite:///{folder}/games.db").engine


def _wrong(puzzle: Puzzle) -> str:
    return next(move for move, _ in puzzle.values if move != puzzle.answer)


def test_a_right_answer_raises_the_player_and_lowers_the_puzzle_by_openskill(engine: Engine) -> None:
    store = PuzzleStore(engine)
    ann = Players(engine).new_guest()[0].player
    puzzle = shipped()[0]
    attempt = store.answer(ann, puzzle, puzzle.answer)
    mine, its = rate_answer(Rating(), Rating(puzzle.rating), True)
    assert attempt.rated and attempt.solved and attempt.before == Rating().shown == 1500
    assert attempt.after == mine.shown > attempt.before
    assert store.rating_of(ann) == Rating(pytest.approx(mine.mu), pytest.approx(mine.sigma), 1)
    with engine.connect() as db:
        row = db.execute(select(puzzles).where(puzzles.c.id == puzzle.id)).one()
    assert (row.mu, row.attempts) == (pytest.approx(its.mu), 1) and its.mu < puzzle.rating


def test_a_wrong_answer_lowers_the_player(engine: Engine) -> None:
    store = PuzzleStore(engine)
    bob = Players(engine).new_guest()[0].player
    puzzle = shipped()[1]
    attempt = store.answer(bob, puzzle, _wrong(puzzle))
    assert not attempt.solved and attempt.after < attempt.before == 1500
    assert store.rating_of(bob).provisional


ANSWERS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.booleans()), max_size=20)


@settings(max_examples=40, deadline=None)
@given(answers=ANSWERS)
def test_each_attempt_moves_the_ratings_exactly_once(
    engine: Engine, answers: list[tuple[int, int, bool]],
) -> None:
    """Answers by three players to four puzzles, any of them repeated: the first answer to a
    puzzle moves both ratings as ``rate_answer`` says, in order; a later one returns the first
    unchanged and moves nothing."""
    store = PuzzleStore(engine)
    people = [Players(engine).new_guest()[0].player for _ in range(3)]
    chosen = list(shipped()[-4:])  # not the first two: the tests above answered them
    with engine.begin() as db:  # these puzzles start fresh in each example
        db.execute(puzzles.delete().where(puzzles.c.id.in_([p.id for p in chosen])))
    model_people = {p: Rating() for p in people}
    model_puzzles = {p.id: Rating(p.rating) for p in chosen}
    first: dict[tuple[int, int], bool] = {}
    for who, which, right in answers:
        puzzle = chosen[which]
        move = puzzle.answer if right else _wrong(puzzle)
        attempt = store.answer(people[who], puzzle, move)
        if (who, which) in first:
            assert not attempt.rated and attempt.solved == first[who, which]
        else:
            first[who, which] = right
            assert attempt.rated and attempt.solved == right
            model_people[people[who]], model_puzzles[puzzle.id] = rate_answer(
                model_people[people[who]], model_puzzles[puzzle.id], right)
    for person, want in model_people.items():
        got = store.rating_of(person)
        assert (got.mu, got.sigma, got.games) == (
            pytest.approx(want.mu), pytest.approx(want.sigma), want.games)
    with engine.connect() as db:
        rows = {r.id: r for r in db.execute(select(puzzles).where(puzzles.c.id.in_(list(model_puzzles))))}
        count = db.execute(select(puzzle_attempts).where(puzzle_attempts.c.player.in_(people))).all()
    assert len(count) == len(first)
    for pid, want in model_puzzles.items():
        if want.games:
            assert (rows[pid].mu, rows[pid].attempts) == (pytest.approx(want.mu), want.games)
        else:
            assert pid not in rows


def test_the_next_puzzle_is_the_nearest_not_answered(engine: Engine) -> None:
    store = PuzzleStore(engine)
    cara = Players(engine).new_guest()[0].player
    offered = store.next_for(cara)
    assert offered is not None
    rest = [p for p in shipped()]
    assert abs(offered.rating - 25.0) == min(abs(p.rating - 25.0) for p in rest)
    store.answer(cara, offered, offered.answer)
    again = store.next_for(cara)
    assert again is not None and again.id != offered.id


def test_a_private_games_puzzle_is_its_owners_alone_and_goes_with_them(engine: Engine) -> None:
    store = PuzzleStore(engine)
    dana, eve = (Players(engine).new_guest()[0].player for _ in range(2))
    base = shipped()[-1]
    mined = Puzzle(id="feedf00d", position=base.position, answer=base.answer, values=base.values,
                   margins=base.margins, themes=base.themes, rating=40.0, source="game g1")
    assert store.add_mined("g1", [mined], {mined.id: dana}) == 1
    assert store.add_mined("g1", [mined], {mined.id: dana}) == 0  # a game is mined once
    assert store.puzzle("feedf00d", dana) == mined and store.puzzle("feedf00d", eve) is None
    store.answer(dana, mined, mined.answer)
    with engine.begin() as db:
        forget(db, dana)
    with engine.connect() as db:
        assert db.execute(select(puzzles).where(puzzles.c.owner == dana)).all() == []
        assert db.execute(select(puzzle_ratings).where(puzzle_ratings.c.player == dana)).all() == []
        assert db.execute(select(puzzle_attempts).where(puzzle_attempts.c.player == dana)).all() == []
