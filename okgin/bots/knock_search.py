"""The knock search: `normal`'s judgement, sharpened by guessing the other hands.

`hard` and `expert` play this first (``KnockSearchPlayer``) and then search their close draws
and discards too (`bots/close_search.py`); before issue 27 it was `hard` itself.

It guesses the unseen cards again and again (``Guesser``: each other hand weighted by what
that seat took, threw and passed, the stock shuffled from the rest). Whenever it may knock,
it scores the knock against every guess (undercuts included, layoffs and the spade double
counted by the engine's own scoring) and plays the same guesses out after its best discard
instead (``play_move``, the model the coach shares) twice: once knocking at its next chance,
once playing for gin, on ``budget`` guesses per decision, and does whichever of the three
averages more points. It ranks discards as `normal` does but counting on two draws ahead
(``HORIZON``), and among those it judges close throws the one the next seat's guessed hands
can use least. Draws follow `normal`.

Every choice is a function of the view and the player's random generator: the budget is a
number of guesses, not seconds, so the same seed plays the same game on a busy machine.
``lookahead.SAFETY_SECONDS`` of the search's own CPU time only stops a search that would otherwise hang
a game; no decision measured comes near it (docs/bots.md), and waiting for a core on a loaded
machine does not count towards it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from okgin.actions import BigGin, Discard, Knock, PlayerAction
from okgin.bots.guess import Guesser
from okgin.bots.judge import Judge
from okgin.bots.knowledge import Knowledge, completers, knowledge_of
from okgin.bots.lookahead import mean_worths
from okgin.bots.memo import deadwood
from okgin.bots.normal import NormalPlayer, best_knock, rank_discards
from okgin.bots.race import MatchWorth
from okgin.bots.rollout import Table
from okgin.cards import DECK
from okgin.hand import Phase
from okgin.view import SeatView

DEFAULT_BUDGET = 200
"""Guessed deals a knock is searched on by default (each played out once per plan)."""
MAX_BUDGET = 10_000
"""The most guesses a caller may ask for."""
CLOSE = 3.0
"""Discards judged within this many points of `normal`'s best are looked at too."""
PRIOR = 0.5
"""Points of benefit of the doubt given to `normal`'s own choice."""
FEED_GUESSES = 48
"""Guesses of the next seat's hand used to weigh each discard's risk."""
FEED_POINTS = 3.0
"""What handing the next seat a card that melds is reckoned to cost."""
HORIZON = 2.0
"""Draws ahead the knock search counts on when it judges a discard (`normal` counts on three): it
knocks or goes for gin sooner than `normal`, so fewer draws are left to improve a hand."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A move to look ahead at, and whether the seat then plays on for gin (knocking only
    with gin until the stock runs low) rather than knocking at its next chance."""

    action: PlayerAction
    for_gin: bool = False


class KnockSearchPlayer:
    name = "knock-search"

    def __init__(self, rng: random.Random | None = None, budget: int | None = None) -> None:
        self.rng = rng or random.Random()
        self.budget = max(1, min(MAX_BUDGET, DEFAULT_BUDGET if budget is None else int(budget)))
        self._normal = NormalPlayer(self.rng)

    def act(self, view: SeatView) -> PlayerAction:
        """The action the knock search plays in ``view`` (one of ``view.legal``)."""
        default = self._normal.act(view)
        if view.phase != Phase.DISCARD or isinstance(default, BigGin):
            return default
        knowledge = knowledge_of(view)
        guesser = Guesser(knowledge, [c.index for c in view.discards])
        plans = self._plans(view, knowledge, default)
        worth = MatchWorth(view)
        if len(plans) > 1:
            default = self._search(view, guesser, plans, worth)
        if isinstance(default, Discard):
            return self._safer_discard(view, knowledge, guesser, worth)
        return default

    def _plans(self, view: SeatView, knowledge: Knowledge, default: PlayerAction) -> list[Plan]:
        """The plans worth a look ahead, ``default`` first: knocking now, or discarding and
        knocking at the next chance, or discarding and playing for gin."""
        knock = best_knock(view)
        if knock is not None and deadwood(view.hand_mask & ~knock.card.mask) == 0:
            return [Plan(knock)]
        if knock is None:
            return [Plan(default)]
        if isinstance(default, Knock):
            discard = _best_discard(view, knowledge)
            return [Plan(default), Plan(discard), Plan(discard, for_gin=True)]
        return [Plan(default), Plan(knock), Plan(default, for_gin=True)]

    def _search(
        self, view: SeatView, guesser: Guesser, plans: list[Plan], worth: MatchWorth
    ) -> PlayerAction:
        """The action of the plan whose hands are worth most on average over guessed deals
        (``worth``: their points, and under penalty scoring the match they leave)."""
        quick = Table(view.rules, view.knock_limit, view.multiplier)
        for_gin = Table(view.rules, view.knock_limit, view.multiplier, gin_seeker=view.seat)
        moves = [(plan.action, for_gin if plan.for_gin else quick) for plan in plans]
        means = mean_worths(view, guesser, self.rng, moves, self.budget, worth)
        means[0] += PRIOR
        best = max(range(len(plans)), key=lambda i: means[i])
        return plans[best].action

    def _safer_discard(
        self, view: SeatView, knowledge: Knowledge, guesser: Guesser, worth: MatchWorth
    ) -> Discard:
        """The safer discard (``safer_discard``), the next seat's hand guessed
        ``FEED_GUESSES`` times from this decision's guesses."""
        after = (view.seat + 1) % view.rules.players
        return safer_discard(view, knowledge, worth, GuessedWants(guesser, self.rng, after).share)


class GuessedWants:
    """The share of ``FEED_GUESSES`` guesses of ``seat``'s hand that meld a card; the guesses
    are drawn at the first question only (most discards are not close enough to ask)."""

    def __init__(self, guesser: Guesser, rng: random.Random, seat: int) -> None:
        self._guesser, self._rng, self._seat = guesser, rng, seat
        self._wants: list[int] | None = None

    def share(self, card: int) -> float:
        if self._wants is None:
            self._wants = [
                completers(self._guesser.world(self._rng).hands[self._seat])
                for _ in range(FEED_GUESSES)
            ]
        return sum(wants >> card & 1 for wants in self._wants) / FEED_GUESSES


def safer_discard(
    view: SeatView, knowledge: Knowledge, worth: MatchWorth, wants: Callable[[int], float]
) -> Discard:
    """The discard the knock search plays when it does not knock, and the one the coach
    trusts (one function for both): `normal`'s ranking counted ``HORIZON`` draws ahead,
    and among the discards within ``max(CLOSE, feed)`` points of its best (at most four)
    the one whose cost is least once the visible feed cost is replaced by ``feed`` times
    ``wants(card)``, the share of guessed hands of the next seat that meld it. ``feed`` is
    ``FEED_POINTS`` times what that seat winning a hand would cost (``worth.feed_weight``:
    more when it is near the target under penalty scoring)."""
    judge = Judge(knowledge, view.stock_count, HORIZON)
    choices = rank_discards(view, judge)
    after = (view.seat + 1) % view.rules.players
    feed = FEED_POINTS * worth.feed_weight(after)
    close = [ch for ch in choices if ch.cost <= choices[0].cost + max(CLOSE, feed)][:4]
    if len(close) < 2:
        return Discard(view.seat, DECK[choices[0].card])
    costs = [choice.cost - judge.feed_cost(choice.card) + feed * wants(choice.card) for choice in close]
    best = min(range(len(close)), key=lambda i: (costs[i], i))
    return Discard(view.seat, DECK[close[best].card])


def _best_discard(view: SeatView, knowledge: Knowledge) -> Discard:
    """The best discard by the knock search's ranking (as it would play when it does not knock)."""
    choice = rank_discards(view, Judge(knowledge, view.stock_count, HORIZON))[0]
    return Discard(view.seat, DECK[choice.card])
