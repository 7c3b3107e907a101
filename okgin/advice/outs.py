"""Near-melds (two cards one card from a meld) and their live outs: the cards that would
complete them and that this seat has not seen gone (in the pile, or in another's known hand)."""

from __future__ import annotations

from dataclasses import dataclass

from okgin.advice.worlds import Worlds
from okgin.cards import DECK, Card
from okgin.melds import arrangement_of_mask


@dataclass(frozen=True, slots=True)
class NearMeld:
    """Two unmatched cards, the cards that would make them a meld, and which are still live."""

    cards: tuple[Card, Card]
    outs: tuple[Card, ...]
    live: tuple[Card, ...]


def near_melds(hand_mask: int, worlds: Worlds) -> tuple[NearMeld, ...]:
    """The near-melds among the unmatched cards, most live outs first."""
    unmatched = arrangement_of_mask(hand_mask).unmatched
    unknown = worlds.knowledge.unknown
    found = []
    for i, first in enumerate(unmatched):
        for second in unmatched[i + 1:]:
            outs = _outs(first, second)
            if outs:
                live = tuple(card for card in outs if unknown & card.mask)
                found.append(NearMeld((first, second), outs, live))
    return tuple(sorted(found, key=lambda near: (-len(near.live), near.cards)))


def _outs(first: Card, second: Card) -> tuple[Card, ...]:
    """The cards that make ``first`` and ``second`` a three-card meld (none if they cannot)."""
    if first.rank == second.rank:
        return tuple(c for c in DECK if c.rank == first.rank and c not in (first, second))
    if first.suit != second.suit or abs(first.rank - second.rank) > 2:
        return ()
    low, high = sorted((int(first.rank), int(second.rank)))
    ranks = [low + 1] if high - low == 2 else [low - 1, high + 1]
    return tuple(c for c in DECK if c.suit == first.suit and int(c.rank) in ranks)
