"""Cards, melds and seat names in the short words a player reads: "7♥", "7♥ 8♥ 9♥", "you have"."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from okgin.cards import Card

YOU = "you"
"""The name a page gives its own seat (any case): it takes "have", not "has"."""


def short(card: Card) -> str:
    """A card as a player writes it: "7♥", "10♠", "Q♦"."""
    rank = "10" if card.rank == 10 else card.rank.letter
    return rank + card.suit.symbol


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(short(card) for card in cards)


def seat_name(names: Sequence[str], seat: int) -> str:
    """The seat's name as it reads inside a sentence: "Ruby", "you", or "seat N" when the
    names do not say."""
    name = names[seat] if seat < len(names) else f"seat {seat}"
    return YOU if name.lower() == YOU else name


def has(name: str) -> str:
    """ "Ruby has", "you have": the verb agreeing with a seat's name."""
    return f"{name} {'have' if name == YOU else 'has'}"


def possessive(name: str) -> str:
    """ "Ruby's", "your"."""
    return "your" if name == YOU else f"{name}'s"


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised ("you took…" → "You took…")."""
    return text[:1].upper() + text[1:]


def percent(share: float) -> str:
    return f"{round(100 * share)}%"
