"""Guessed deals of the hidden cards, made from a view alone, and what each move is worth in them.

The guesses come from the computer players' own inference (``Guesser``: each hidden hand
weighted by what its seat took, threw and passed). They are seeded from the public view, so
the same view always gives the same guesses and the same figures. A move's worth is the mean
of the points it brings over the guesses, each played out by the quick policy of the play-outs;
a discard made instead of a knock is worth the better of playing on that way and playing on
for gin (as `hard` reckons it).
"""

from __future__ import annotations

import random
import zlib

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.guess import Guesser
from okgin.bots.knowledge import Knowledge, completers, knowledge_of
from okgin.bots.memo import deadwood
from okgin.bots.rollout import Table, World, finish_turn, knock_points, play_out, utility
from okgin.hand import STOCK_FLOOR, Phase
from okgin.scoring import Outcome, score_hand
from okgin.view import SeatView

GUESSES = 32
"""Guessed deals per position: enough to separate moves a few points apart (docs/coach.md)."""


def seed_of(view: SeatView) -> int:
    """A seed from what the seat can see, so equal views give equal guesses."""
    public = (view.seat, view.hand_mask, tuple(map(str, view.history)), tuple(map(str, view.discards)))
    return zlib.crc32(repr(public).encode())


class Worlds:
    """``GUESSES`` guessed deals for one view, and the worth of moves in them."""

    def __init__(self, view: SeatView, guesses: int = GUESSES, salt: int = 0) -> None:
        """``salt``: another set of guesses for the same view (a review prices a move on
        guesses other than those it was chosen on)."""
        self.view = view
        self.knowledge: Knowledge = knowledge_of(view)
        guesser = Guesser(self.knowledge, [card.index for card in view.discards])
        rng = random.Random(seed_of(view) + salt)
        self.worlds = [guesser.world(rng) for _ in range(guesses)]
        self.table = Table(view.rules, view.knock_limit, view.multiplier)
        self.for_gin = Table(view.rules, view.knock_limit, view.multiplier, gin_seeker=view.seat)
        self.may_knock = any(isinstance(action, Knock) for action in view.legal)
        self._values: dict[PlayerAction, float] = {}

    def value(self, action: PlayerAction) -> float:
        """The points ``action`` is expected to bring the seat, less the others' mean."""
        known = self._values.get(action)
        if known is None:
            known = self._mean(action, self.table)
            if self.may_knock and isinstance(action, Discard):
                known = max(known, self._mean(action, self.for_gin))
            self._values[action] = known
        return known

    def _mean(self, action: PlayerAction, table: Table) -> float:
        seat = self.view.seat
        total = sum(utility(self._outcome(world.copy(), action, table), seat) for world in self.worlds)
        return total / len(self.worlds)

    def undercut_share(self, knock: Knock) -> float:
        """The share of guessed deals in which knocking with ``knock`` is undercut."""
        seat = self.view.seat
        lost = 0
        for world in self.worlds:
            points = knock_points(self.table, world.hands, seat, knock.card.index)
            lost += any(p > 0 for s, p in enumerate(points) if s != seat)
        return lost / len(self.worlds)

    def want_share(self, seat: int, card: int) -> float:
        """The share of guessed deals in which ``seat`` could meld ``card`` at once."""
        hits = sum(completers(world.hands[seat]) >> card & 1 for world in self.worlds)
        return hits / len(self.worlds)

    def _outcome(self, world: World, action: PlayerAction, table: Table) -> tuple[int, ...]:
        seat = self.view.seat
        following = (seat + 1) % table.players
        if isinstance(action, Knock):
            return knock_points(table, world.hands, seat, action.card.index)
        if isinstance(action, BigGin):
            dead = [0 if s == seat else deadwood(hand) for s, hand in enumerate(world.hands)]
            return score_hand(table.rules, Outcome.BIG_GIN, seat, dead, table.multiplier).points
        if isinstance(action, Discard):
            world.hands[seat] &= ~action.card.mask
            world.pile.append(action.card.index)
            if len(world.stock) <= STOCK_FLOOR:
                return (0,) * table.players
            return play_out(table, world, following)
        if isinstance(action, Pass):
            if self.view.phase == Phase.LAST_CHANCE:
                return (0,) * table.players
            return play_out(table, world, following)
        ended = self._draw(world, action)
        return ended if ended is not None else play_out(table, world, following)

    def _draw(self, world: World, action: Take | Draw) -> tuple[int, ...] | None:
        """The seat takes or draws, then finishes its turn by the quick policy."""
        seat = self.view.seat
        if isinstance(action, Take):
            top = world.pile.pop()
            world.hands[seat] |= 1 << top
            return finish_turn(self.table, world, seat, top)
        world.hands[seat] |= 1 << world.stock.pop()
        return finish_turn(self.table, world, seat, -1)

