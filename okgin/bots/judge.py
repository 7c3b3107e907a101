"""Judging hands and discards from one seat's knowledge: the heuristics `normal` plays by.

A ten-card hand is worth its deadwood less what the next draws are expected to save (the
unseen cards that would meld with it, each as likely as any to come next); a discard
costs its share of the melds it could give the other seats.
"""

from __future__ import annotations

from okgin.bots.knowledge import RANK_BITS, Knowledge, completers, wanted_by
from okgin.bots.memo import deadwood, discard_value
from okgin.hand import STOCK_FLOOR

FEED_COST = 1.5
"""Points a discard is charged for each unit of a seat's visible interest in it."""
LIVE_COST = 0.35
"""Points a discard is charged for each meld it could still join in an unseen hand."""
HORIZON = 3.0
"""The most draws a hand's value counts on (fewer as the stock runs out)."""


class Judge:
    """Values hands and discards for one decision (build a new one for each view)."""

    def __init__(self, knowledge: Knowledge, stock_count: int, horizon: float = HORIZON) -> None:
        self.k = knowledge
        self.unknown = knowledge.unknown
        self.unseen = max(1, knowledge.unknown.bit_count())
        turns_left = max(0, stock_count - STOCK_FLOOR) / knowledge.players
        self.horizon = min(horizon, turns_left)
        opponent_cards = 0
        for seat in knowledge.others():
            opponent_cards |= knowledge.held[seat]
        self.live = knowledge.unknown | opponent_cards
        """Cards that could still be in someone else's meld."""
        self._gains: dict[int, float] = {}

    def draw_gain(self, hand: int) -> float:
        """The deadwood that one draw from the stock is expected to save ``hand`` (10 cards)."""
        gain = self._gains.get(hand)
        if gain is None:
            gain = self._gains[hand] = self._draw_gain(hand)
        return gain

    def _draw_gain(self, hand: int) -> float:
        now = deadwood(hand)
        if now == 0:
            return 0.0
        total = 0.0
        rest = completers(hand) & self.unknown
        while rest:
            low = rest & -rest
            rest ^= low
            total += max(0, now - discard_value(hand | low))
        return total / self.unseen

    def value(self, hand: int) -> float:
        """What ``hand`` (10 cards) is worth: its deadwood less the expected savings to come."""
        return deadwood(hand) - self.horizon * self.draw_gain(hand)

    def feed_cost(self, card: int) -> float:
        """What discarding ``card`` is charged for the melds it may give the other seats."""
        cost = 0.0
        for seat in self.k.others():
            cost += FEED_COST * max(0.0, wanted_by(self.k, seat, card))
        return cost + LIVE_COST * live_melds(card, self.live)


def live_melds(card: int, live: int) -> int:
    """How many three-card melds with ``card`` could be completed from the ``live`` cards."""
    suit, rank = divmod(card, 13)
    same = (RANK_BITS << rank) & live & ~(1 << card)
    count = {2: 1, 3: 3}.get(same.bit_count(), 0)
    run = live >> (13 * suit)
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if rank + a >= 0 and rank + b <= 12 and run >> (rank + a) & run >> (rank + b) & 1:
            count += 1
    return count
