"""Cards and melds in the short words a player reads: "7♥", "7♥ 8♥ 9♥"."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from okgin.cards import Card


def short(card: Card) -> str:
    """A card as a player writes it: "7♥", "10♠", "Q♦"."""
    rank = "10" if card.rank == 10 else card.rank.letter
    return rank + card.suit.symbol


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(short(card) for card in cards)


def seat_name(names: Sequence[str], seat: int) -> str:
    """The seat's name, or "seat N" when the names do not say."""
    return names[seat] if seat < len(names) else f"seat {seat}"


def percent(share: float) -> str:
    return f"{round(100 * share)}%"
