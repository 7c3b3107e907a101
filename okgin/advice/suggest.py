"""The move the coach suggests in a view: of the moves worth weighing, the one worth the most.

The moves weighed are the knock search's candidates (the judgement `hard` and `expert` start
from, `bots/knock_search.py`): the draws, or Big Gin, the best knock, `normal`'s three best
discards and the knock search's own. Each is worth the mean of the points it brings over a fixed
number of guessed deals seeded from the view (``Worlds``), with a benefit of the doubt for the
move the knock search's own judgement picks and a point more for an ordinary knock; the suggestion is the
move worth the most, so the figures shown beside it always rank it first (docs/coach.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.advice.reasons import reason
from okgin.advice.worlds import Worlds, seed_of
from okgin.bots.guess import Guesser
from okgin.bots.judge import Judge
from okgin.bots.knock_search import GuessedWants, safer_discard
from okgin.bots.memo import deadwood
from okgin.bots.normal import best_knock, rank_discards, should_take, takes_last_chance
from okgin.bots.race import MatchWorth
from okgin.cards import DECK
from okgin.hand import Phase
from okgin.view import SeatView

TRUST = 2.0
"""Points of benefit of the doubt given to the move the knock search's own judgement picks (as
the knock search gives `normal`'s choice): another move must beat it by more than the guesses' noise."""
PRIOR = 1.0
"""Points added to an ordinary knock's worth: it ends the hand now, where playing on rests on
guessing the draws to come as well as the hands (gin needs no such benefit of the doubt)."""
SHORTLIST = 3
"""Discards, best first by `normal`'s ranking, that the coach weighs."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The move to make, the sentence saying why, and the moves weighed with their worth in
    points, best first: ``values[0]`` is always the suggested move."""

    action: PlayerAction
    text: str
    values: tuple[tuple[PlayerAction, float], ...]


def suggest(view: SeatView, worlds: Worlds, names: Sequence[str] = ()) -> Suggestion | None:
    """The suggested move for ``view`` with its reason; None when it is not the seat's turn."""
    if not view.my_turn or not view.legal:
        return None
    favoured = trusted(view, worlds)
    weighed = [(move, worth(view, worlds, move, favoured)) for move in candidates(view, worlds)]
    values = tuple(sorted(weighed, key=lambda pair: -pair[1]))  # stable: ties keep `hard`'s order
    action = values[0][0]
    return Suggestion(action, reason(view, worlds, action, dict(values), names), values)


def worth(
    view: SeatView, worlds: Worlds, move: PlayerAction, favoured: set[PlayerAction]
) -> float:
    """What ``move`` is worth to the coach, in points: its mean over the guessed deals, plus
    ``TRUST`` if it is in ``favoured`` (`hard`'s own choice, see ``trusted``) and ``PRIOR``
    more for an ordinary knock. The suggestion is the move worth the most, and a review prices
    a mistake as the suggestion's worth less the move's."""
    value = worlds.value(move)
    if move in favoured:
        value += TRUST
    if isinstance(move, Knock) and deadwood(view.hand_mask & ~move.card.mask) > 0:
        value += PRIOR
    return round(value, 2)


def trusted(view: SeatView, worlds: Worlds) -> set[PlayerAction]:
    """The moves the knock search's own judgement picks before any look-ahead: the draw `normal` makes,
    or its best discard and the best knock."""
    seat = view.seat
    if view.phase == Phase.DISCARD:
        knock = best_knock(view)
        found: set[PlayerAction] = {_safer_discard(view, worlds)}
        return found | ({knock} if knock is not None else set())
    stay: PlayerAction = Draw(seat) if Draw(seat) in view.legal else Pass(seat)
    if Take(seat) not in view.legal:
        return {stay}
    top = view.discards[-1]
    if view.phase == Phase.LAST_CHANCE:
        take = takes_last_chance(view, top.index)
    else:
        take = should_take(view, Judge(worlds.knowledge, view.stock_count), top.index)
    return {Take(seat) if take else stay}


def _safer_discard(view: SeatView, worlds: Worlds) -> Discard:
    """The knock search's discard, by its own function (``safer_discard``: its horizon, its feed
    weight, its ``FEED_GUESSES`` guesses of the next seat's hand, here seeded by the view)."""
    following = (view.seat + 1) % view.rules.players
    guesser = Guesser(worlds.knowledge, [card.index for card in view.discards])
    wants = GuessedWants(guesser, random.Random(seed_of(view)), following)
    return safer_discard(view, worlds.knowledge, MatchWorth(view), wants.share)


def candidates(view: SeatView, worlds: Worlds) -> list[PlayerAction]:
    """The moves worth weighing in ``view``: the draws, or Big Gin, the best knock, `normal`'s
    best discards and the knock search's."""
    if view.phase != Phase.DISCARD:
        return list(view.legal)
    judge = Judge(worlds.knowledge, view.stock_count)
    found: list[PlayerAction] = [a for a in view.legal if isinstance(a, BigGin)]
    knock = best_knock(view)
    if knock is not None:
        found.append(knock)
    ranked = rank_discards(view, judge)
    found += [Discard(view.seat, DECK[choice.card]) for choice in ranked[:SHORTLIST]]
    safer = _safer_discard(view, worlds)
    return found if safer in found else [*found, safer]
