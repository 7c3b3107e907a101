"""A hand's review as a player reads it (templates/review.html draws it): each mistake a small
table (the hand as cards, what was played and what was better, the cost, why), named by hand
and turn, with a link into the replay viewer at that move."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from okgin.advice.review import Decision, HandReview, action_words, when
from okgin.advice.words import short
from okgin.cards import Card


@dataclass(frozen=True)
class Chip:
    """A card as a small chip: the short form shown, its name read out, its colour."""
    short: str
    name: str
    colour: str


@dataclass(frozen=True)
class Mistake:
    heading: str
    move: int
    hand: list[Chip]
    top: Chip | None
    stock: int
    chosen: str
    better: str
    cost: str
    why: str


def _chip(card: Card) -> Chip:
    return Chip(short(card), card.name, "red" if card.suit.symbol in "♥♦" else "black")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _mistake(review: HandReview, d: Decision, names: Sequence[str]) -> Mistake:
    view = d.view
    return Mistake(
        heading=when(review, d, names), move=d.move, hand=[_chip(c) for c in view.hand],
        top=_chip(view.discards[-1]) if view.discards else None, stock=view.stock_count,
        chosen=_capital(action_words(d.chosen)), better=_capital(action_words(d.suggested)),
        cost=f"about {d.cost:.1f} points", why=d.reason,
    )


def review_lead(review: HandReview) -> str:
    """The sentence above the mistakes."""
    count = len(review.mistakes)
    if not count:
        return f"No costly mistakes in your {review.decisions} decisions this hand."
    costly = "one was" if count == 1 else f"{count} were"
    return f"Of your {review.decisions} decisions this hand, {costly} costly (the costliest first):"


def mistakes(review: HandReview, names: Sequence[str]) -> list[Mistake]:
    """The hand's costly decisions, the costliest first, as the page shows them."""
    return [_mistake(review, d, names) for d in review.mistakes]
