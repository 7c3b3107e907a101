"""The shipped puzzles: each is well formed and holds nothing its seat could not see (all of
them, cheaply); each keeps its answer by the margin on fresh guesses (a seeded sample of 25
here, every one under ``make check-puzzles``)."""

from __future__ import annotations

import re

import pytest

from okgin.actions import Discard
from okgin.advice.board import read_moves
from okgin.cards import parse_card
from okgin.puzzles.check import check_puzzle, sample
from okgin.puzzles.price import CHECK_SALT, MAKE_SALTS, MARGIN
from okgin.puzzles.puzzle import POSITION_FIELDS, Puzzle, shipped
from okgin.puzzles.themes import THEMES

CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")
SAMPLE = 25


def test_at_least_500_puzzles_are_shipped_each_once() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 500
    assert len({p.id for p in puzzles}) == len(puzzles)


def _seen(puzzle: Puzzle) -> set[str]:
    """The cards the puzzle's seat has seen: its hand, the first upcard, every card thrown."""
    position = puzzle.position
    thrown = {str(m.card) for m in read_moves(position["moves"]) if isinstance(m, Discard)}
    return {*position["hand"].split(), position["upcard"], *thrown}


@pytest.mark.parametrize("puzzle", shipped(), ids=lambda p: p.id)
def test_a_puzzle_is_well_formed_and_holds_only_what_its_seat_saw(puzzle: Puzzle) -> None:
    """Its position is the board's fields alone and the board accepts it; every card it names
    anywhere (hand, moves, answer, values) is one its seat has seen; the answer is a legal move,
    first of the values by the margin on each making salt; its themes are known ones."""
    assert set(puzzle.position) == set(POSITION_FIELDS)
    view = puzzle.view()
    assert view.my_turn
    seen = _seen(puzzle)
    named = set(CARD.findall(" ".join([*puzzle.position.values(), puzzle.answer,
                                       *(m for m, _ in puzzle.values)])))
    assert named <= seen, named - seen
    assert {str(c) for c in view.hand} == set(puzzle.position["hand"].split())
    assert {str(parse_card(c)) for c in seen} >= {str(c) for c in view.discards}
    legal = {str(m) for m in view.legal}
    assert puzzle.answer in legal and {m for m, _ in puzzle.values} == legal
    assert puzzle.values[0][0] == puzzle.answer and puzzle.values[0][1] - puzzle.values[1][1] >= MARGIN
    assert len(puzzle.margins) == len(MAKE_SALTS) and min(puzzle.margins) >= MARGIN
    assert puzzle.themes and set(puzzle.themes) <= set(THEMES)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", sample(shipped(), SAMPLE, CHECK_SALT), ids=lambda p: p.id)
def test_a_sample_of_the_puzzles_keeps_its_answers_on_fresh_guesses(puzzle: Puzzle) -> None:
    checked = check_puzzle(puzzle, CHECK_SALT)
    assert checked.held, str(checked)


@pytest.mark.puzzles
@pytest.mark.parametrize("puzzle", shipped(), ids=lambda p: p.id)
def test_every_puzzle_keeps_its_answer_on_fresh_guesses(puzzle: Puzzle) -> None:
    """``make check-puzzles``: the same best move, by the margin, on 1,024 guesses of a salt
    never used when making."""
    checked = check_puzzle(puzzle, CHECK_SALT)
    assert checked.held, str(checked)
