"""The `easy` player: a beginner's choices, always legal and quick.

It takes a discard only when it makes a meld at once (and now and then overlooks one),
throws its highest unmatched card (sometimes just any unmatched card, and without asking
what the others want), and knocks as soon as it may (though now and then it misses the
chance). It never looks at the cards gone by.
"""

from __future__ import annotations

import random

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.knowledge import completers
from okgin.bots.memo import deadwood
from okgin.hand import Phase
from okgin.melds import arrangement_of_mask
from okgin.view import SeatView

OVERLOOK = 0.25
"""How often a meld-making discard goes unnoticed."""
CARELESS = 0.2
"""How often the discard is any unmatched card rather than the highest."""
MISSED_KNOCK = 0.15
"""How often a possible ordinary knock goes unnoticed (gin never does)."""


class EasyPlayer:
    name = "easy"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def act(self, view: SeatView) -> PlayerAction:
        """The action ``easy`` plays in ``view`` (one of ``view.legal``)."""
        seat, legal = view.seat, view.legal
        if view.phase in (Phase.OFFER, Phase.DRAW, Phase.LAST_CHANCE):
            top = view.discards[-1].index if view.discards else -1
            melds = top >= 0 and completers(view.hand_mask) >> top & 1
            if Take(seat) in legal and melds and self.rng.random() >= OVERLOOK:
                return Take(seat)
            return Draw(seat) if Draw(seat) in legal else Pass(seat)
        if BigGin(seat) in legal:
            return BigGin(seat)
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            best = min(knocks, key=lambda a: deadwood(view.hand_mask & ~a.card.mask))
            gin = deadwood(view.hand_mask & ~best.card.mask) == 0
            if gin or self.rng.random() >= MISSED_KNOCK:
                return best
        return self._discard(view)

    def _discard(self, view: SeatView) -> Discard:
        """The highest unmatched card (or, carelessly, any unmatched one)."""
        discards = [a for a in view.legal if isinstance(a, Discard)]
        unmatched = {c.index for c in arrangement_of_mask(view.hand_mask).unmatched}
        loose = [a for a in discards if a.card.index in unmatched] or discards
        if self.rng.random() < CARELESS:
            return self.rng.choice(loose)
        high = max(a.card.points for a in loose)
        return self.rng.choice([a for a in loose if a.card.points == high])
