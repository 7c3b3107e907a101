"""Shipped puzzles priced again on fresh guesses: each must keep its answer by the margin.

A puzzle holds at a salt when its answer is still the best legal move by ``MARGIN`` points on
``GUESSES`` guesses of that salt; the default salt (``CHECK_SALT``) was never used when making.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from okgin.puzzles.price import CHECK_SALT, GUESSES, MAKE_SALTS, MARGIN, QUICK_SALT, holds, price
from okgin.puzzles.puzzle import Puzzle


@dataclass(frozen=True, slots=True)
class Checked:
    """One puzzle priced again: the best move found, the answer's lead over every other move
    (negative when another is better), and whether it held."""

    puzzle: Puzzle
    best: str
    margin: float
    held: bool

    def __str__(self) -> str:
        if self.held:
            return f"{self.puzzle.id}: {self.best} by {self.margin:.2f}"
        return (f"{self.puzzle.id} does not hold: its answer is {self.puzzle.answer}, the fresh guesses "
                f"put it {self.margin:+.2f} points from the best other move ({self.best} is best; a lead of "
                f"{MARGIN:g} is needed)")


def check_puzzle(puzzle: Puzzle, salt: int = CHECK_SALT, guesses: int = GUESSES) -> Checked:
    """``puzzle`` priced on ``guesses`` guesses of ``salt``. Raises ValueError for a salt used
    when making (its guesses would not be fresh)."""
    if salt in (*MAKE_SALTS, QUICK_SALT):
        raise ValueError(f"salt {salt} was used when making the puzzles: give another")
    priced = price(puzzle.view(), guesses, salt)
    answer = puzzle.answer_action
    worth = dict(priced.values)
    if answer not in worth:
        return Checked(puzzle, str(priced.best), float("-inf"), False)
    lead = worth[answer] - max(v for move, v in priced.values if move != answer)
    return Checked(puzzle, str(priced.best), round(lead, 2), holds(priced, answer))


def sample(puzzles: Sequence[Puzzle], count: int, seed: int) -> list[Puzzle]:
    """``count`` of ``puzzles`` chosen by ``seed`` (all of them when fewer), in their order."""
    if count >= len(puzzles):
        return list(puzzles)
    chosen = set(random.Random(seed).sample(range(len(puzzles)), count))
    return [p for n, p in enumerate(puzzles) if n in chosen]


def check_all(
    puzzles: Sequence[Puzzle], salt: int = CHECK_SALT, report: Callable[[Checked], None] | None = None
) -> list[Checked]:
    """Every one of ``puzzles`` priced again at ``salt``; the ones that did not hold."""
    failed = []
    for puzzle in puzzles:
        checked = check_puzzle(puzzle, salt)
        if report is not None:
            report(checked)
        if not checked.held:
            failed.append(checked)
    return failed
