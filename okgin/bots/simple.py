"""The `simple` baseline: the reference strategy of the EAAI Gin Rummy challenge.

Take the upcard or top discard only if it would join a meld (and so lower the deadwood
left after the best discard: without that, players who feed each other could pass cards
round a table for ever), else draw from the stock (or pass the first upcard); discard a
card leaving the least deadwood, at random among ties,
never the card just taken; knock as soon as the limit allows, showing a least-deadwood
arrangement (gin, or Big Gin where the rules have it, when every card melds).
"""

from __future__ import annotations

import random

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.cards import Card
from okgin.hand import Phase
from okgin.melds import deadwood_of_mask
from okgin.view import SeatView


def worth_taking(hand_mask: int, card: Card) -> bool:
    """Whether ``card`` joins a meld and, after the best other discard, lowers the deadwood."""
    now = deadwood_of_mask(hand_mask)
    if deadwood_of_mask(hand_mask | card.mask) >= now + card.points:
        return False  # some least-deadwood arrangement leaves the card unmatched
    rest = hand_mask
    while rest:
        low = rest & -rest
        rest ^= low
        if deadwood_of_mask(hand_mask ^ low | card.mask) < now:
            return True
    return False


class SimplePlayer:
    name = "simple"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def act(self, view: SeatView) -> PlayerAction:
        seat, legal = view.seat, view.legal
        if view.phase in (Phase.OFFER, Phase.DRAW, Phase.LAST_CHANCE):
            if Take(seat) in legal and worth_taking(view.hand_mask, view.discards[-1]):
                return Take(seat)
            return Draw(seat) if Draw(seat) in legal else Pass(seat)
        if BigGin(seat) in legal:
            return BigGin(seat)
        knocks: list[Knock | Discard] = [a for a in legal if isinstance(a, Knock)]
        options = knocks or [a for a in legal if isinstance(a, Discard)]
        return self._least_deadwood(view.hand_mask, options)

    def _least_deadwood(self, hand: int, options: list[Knock | Discard]) -> PlayerAction:
        scored = [(deadwood_of_mask(hand ^ a.card.mask), a) for a in options]
        least = min(value for value, _ in scored)
        return self.rng.choice([a for value, a in scored if value == least])
