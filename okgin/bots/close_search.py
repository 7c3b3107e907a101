"""The close-move search `hard` and `expert` share: the knock search's choice, then its close
draws and discards searched.

The knock search (`bots/knock_search.py`) looks ahead only where a knock is legal; its other
draws and discards follow `normal`'s heuristics. ``CloseSearchPlayer`` takes its choice first
and, where another move is close (taking the upcard or the top discard against drawing or
passing; a discard within ``MARGIN`` points of the best by the knock search's ranking, at most
``MOST`` of them), plays each out on the same guessed deals (the knock search's guesses and
play-outs; the seat itself knocking as `normal` does in them, the others as soon as they may).
It keeps the knock search's choice unless another averages ``prior`` points more: the search's
noise is as large as most gaps between close moves, and it helps only where it is sure
(docs/bots.md). `hard` and `expert` differ in how many deals they guess and so in that prior.

Every choice is a function of the view and the player's random generator.
"""

from __future__ import annotations

import random

from okgin.actions import Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.guess import Guesser
from okgin.bots.judge import Judge
from okgin.bots.knock_search import HORIZON, MAX_BUDGET, KnockSearchPlayer
from okgin.bots.knowledge import knowledge_of
from okgin.bots.lookahead import mean_worths
from okgin.bots.normal import rank_discards
from okgin.bots.race import MatchWorth
from okgin.bots.rollout import Table
from okgin.cards import DECK
from okgin.hand import Phase
from okgin.view import SeatView

MARGIN = 4.0
"""Discards judged within this many points of the best are searched."""
MOST = 4
"""The most moves searched at one decision, the knock search's own among them."""


class CloseSearchPlayer:
    """A level that searches its close moves (`hard` and `expert` set the class attributes below):
    ``guesses`` deals for each close decision and ``knock_guesses`` for each knock search (a
    ``budget`` given sets both), the knock search's choice kept unless another move averages
    ``prior`` points more."""

    name: str
    guesses: int
    knock_guesses: int
    prior: float

    def __init__(self, rng: random.Random | None = None, budget: int | None = None) -> None:
        self.rng = rng or random.Random()
        self.budget = max(1, min(MAX_BUDGET, self.guesses if budget is None else int(budget)))
        knock_budget = self.knock_guesses if budget is None else budget
        self._knocks = KnockSearchPlayer(self.rng, knock_budget)

    def act(self, view: SeatView) -> PlayerAction:
        """The action played in ``view`` (one of ``view.legal``)."""
        choice = self._knocks.act(view)
        moves = rivals(view, choice)
        if len(moves) < 2:
            return choice
        guesser = Guesser(knowledge_of(view), [c.index for c in view.discards])
        table = Table(view.rules, view.knock_limit, view.multiplier, patient=1 << view.seat)
        means = mean_worths(view, guesser, self.rng, [(move, table) for move in moves], self.budget,
                            MatchWorth(view))
        means[0] += self.prior
        return moves[max(range(len(moves)), key=lambda i: means[i])]


def rivals(view: SeatView, choice: PlayerAction) -> list[PlayerAction]:
    """``choice`` (the knock search's) first, then the other moves close enough to search: at a
    draw the other of taking and not taking; at a discard without a legal knock the discards
    within ``MARGIN`` points of the best (the knock search searches the turns where a knock is
    legal)."""
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
