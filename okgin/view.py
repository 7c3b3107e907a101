"""What one seat may see: the only thing computer players and clients are given.

A view is a frozen copy, built from a hand and holding no reference back to it, so whoever
holds a view cannot reach another hand or the stock order.
"""

from __future__ import annotations

from dataclasses import dataclass

from okgin.actions import Action, PlayerAction
from okgin.cards import Card, cards_of_mask
from okgin.hand import Hand, HandResult, Phase
from okgin.rules import Rules


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view of a hand (and of the match's scores)."""

    seat: int
    rules: Rules
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    """This seat's own cards, in deck order."""
    hand_mask: int
    hand_sizes: tuple[int, ...]
    stock_count: int
    discards: tuple[Card, ...]
    """The discard pile, bottom first (every card in it was seen face up)."""
    upcard: Card
    """The first upcard: it sets ``knock_limit`` and ``multiplier`` for the whole hand."""
    knock_limit: int
    multiplier: int
    taken: Card | None
    """The card this seat took from the pile this turn, which it may not discard."""
    picked: tuple[tuple[Card, ...], ...]
    """The cards each seat took from the discard pile this hand (seen by all)."""
    history: tuple[Action, ...]
    """Every action so far; a reshuffle shows no order."""
    legal: tuple[PlayerAction, ...]
    """This seat's legal actions now (empty when it is not this seat's turn)."""
    scores: tuple[int, ...]
    target: int
    result: HandResult | None
    """Once the hand is over: every hand shown, the layoffs and the score."""
    won: tuple[int, ...] = ()
    """The points each seat has won toward the target (the score sheet's positive lines:
    under penalty scoring the penalties lower ``scores`` but not this); empty: as ``scores``."""

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat


def seat_view(
    hand: Hand, seat: int, scores: tuple[int, ...] | None = None, won: tuple[int, ...] | None = None
) -> SeatView:
    """The view of ``hand`` that ``seat`` may see. ``scores`` are the match totals, ``won``
    the points each seat has won toward the target (by default ``scores``)."""
    mask = hand.hand_mask(seat)
    return SeatView(
        seat=seat,
        rules=hand.rules,
        dealer=hand.dealer,
        phase=hand.phase,
        to_act=hand.to_act,
        hand=cards_of_mask(mask),
        hand_mask=mask,
        hand_sizes=tuple(hand.hand_size(s) for s in range(hand.players)),
        stock_count=hand.stock_count,
        discards=hand.discards,
        upcard=hand.deal.upcard,
        knock_limit=hand.knock_limit,
        multiplier=hand.multiplier,
        taken=hand.taken if hand.to_act == seat else None,
        picked=tuple(tuple(cards) for cards in hand.picked),
        history=tuple(hand.public_actions),
        legal=tuple(hand.legal_actions()) if hand.to_act == seat else (),
        scores=scores if scores is not None else (0,) * hand.players,
        target=hand.rules.target,
        result=hand.result,
        won=won if won is not None else (scores if scores is not None else (0,) * hand.players),
    )



@dataclass(frozen=True, slots=True)
class PublicView:
    """What anyone at the table sees, a spectator included: no hand, no stock order.

    The counts, the discard pile, the first upcard, the cards picked up from the pile, every
    action as all players saw it, the scores; once the hand is over, its result (every hand
    is then shown).
    """

    rules: Rules
    dealer: int
    phase: Phase
    to_act: int | None
    hand_sizes: tuple[int, ...]
    stock_count: int
    discards: tuple[Card, ...]
    upcard: Card
    knock_limit: int
    multiplier: int
    picked: tuple[tuple[Card, ...], ...]
    history: tuple[Action, ...]
    scores: tuple[int, ...]
    target: int
    result: HandResult | None


def public_view(hand: Hand, scores: tuple[int, ...] | None = None) -> PublicView:
    """The view of ``hand`` that every watcher may see. ``scores`` are the match totals."""
    return PublicView(
        rules=hand.rules,
        dealer=hand.dealer,
        phase=hand.phase,
        to_act=hand.to_act,
        hand_sizes=tuple(hand.hand_size(s) for s in range(hand.players)),
        stock_count=hand.stock_count,
        discards=hand.discards,
        upcard=hand.deal.upcard,
        knock_limit=hand.knock_limit,
        multiplier=hand.multiplier,
        picked=tuple(tuple(cards) for cards in hand.picked),
        history=tuple(hand.public_actions),
        scores=scores if scores is not None else (0,) * hand.players,
        target=hand.rules.target,
        result=hand.result,
    )
