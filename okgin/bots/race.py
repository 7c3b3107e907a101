"""Who is nearest the target: each seat's chance to win a match from the points it has won.

Under penalty scoring only the points a seat *wins* count toward the target (docs/rules.md,
choice 10): each hand one seat at most gains its bonus (knock, undercut or gin), and the
first to the target wins the match. ``win_chances`` treats the rest of the match as a race in
which every hand is won by a seat picked at random (equal skill) and its gain is a knock, an
undercut or a gin bonus at the usual odds. Letting each seat's wins come as its own Poisson
stream gives the same order of finishes (the merged stream's next win belongs to any seat
alike) and makes the seats independent, so a seat's chance of finishing first is an integral
of ``e^(-P t)`` times a polynomial in ``t``: exact, and a few thousand operations.

>>> [round(p, 3) for p in win_chances((100, 100, 100), ((10, 1.0),))]
[0.333, 0.333, 0.333]
>>> win_chances((5, 100), ((10, 1.0),))[0] > 0.99
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from okgin.bots.rollout import utility
from okgin.rules import Rules
from okgin.view import SeatView

KNOCK_SHARE, UNDERCUT_SHARE, GIN_SHARE = 0.6, 0.2, 0.2
"""How often a won hand is a knock, an undercut or a gin (near what `simple` tables show)."""
MATCH_POINTS = 400.0
"""What winning the match is worth in a hand's points (penalty scoring): a chance 1% better
is worth 4 points. At a fresh three-seat table a won knock lifts the chance by about 7%,
some 29 points, about what the hand itself brings (its bonus and the others' penalties)."""
POINTS_PER_WIN = 25.0
"""About what another seat's won hand costs in points alone (its bonus and one's penalty)."""


def gains_of(rules: Rules) -> tuple[tuple[int, float], ...]:
    """A won hand's points toward the target and their odds, under ``rules`` (no doubling)."""
    gin = max(rules.gin_bonus, rules.big_gin_bonus or 0)
    shares = ((rules.knock_bonus, KNOCK_SHARE), (rules.undercut_bonus, UNDERCUT_SHARE), (gin, GIN_SHARE))
    return tuple((points, share) for points, share in shares if points > 0)


def win_chances(needs: Sequence[int], gains: Sequence[tuple[int, float]]) -> tuple[float, ...]:
    """Each seat's chance to reach the target first, ``needs`` being the points each still
    needs and ``gains`` a won hand's (points, odds). A seat that needs nothing has won."""
    done = [seat for seat, need in enumerate(needs) if need <= 0]
    if done:
        return tuple(1.0 if seat == done[0] else 0.0 for seat in range(len(needs)))
    if not gains:
        return (1 / len(needs),) * len(needs)
    return _chances(tuple(needs), tuple(gains))


@lru_cache(maxsize=4096)
def _chances(needs: tuple[int, ...], gains: tuple[tuple[int, float], ...]) -> tuple[float, ...]:
    total = sum(share for _, share in gains)
    odds = tuple((points, share / total) for points, share in gains)
    survive = [_survival(need, odds) for need in needs]
    players = len(needs)
    chances = []
    for seat in range(players):
        # The density of the seat's finishing time, times every other seat still short of it.
        coefficients = survive[seat] + [0.0]
        poly = [coefficients[j] - (j + 1) * coefficients[j + 1] for j in range(len(coefficients) - 1)]
        for other in range(players):
            if other != seat:
                poly = _times(poly, survive[other])
        chances.append(sum(c * math.factorial(k) / players ** (k + 1) for k, c in enumerate(poly)))
    norm = sum(chances)
    return tuple(c / norm for c in chances)


def _survival(need: int, odds: tuple[tuple[int, float], ...]) -> list[float]:
    """Coefficients c_j of t^j in e^t times the chance that the seat is still short at t:
    c_j = P(j wins leave it short) / j!."""
    short = {0: 1.0}
    coefficients = []
    j = 0
    while short:
        coefficients.append(sum(short.values()) / math.factorial(j))
        step: dict[int, float] = {}
        for got, p in short.items():
            for points, share in odds:
                if got + points < need:
                    step[got + points] = step.get(got + points, 0.0) + p * share
        short = step
        j += 1
    return coefficients


def _times(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


class MatchWorth:
    """What a hand's points are worth to the seat of ``view`` in its match.

    Everywhere: its points less the others' mean (``utility``). Under penalty scoring, where
    only the points won count toward the target, also ``MATCH_POINTS`` times what the hand's
    bonus does to its chance to win the match: a hand won by a seat near the target (which
    ends the match) costs far more than its points, a knock that keeps the match alive is
    worth more than its bonus.
    """

    def __init__(self, view: SeatView) -> None:
        self.seat = view.seat
        self.racing = view.rules.scoring == "penalty"
        won = view.won or view.scores
        self.needs = tuple(view.target - points for points in won)
        self.gains = gains_of(view.rules)
        self._fresh = (view.target,) * len(self.needs)
        self._memo: dict[tuple[int, ...], float] = {}
        self._now = self.chance((0,) * len(self.needs)) if self.racing else 0.0

    def value(self, points: tuple[int, ...]) -> float:
        """What a hand ending with ``points`` (each seat's) is worth to the seat."""
        base = utility(points, self.seat)
        if not self.racing:
            return base
        return base + MATCH_POINTS * (self.chance(points) - self._now)

    def chance(self, points: tuple[int, ...], needs: tuple[int, ...] | None = None) -> float:
        """The seat's chance to win the match after a hand ending with ``points``."""
        start = self.needs if needs is None else needs
        key = tuple(need - max(p, 0) for need, p in zip(start, points, strict=True))
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = win_chances(key, self.gains)[self.seat]
        return known

    def feed_weight(self, seat: int) -> float:
        """How much worse it is than at a fresh table that ``seat`` wins the next hand: 1 at
        a fresh table and under difference scoring, more when ``seat`` is near the target."""
        if not self.racing or not self.gains:
            return 1.0
        return (POINTS_PER_WIN + self._loss(seat, self.needs)) / (
            POINTS_PER_WIN + self._loss(seat, self._fresh)
        )

    def _loss(self, seat: int, needs: tuple[int, ...]) -> float:
        """``MATCH_POINTS`` times what ``seat`` winning a hand takes from the seat's chance."""
        before = self.chance((0,) * len(needs), needs)
        after = 0.0
        for points, share in self.gains:
            won = tuple(points if s == seat else 0 for s in range(len(needs)))
            after += share * self.chance(won, needs)
        total = sum(share for _, share in self.gains)
        return MATCH_POINTS * (before - after / total)
