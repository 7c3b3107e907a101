"""Guessing the unseen cards: deals of the other hands and the stock consistent with a view.

The other seats' unseen cards are drawn with weights from what each seat took, threw and
passed (``holding_weight``), so a seat that took the 7♥ is guessed to hold its neighbours;
and a seat that has drawn for a while is guessed the best of a few such hands.
"""

from __future__ import annotations

import random

from okgin.bots.knowledge import Knowledge, holding_weight
from okgin.bots.memo import deadwood
from okgin.bots.rollout import World
from okgin.cards import indices_of_mask

STOCK_ONLY_WEIGHT = 0.2
"""Cards reshuffled into the stock are seldom in a hand (only if drawn since)."""
DRAWS_PER_TRY = 2
"""A seat that has drawn this many times gets one more try at its guessed hand, the least
deadwood kept: a player who has drawn for a while holds a better hand than a random one.
0 turns this off."""
MAX_TRIES = 6


class Guesser:
    """Draws guesses of the hidden cards for one decision (build one per view)."""

    def __init__(self, knowledge: Knowledge, pile: list[int]) -> None:
        self.k = knowledge
        self.pile = pile
        self.cards = indices_of_mask(knowledge.unknown)
        self.weights: dict[int, list[float]] = {}
        for seat in knowledge.others():
            weights = []
            for card in self.cards:
                w = holding_weight(knowledge, seat, card)
                if knowledge.stock_only >> card & 1:
                    w *= STOCK_ONLY_WEIGHT
                weights.append(w)
            self.weights[seat] = weights

    def world(self, rng: random.Random) -> World:
        """One guess: each other seat's hand filled to its size, the rest as the stock."""
        hands = list(self.k.held)
        free = set(range(len(self.cards)))
        for seat in self.k.others():
            need = self.k.hidden[seat]
            if need <= 0:
                continue
            tries = 1
            if DRAWS_PER_TRY:
                tries = min(MAX_TRIES, 1 + self.k.draws[seat] // DRAWS_PER_TRY)
            best, best_dead = [], 1 << 30
            for _ in range(tries):
                picked = self._pick(free, self.weights[seat], need, rng)
                dead = deadwood(hands[seat] | sum(1 << self.cards[i] for i in picked))
                if dead < best_dead:
                    best, best_dead = picked, dead
            for i in best:
                hands[seat] |= 1 << self.cards[i]
                free.discard(i)
        stock = [self.cards[i] for i in free]
        rng.shuffle(stock)
        return World(hands, stock, self.pile[:], list(self.k.draws))

    def _pick(self, free: set[int], weights: list[float], need: int, rng: random.Random) -> list[int]:
        """``need`` of the ``free`` card positions, drawn without replacement by weight."""
        if len(free) <= need:
            return list(free)
        keyed = sorted(free, key=lambda i: rng.random() ** (1.0 / weights[i]), reverse=True)
        return keyed[:need]
