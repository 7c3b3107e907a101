"""The table in text, for ``render``: every seat's cards, the pile, the stock and the scores."""

from __future__ import annotations

from okgin.cards import format_cards
from okgin.hand import Hand


def render_text(hand: Hand, scores: tuple[int, ...]) -> str:
    """Several lines: the upcard's terms, each seat (its cards and score), the pile, whose turn."""
    lines = [
        f"upcard {hand.deal.upcard}: knock limit {hand.knock_limit}, x{hand.multiplier}; "
        f"stock {hand.stock_count}; phase {hand.phase}"
    ]
    for seat in range(hand.players):
        marker = "*" if seat == hand.to_act else " "
        lines.append(f"{marker} seat {seat} ({scores[seat]:>4}): {format_cards(hand.cards_of(seat))}")
    pile = hand.discards
    lines.append("pile: " + (format_cards(pile[-8:]) if pile else "(empty)"))
    if hand.result is not None:
        lines.append(f"result: {hand.result.outcome}, points {list(hand.result.points)}")
    return "\n".join(lines)
