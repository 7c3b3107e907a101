"""Cards and actions as the pages read them: record notation, without the acting seat.

The rooms' frames write every card and action this way, and the coach's answers too (the
coach sits above the rooms and takes it from here)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from okgin.actions import Action
from okgin.cards import DECK, Card


@functools.lru_cache(maxsize=4096)
def notation(action: Action) -> str:
    """An action as the client sees it: its record notation without the seat number."""
    text = str(action).strip()
    head, _, rest = text.partition(" ")
    return rest if head.isdigit() else text


_TEXT = tuple(str(card) for card in DECK)
"""Each card's notation by its index (a dataclass's hash, asked for every card of every frame,
cost more than the rest of writing it)."""


def cards(values: Sequence[Card]) -> list[str]:
    return [_TEXT[card.index] for card in values]
