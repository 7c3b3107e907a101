"""The `hard` player: `normal`'s judgement, sharpened by guessing the other hands.

It guesses the unseen cards again and again (``Guesser``: each other hand weighted by what
that seat took, threw and passed, the stock shuffled from the rest). Whenever it may knock,
it scores the knock against every guess (undercuts included, layoffs and the spade double
counted by the engine's own scoring) and plays the same guesses out after its best discard
instead (``play_out``), on ``budget`` guesses per decision, and does whichever averages
more points. Among discards that `normal` judges close, it throws the one the next seat's
guessed hands can use least. Draws follow `normal`.

Every choice is a function of the view and the player's random generator: the budget is a
number of guesses, not seconds, so the same seed plays the same game on a busy machine.
``SAFETY_SECONDS`` only stops a search that would otherwise hang a game; no decision on the
machines measured comes near it (docs/bots.md).
"""

from __future__ import annotations

import random
import time

from okgin.actions import BigGin, Discard, Knock, PlayerAction
from okgin.bots.guess import Guesser
from okgin.bots.judge import Judge
from okgin.bots.knowledge import Knowledge, completers, knowledge_of
from okgin.bots.memo import deadwood
from okgin.bots.normal import NormalPlayer, best_knock, rank_discards
from okgin.bots.rollout import Table, World, knock_points, play_out
from okgin.cards import DECK
from okgin.hand import STOCK_FLOOR, Phase
from okgin.view import SeatView

DEFAULT_BUDGET = 200
"""Guessed deals searched per look-ahead by default (each played out once per candidate)."""
MAX_BUDGET = 10_000
"""The most guesses a caller may ask for."""
SAFETY_SECONDS = 5.0
"""A search stops after this long whatever its budget: a safety net against a stalled
machine, far above any search measured (p99 well under a second), so it changes no decision
in practice."""
CLOSE = 3.0
"""Discards judged within this many points of `normal`'s best are looked at too."""
PRIOR = 0.5
"""Points of benefit of the doubt given to `normal`'s own choice."""
FEED_GUESSES = 48
"""Guesses of the next seat's hand used to weigh each discard's risk."""
FEED_POINTS = 3.0
"""What handing the next seat a card that melds is reckoned to cost."""


class HardPlayer:
    name = "hard"

    def __init__(self, rng: random.Random | None = None, budget: int | None = None) -> None:
        self.rng = rng or random.Random()
        self.budget = max(1, min(MAX_BUDGET, DEFAULT_BUDGET if budget is None else int(budget)))
        self._normal = NormalPlayer(self.rng)

    def act(self, view: SeatView) -> PlayerAction:
        """The action ``hard`` plays in ``view`` (one of ``view.legal``)."""
        default = self._normal.act(view)
        if view.phase != Phase.DISCARD or isinstance(default, BigGin):
            return default
        knowledge = knowledge_of(view)
        guesser = Guesser(knowledge, [c.index for c in view.discards])
        candidates = self._candidates(view, knowledge, default)
        if len(candidates) > 1:
            default = self._search(view, guesser, candidates)
        if isinstance(default, Discard):
            return self._safer_discard(view, knowledge, guesser)
        return default

    def _candidates(
        self, view: SeatView, knowledge: Knowledge, default: PlayerAction
    ) -> list[PlayerAction]:
        """The actions worth a look ahead, ``default`` first: knocking or playing on."""
        seat = view.seat
        knock = best_knock(view)
        if knock is not None and deadwood(view.hand_mask & ~knock.card.mask) == 0:
            return [knock]
        if knock is None:
            return [default]
        if isinstance(default, Knock):
            return [default, Discard(seat, _best_discard(view, knowledge).card)]
        return [default, knock]

    def _search(
        self, view: SeatView, guesser: Guesser, candidates: list[PlayerAction]
    ) -> PlayerAction:
        """The candidate with the best average points over guessed deals."""
        table = Table(view.rules, view.knock_limit, view.multiplier)
        totals = [0.0] * len(candidates)
        deadline = time.perf_counter() + SAFETY_SECONDS
        guesses = 0
        while guesses < self.budget and (guesses < 4 or time.perf_counter() < deadline):
            world = guesser.world(self.rng)
            for i, action in enumerate(candidates):
                points = _play(table, world.copy(), view, action)
                totals[i] += _utility(points, view.seat)
            guesses += 1
        means = [t / guesses for t in totals]
        means[0] += PRIOR
        best = max(range(len(candidates)), key=lambda i: means[i])
        return candidates[best]

    def _safer_discard(self, view: SeatView, knowledge: Knowledge, guesser: Guesser) -> Discard:
        """`normal`'s discard, with the risk of feeding the next seat measured on guesses
        of its hand rather than on the visible hints alone."""
        judge = Judge(knowledge, view.stock_count)
        choices = rank_discards(view, judge)
        close = [ch for ch in choices if ch.cost <= choices[0].cost + CLOSE][:4]
        if len(close) < 2:
            return Discard(view.seat, DECK[choices[0].card])
        after = (view.seat + 1) % view.rules.players
        fed = [0] * len(close)
        for _ in range(FEED_GUESSES):
            wants = completers(guesser.world(self.rng).hands[after])
            for i, choice in enumerate(close):
                fed[i] += wants >> choice.card & 1
        costs = [
            choice.cost - judge.feed_cost(choice.card) + FEED_POINTS * fed[i] / FEED_GUESSES
            for i, choice in enumerate(close)
        ]
        best = min(range(len(close)), key=lambda i: (costs[i], i))
        return Discard(view.seat, DECK[close[best].card])


def _best_discard(view: SeatView, knowledge: Knowledge) -> Discard:
    """`normal`'s discard (as it would play when it does not knock)."""
    choice = rank_discards(view, Judge(knowledge, view.stock_count))[0]
    return Discard(view.seat, DECK[choice.card])


def _play(table: Table, world: World, view: SeatView, action: PlayerAction) -> tuple[int, ...]:
    """Apply ``action`` (a knock or a discard) for the view's seat in ``world`` and play the
    hand out. Returns each seat's points."""
    seat = view.seat
    hands = world.hands
    if isinstance(action, Knock):
        return knock_points(table, hands, seat, action.card.index)
    if isinstance(action, Discard):
        hands[seat] &= ~action.card.mask
        world.pile.append(action.card.index)
        if len(world.stock) <= STOCK_FLOOR:
            return (0,) * table.players
        return play_out(table, world, (seat + 1) % table.players)
    raise ValueError(f"hard looks ahead at knocks and discards only, not {action}")


def _utility(points: tuple[int, ...], seat: int) -> float:
    """Points won by ``seat`` less the average of the others' (penalty scoring included)."""
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / len(others)
