"""Every legal move of a view priced over guessed deals, and whether one move is clearly best.

A puzzle's answer must beat every other legal move by ``MARGIN`` points on ``GUESSES`` guessed
deals (``Worlds`` with a salt), and again on independent guesses (other salts). The salts are
fixed here so that making and checking never share guesses (docs/puzzles.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from okgin.actions import PlayerAction
from okgin.advice.worlds import Worlds
from okgin.view import SeatView

GUESSES = 1024
"""Guessed deals a puzzle's answer is priced on."""
MARGIN = 6.0
"""Points by which the answer must beat every other legal move."""
QUICK_GUESSES = 32
QUICK_MARGIN = 3.0
"""The cheap first look at a position: a margin of 3 on 32 guesses, before the costly 1,024."""
MIDDLE_GUESSES = 256
MIDDLE_MARGIN = 5.5
MIDDLE_REACH = 12.0
"""A second cheap look for the survivors of the first (the same salt: its 32 guesses and 224
more), so that few positions reach the 1,024 that are not puzzles; it prices only the moves
within ``MIDDLE_REACH`` points of the best on the first look (a filter: the 1,024 that decide
price every legal move)."""
QUICK_SALT = 0
MAKE_SALTS = (101, 202)
"""The salts a puzzle is made on: priced on the first, then confirmed on the second."""
FIRST_MARGIN = 8.0
SAFETY_MEAN = 10.0
"""The margin of safety (docs/puzzles.md): the answer must lead by ``FIRST_MARGIN`` on the first
salt, by ``MARGIN`` on the second, and by ``SAFETY_MEAN`` on their mean, so that a check on fresh
guesses is no coin flip near the margin: a lead on 1,024 guesses varies with a standard deviation
of about 1.1 points from salt to salt (1.55 between two salts, over the first set of 500), so a
check lands 4 points under the mean (below ``MARGIN``) about once in a thousand puzzles."""
CHECK_SALT = 404
"""The default salt of ``okgin puzzles check``: never used when making."""


@dataclass(frozen=True, slots=True)
class Priced:
    """Each legal move's worth in points, best first, on one set of guesses."""

    values: tuple[tuple[PlayerAction, float], ...]

    @property
    def best(self) -> PlayerAction:
        return self.values[0][0]

    @property
    def margin(self) -> float:
        """The best move's lead over the second (0 with one legal move)."""
        return self.values[0][1] - self.values[1][1] if len(self.values) > 1 else 0.0


def price(view: SeatView, guesses: int = GUESSES, salt: int = MAKE_SALTS[0]) -> Priced:
    """Every legal move of ``view`` priced on ``guesses`` deals of ``salt`` (``Worlds.value``),
    best first (ties in the view's own order of legal moves). Raises ValueError when it is
    not the view's seat's turn."""
    if not view.my_turn or not view.legal:
        raise ValueError("a position is priced on its seat's turn")
    return priced_in(view, Worlds(view, guesses=guesses, salt=salt))


def priced_in(view: SeatView, worlds: Worlds, moves: Sequence[PlayerAction] | None = None) -> Priced:
    """Every legal move of ``view`` (or only ``moves``) priced in ``worlds``, best first."""
    found = [(move, round(worlds.value(move), 2)) for move in (view.legal if moves is None else moves)]
    return Priced(tuple(sorted(found, key=lambda pair: -pair[1])))


def holds(priced: Priced, answer: PlayerAction, margin: float = MARGIN) -> bool:
    """Whether ``answer`` is the best move of ``priced`` by ``margin`` points or more."""
    return priced.best == answer and priced.margin >= margin
