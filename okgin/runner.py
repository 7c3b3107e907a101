"""Playing computer players against each other: a hand, or a match to the target.

Each player is handed only its seat's view; chance (deals, reshuffles) comes from ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from okgin.bots.base import Player
from okgin.hand import Hand, play_chance
from okgin.match import Match
from okgin.view import seat_view

MAX_ACTIONS = 10_000
"""A hand longer than this is a bug (reshuffled stocks keep a hand going, not forever)."""

OnDecision = Callable[[int, float], None]
"""Called with (seat, seconds) after every decision, to measure players."""


def play_hand(
    hand: Hand,
    players: Sequence[Player],
    rng: random.Random,
    scores: tuple[int, ...] | None = None,
    match: Match | None = None,
    won: tuple[int, ...] | None = None,
) -> None:
    """Play ``hand`` to its end. Actions go through ``match`` when given (to score it);
    ``scores`` and ``won`` are the match's totals and points won, as the views show them."""
    apply = match.apply if match is not None else hand.apply
    for _ in range(MAX_ACTIONS):
        play_chance(hand, rng)
        seat = hand.to_act
        if seat is None:
            return
        apply(players[seat].act(seat_view(hand, seat, scores, won)))
    raise RuntimeError(f"hand not over after {MAX_ACTIONS} actions")


def play_match(
    players: Sequence[Player], match: Match, rng: random.Random, max_hands: int = 1000
) -> Match:
    """Deal and play hands until the match is over."""
    for _ in range(max_hands):
        if match.over:
            return match
        hand = match.deal_next(rng)
        play_hand(hand, players, rng, match.totals, match, match.won)
    raise RuntimeError(f"match not over after {max_hands} hands")
