"""The `expert` player: `hard`, with its close draws and discards searched as well.

`hard` looks ahead only where a knock is legal; its other draws and discards follow
`normal`'s heuristics. `expert` takes `hard`'s choice first and, where another move is
close (taking the upcard or the top discard against drawing or passing; a discard within
``MARGIN`` points of the best by `hard`'s ranking, at most ``MOST`` of them), plays each out
on the same ``budget`` guessed deals (`hard`'s guesses and play-outs; the seat itself knocking
as `normal` does in them, the others as soon as they may). It keeps `hard`'s choice unless
another averages ``PRIOR`` points more: at a few hundred guesses the search's noise is as large
as most gaps between close moves, and it helps only where it is sure (docs/bots.md).

Like `hard`, every choice is a function of the view and the player's random generator.
"""

from __future__ import annotations

import random

from okgin.actions import Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.guess import Guesser
from okgin.bots.hard import HORIZON, MAX_BUDGET, HardPlayer
from okgin.bots.judge import Judge
from okgin.bots.knowledge import knowledge_of
from okgin.bots.lookahead import mean_worths
from okgin.bots.normal import rank_discards
from okgin.bots.race import MatchWorth
from okgin.bots.rollout import Table
from okgin.cards import DECK
from okgin.hand import Phase
from okgin.view import SeatView

DEFAULT_BUDGET = 160
"""Guessed deals each close decision is searched on (every candidate played out on each)."""
MARGIN = 4.0
"""Discards judged within this many points of the best are searched."""
MOST = 4
"""The most moves searched at one decision, `hard`'s own among them."""
PRIOR = 3.0
"""Points another move must average above `hard`'s choice to replace it."""


class ExpertPlayer:
    name = "expert"

    def __init__(self, rng: random.Random | None = None, budget: int | None = None) -> None:
        self.rng = rng or random.Random()
        self.budget = max(1, min(MAX_BUDGET, DEFAULT_BUDGET if budget is None else int(budget)))
        self._hard = HardPlayer(self.rng, budget)  # the same budget for its knock search

    def act(self, view: SeatView) -> PlayerAction:
        """The action ``expert`` plays in ``view`` (one of ``view.legal``)."""
        choice = self._hard.act(view)
        moves = rivals(view, choice)
        if len(moves) < 2:
            return choice
        guesser = Guesser(knowledge_of(view), [c.index for c in view.discards])
        table = Table(view.rules, view.knock_limit, view.multiplier, patient=1 << view.seat)
        means = mean_worths(view, guesser, self.rng, [(move, table) for move in moves], self.budget,
                            MatchWorth(view))
        means[0] += PRIOR
        return moves[max(range(len(moves)), key=lambda i: means[i])]


def rivals(view: SeatView, choice: PlayerAction) -> list[PlayerAction]:
    """``choice`` (`hard`'s) first, then the other moves close enough to search: at a draw
    the other of taking and not taking; at a discard without a legal knock the discards
    within ``MARGIN`` points of the best (`hard` searches the turns where a knock is legal)."""
    seat = view.seat
    if view.phase in (Phase.OFFER, Phase.DRAW):
        if Take(seat) not in view.legal:
            return [choice]
        other: PlayerAction = Draw(seat) if Draw(seat) in view.legal else Pass(seat)
        return [choice, other if choice == Take(seat) else Take(seat)]
    if view.phase != Phase.DISCARD or not isinstance(choice, Discard):
        return [choice]
    if any(isinstance(action, Knock) for action in view.legal):
        return [choice]
    ranked = rank_discards(view, Judge(knowledge_of(view), view.stock_count, HORIZON))
    close = [Discard(seat, DECK[c.card]) for c in ranked if c.cost <= ranked[0].cost + MARGIN]
    return [choice, *[discard for discard in close if discard != choice][: MOST - 1]]
