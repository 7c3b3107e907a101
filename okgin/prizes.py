"""004's prize pool: how a game's pool of play chips is split by penalty points (no I/O).

004: "The winner receives 75% of the pool prize (minimum), and the rest is divided between the
other players. Players' win percentage is calculated according to their penalty points and the
winner's, as long as they have less than 50 penalty points than the winner." Our reading, its
rule options and worked examples are in docs/rules.md ("The prize pool").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from okgin.errors import OkginError
from okgin.hand import HandResult
from okgin.scoring import Outcome

Split = Literal["scaled", "proportional"]


class PrizeError(OkginError):
    """A pool, a prize rule or a list of penalty points that cannot be split."""


@dataclass(frozen=True)
class PrizeRules:
    """How a table splits its pool.

    ``winner_percent``: the winner's least share (004: 75). ``cutoff``: a player this many
    penalty points or more behind the winner gets nothing (004: 50). ``split``:
    ``"scaled"`` (ours): each other player's equal part of the rest, times
    (cutoff − gap) / cutoff, what is left over going to the winner; ``"proportional"``: the
    whole rest shared among the players within the cutoff in proportion to (cutoff − gap).
    """

    winner_percent: int = 75
    cutoff: int = 50
    split: Split = "scaled"

    def __post_init__(self) -> None:
        if not _is_int(self.winner_percent) or not 0 <= self.winner_percent <= 100:
            raise PrizeError(f"winner_percent is {self.winner_percent!r}, expected 0 to 100")
        if not _is_int(self.cutoff) or self.cutoff < 1:
            raise PrizeError(f"cutoff is {self.cutoff!r}, expected a whole number of 1 or more")
        if self.split not in ("scaled", "proportional"):
            raise PrizeError(f'split is {self.split!r}, expected "scaled" or "proportional"')


def split_pool(
    pool: int, winner: int, penalties: Sequence[int], rules: PrizeRules | None = None
) -> tuple[int, ...]:
    """Each player's chips from ``pool``: whole chips that add up to the pool exactly.

    ``penalties[i]`` is player i's penalty points in the game; ``winner`` the winner's index.
    A player's gap is their penalty points minus the winner's (0 when fewer). Raises
    PrizeError for a negative pool or penalty, fewer than two players, or a winner who is
    not a player.

    >>> split_pool(100, 0, [10, 10, 35])
    (82, 12, 6)
    """
    rules = rules or PrizeRules()
    _check(pool, winner, penalties)
    others = [i for i in range(len(penalties)) if i != winner]
    base = math.ceil(Fraction(pool * rules.winner_percent, 100))
    rest = pool - base
    weights = {i: max(0, rules.cutoff - _gap(penalties, winner, i)) for i in others}
    if rules.split == "scaled":
        exact = {i: Fraction(rest * weights[i], len(others) * rules.cutoff) for i in others}
    else:
        total = sum(weights.values())
        exact = {i: Fraction(rest * weights[i], total) if total else Fraction(0) for i in others}
    chips = [0] * len(penalties)
    for i in others:
        chips[i] = math.floor(exact[i])
    chips[winner] = pool - sum(chips)  # the base, what no one within the cutoff claims, and odd chips
    return tuple(chips)


def split_by_standing(
    pool: int, penalties: Sequence[int], played: Sequence[int], rules: PrizeRules | None = None
) -> tuple[int, ...]:
    """A tournament's pool by final standing: player i is placed i-th (0 the winner), with
    ``penalties[i]`` penalty points over ``played[i]`` matches (a bye is none).

    Each player's penalty points per match, then never fewer than anyone placed above them
    (the running highest down the standings), stand in for one game's penalty points in
    ``split_pool``'s rule: the gap from the winner's, the 75% and the cutoff, scaled or
    proportional. So a higher place is never paid less, and a player out early is not paid
    for having played less (docs/rules.md, "A tournament's pool"). Raises PrizeError.

    >>> split_by_standing(100, [0, 15, 7, 7], [2, 2, 1, 1])
    (79, 7, 7, 7)
    """
    rules = rules or PrizeRules()
    _check(pool, 0, penalties)
    if len(played) != len(penalties) or not all(_is_int(n) and n >= 0 for n in played):
        raise PrizeError(f"matches played {list(played)!r}, expected a whole number for each player")
    per = [Fraction(points, max(1, n)) for points, n in zip(penalties, played, strict=True)]
    floor = per[0]
    weights = []
    for value in per[1:]:
        floor = max(floor, value)
        weights.append(max(Fraction(0), rules.cutoff - (floor - per[0])))
    rest = pool - math.ceil(Fraction(pool * rules.winner_percent, 100))
    if rules.split == "scaled":
        exact = [rest * w / (len(weights) * rules.cutoff) for w in weights]
    else:
        total = sum(weights, Fraction(0))
        exact = [rest * w / total if total else Fraction(0) for w in weights]
    others = [math.floor(x) for x in exact]
    return (pool - sum(others), *others)


def penalty_points(result: HandResult, undercut_penalty: int) -> tuple[int, ...]:
    """Each seat's penalty points from one finished hand: for every seat but the winner, its
    deadwood less the winner's, plus ``undercut_penalty`` for an undercut knocker, times the
    hand's multiplier. Under penalty scoring this is what the seat lost; under difference
    scoring, what the winner scored from it. A void hand gives none."""
    winner = result.winner
    if winner is None:
        return (0,) * len(result.deadwood)
    points = []
    for seat, deadwood in enumerate(result.deadwood):
        lost = 0 if seat == winner else max(0, deadwood - result.deadwood[winner])
        if result.outcome == Outcome.UNDERCUT and seat == result.knocker:
            lost += undercut_penalty
        points.append(lost * result.multiplier)
    return tuple(points)


def _gap(penalties: Sequence[int], winner: int, player: int) -> int:
    return max(0, penalties[player] - penalties[winner])


def _check(pool: int, winner: int, penalties: Sequence[int]) -> None:
    if not _is_int(pool) or pool < 0:
        raise PrizeError(f"the pool is {pool!r} chips, expected a whole number of 0 or more")
    if len(penalties) < 2:
        raise PrizeError(f"a pool is split between 2 or more players, not {len(penalties)}")
    if not _is_int(winner) or not 0 <= winner < len(penalties):
        raise PrizeError(f"the winner is {winner!r}, expected a player from 0 to {len(penalties) - 1}")
    for i, points in enumerate(penalties):
        if not _is_int(points) or points < 0:
            raise PrizeError(f"player {i} has {points!r} penalty points, expected 0 or more")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
