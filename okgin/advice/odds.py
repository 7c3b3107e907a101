"""The watchers' odds: each seat's chance to win the hand and the match, from what a spectator sees.

Worked out from a ``PublicView`` and the points each seat has won toward the target, nothing
else: no hand, no stock order. The hidden cards are guessed as the computer players guess them
(``Guesser``, with every seat's hand unseen), the guesses seeded from the public view, so the
same public view always gives the same odds and knowing them tells a player nothing that
watching does not. Each guess is played to the hand's end by the play-outs' quick policy
(``okgin.bots.rollout``): the seat to act takes a discard that melds and lowers its deadwood,
discards its least-deadwood card and knocks as soon as the limit allows, and so does every
seat after it.

The match: a seat wins it when a hand it wins brings its points to the target. After this hand
(as guessed), each seat needs as many more won hands as its distance to the target divided by
what a won guess of this hand was worth on average (rounded up); each later hand is won by a
seat chosen at random (a void hand changes nothing), and the chance to be first to win the hands
it needs is worked out exactly (``race``).
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass
from functools import lru_cache

from okgin.actions import Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.guess import Guesser
from okgin.bots.knowledge import public_knowledge
from okgin.bots.memo import discard_without
from okgin.bots.rollout import Points, Table, World, play_move, wants
from okgin.cards import cards_of_mask
from okgin.hand import Phase
from okgin.view import PublicView

GUESSES = 64
"""Guessed deals per position (docs/watching.md: the odds move by a few points between sets)."""
WORTH = 25
"""What a won hand is taken to be worth when no guess of this hand was won (every one void)."""
MOST_NEEDED = 12
"""The most hands a race counts for one seat: longer needs are scaled down together, which keeps
their ratios (a race of 30 hands against 20 is near one of 12 against 8)."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Each seat's chance (0 to 1) to win the hand and the match; ``void``: that the hand
    ends with no winner (a stock run down)."""

    hand: tuple[float, ...]
    void: float
    match: tuple[float, ...]


def seed_of(view: PublicView, won: tuple[int, ...]) -> int:
    """A seed from what every watcher sees."""
    public = (view.dealer, tuple(map(str, view.history)), tuple(map(str, view.discards)), view.scores, won)
    return zlib.crc32(repr(public).encode())


def watchers_odds(view: PublicView, won: tuple[int, ...], guesses: int = GUESSES) -> Odds | None:
    """The odds at ``view``, each seat having won ``won`` toward the target (the match's count,
    which holds a hand's points once it is over). None where no seat is to act and the hand is
    not over (a reshuffle of the pile)."""
    players = len(view.hand_sizes)
    rng = random.Random(seed_of(view, won))
    if view.result is not None:
        ends: list[Points] = [view.result.points]
        won = tuple(total - max(gained, 0) for total, gained in zip(won, view.result.points, strict=True))
    elif view.to_act is None:
        return None
    else:
        ends = [_played_out(view, world) for world in _guesses(view, guesses, rng)]
    winners = [_winner(points) for points in ends]
    hand = tuple(winners.count(seat) / len(ends) for seat in range(players))
    worths = [points[winner] for points, winner in zip(ends, winners, strict=True) if winner is not None]
    void = winners.count(None) / len(ends)
    worth = sum(worths) / len(worths) if worths else WORTH
    match = [0.0] * players
    for points, winner in zip(ends, winners, strict=True):
        after = [total + max(gained, 0) for total, gained in zip(won, points, strict=True)]
        if winner is not None and after[winner] >= view.target:
            match[winner] += 1
            continue
        needs = [max(1, math.ceil((view.target - total) / worth)) for total in after]
        for seat, chance in enumerate(race(_scaled(needs))):
            match[seat] += chance
    return Odds(hand=hand, void=void, match=tuple(m / len(ends) for m in match))


def _guesses(view: PublicView, count: int, rng: random.Random) -> list[World]:
    guesser = Guesser(public_knowledge(view), [card.index for card in view.discards])
    return [guesser.world(rng) for _ in range(count)]


def _played_out(view: PublicView, world: World) -> Points:
    """The hand played to its end in ``world`` from ``view``'s moment by the quick policy."""
    seat = view.to_act
    assert seat is not None
    table = Table(view.rules, view.knock_limit, view.multiplier)
    hand = world.hands[seat]
    action: PlayerAction
    if view.phase == Phase.DISCARD:
        taken = _taken(view, seat)
        left, card = discard_without(hand, taken)
        thrown = cards_of_mask(1 << card)[0]
        action = Knock(seat, thrown) if left <= view.knock_limit else Discard(seat, thrown)
    else:
        top = world.pile[-1] if world.pile else -1
        offered = view.phase in (Phase.OFFER, Phase.LAST_CHANCE)
        action = Take(seat) if top >= 0 and wants(hand, top) else Pass(seat) if offered else Draw(seat)
    return play_move(table, world, seat, action, view.phase, view.dealer)


def _taken(view: PublicView, seat: int) -> int:
    """The card ``seat`` took from the pile this turn (it may not throw it back), or -1."""
    last = view.history[-1] if view.history else None
    if isinstance(last, Take) and last.seat == seat and view.picked[seat]:
        return view.picked[seat][-1].index
    return -1


def _winner(points: Points) -> int | None:
    """The seat that gained points (only a hand's winner does), or None for a void hand."""
    best = max(range(len(points)), key=lambda seat: points[seat])
    return best if points[best] > 0 else None


def _scaled(needs: list[int]) -> tuple[int, ...]:
    """``needs`` scaled down together so that none is over ``MOST_NEEDED`` (each at least 1)."""
    most = max(needs)
    if most <= MOST_NEEDED:
        return tuple(needs)
    return tuple(max(1, round(n * MOST_NEEDED / most)) for n in needs)


@lru_cache(maxsize=1 << 16)
def race(needs: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance to be the first to win ``needs[seat]`` more hands, when each hand is
    won by a seat chosen at random."""
    players = len(needs)
    chances = [0.0] * players
    for seat in range(players):
        if needs[seat] == 1:
            chances[seat] += 1 / players
            continue
        after = race((*needs[:seat], needs[seat] - 1, *needs[seat + 1:]))
        for other in range(players):
            chances[other] += after[other] / players
    return tuple(chances)
