"""Guessed deals of the hidden cards, made from a view alone, and what each move is worth in them.

The guesses come from the computer players' own inference (``Guesser``: each hidden hand
weighted by what its seat took, threw and passed). They are seeded from the public view, so
the same view always gives the same guesses and the same figures. A move's worth is the mean
of the points it brings over the guesses, each played out by the quick policy of the play-outs;
a discard made instead of a knock is worth the better of playing on that way and playing on
for gin (as `hard` reckons it). Every line is played as the rules play it (``play_move``: a pass
at the offer gives the next seats the upcard, then the non-dealer draws). After the offer, a
take or a draw is worth the best of the seat's three ways of playing on: knocking at its first
chance, knocking as `normal` does, or playing for gin; so a draw is no longer priced as "draw
and knock at once" while a take plays on. The other seats knock as soon as they may, as `simple`
does and as `hard` reckons, or as `normal` does (``patient``).
"""

from __future__ import annotations

import random
import zlib

from okgin.actions import Discard, Knock, PlayerAction
from okgin.bots.guess import Guesser
from okgin.bots.knowledge import Knowledge, completers, knowledge_of
from okgin.bots.rollout import Table, knock_points, play_move_each, utility
from okgin.hand import Phase
from okgin.view import SeatView

GUESSES = 32
"""Guessed deals per position: enough to separate moves a few points apart (docs/coach.md)."""


def seed_of(view: SeatView) -> int:
    """A seed from what the seat can see, so equal views give equal guesses."""
    public = (view.seat, view.hand_mask, tuple(map(str, view.history)), tuple(map(str, view.discards)))
    return zlib.crc32(repr(public).encode())


class Worlds:
    """``GUESSES`` guessed deals for one view, and the worth of moves in them."""

    def __init__(
        self, view: SeatView, guesses: int = GUESSES, salt: int = 0, patient: bool = False
    ) -> None:
        """``salt``: another set of guesses for the same view (a review prices a move on
        guesses other than those it was chosen on). ``patient``: the other seats knock as
        `normal` does (a `normal` or `hard` opponent), not as soon as they may (as `simple`
        does, and as `hard` reckons when it looks ahead)."""
        self.view = view
        self.knowledge: Knowledge = knowledge_of(view)
        guesser = Guesser(self.knowledge, [card.index for card in view.discards])
        rng = random.Random(seed_of(view) + salt)
        self.worlds = [guesser.world(rng) for _ in range(guesses)]
        others = sum(1 << seat for seat in self.knowledge.others()) if patient else 0
        rules, limit, multiplier = view.rules, view.knock_limit, view.multiplier
        self.table = Table(rules, limit, multiplier, patient=others)
        self.for_gin = Table(rules, limit, multiplier, gin_seeker=view.seat, patient=others)
        self.patient = Table(rules, limit, multiplier, patient=others | 1 << view.seat)
        self.may_knock = any(isinstance(action, Knock) for action in view.legal)
        self._values: dict[PlayerAction, float] = {}

    def value(self, action: PlayerAction) -> float:
        """The points ``action`` is expected to bring the seat, less the others' mean."""
        known = self._values.get(action)
        if known is None:
            tables: tuple[Table, ...] = (self.table,)
            if self.view.phase == Phase.DRAW:
                tables = (self.table, self.patient, self.for_gin)
            elif self.may_knock and isinstance(action, Discard):
                tables = (self.table, self.for_gin)
            known = self._values[action] = max(self._means(action, tables))
        return known

    def _means(self, action: PlayerAction, tables: tuple[Table, ...]) -> list[float]:
        """The mean of ``action``'s points under each of ``tables``: each guess is played
        out once for them all (``play_move_each`` shares the turns the tables play alike)."""
        seat, phase, dealer = self.view.seat, self.view.phase, self.view.dealer
        utilities: list[list[float]] = [[] for _ in tables]
        for world in self.worlds:
            for found, points in zip(
                utilities, play_move_each(tables, world.copy(), seat, action, phase, dealer), strict=True
            ):
                found.append(utility(points, seat))
        return [sum(found) / len(self.worlds) for found in utilities]

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
