"""Layoffs: the defender's best use of the knocker's melds after an ordinary knock.

A defender may add a fourth card to a three-card set, and extend a run at either end, one
card opening the way for the next; never a new meld out of the knocker's deadwood. Every
combination of legal layoffs is tried, with the defender's own cards arranged at their best
around each, so the result is the least deadwood the defender can reach.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from okgin.melds import SUIT_BITS, deadwood_of_mask, meld_kind_of_mask


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """What a defender lays off and where, and the deadwood left in their hand."""

    laid: int
    """The mask of every card laid off."""
    melds: tuple[int, ...]
    """The knocker's melds (masks) with the laid-off cards added, in the same order."""
    deadwood: int


def _extensions(meld: int, hand: int) -> list[int]:
    """Every set of the hand's cards that can be laid off on one meld, as masks."""
    options = [0]
    if meld_kind_of_mask(meld) == "set":
        rank_bits = (meld | meld >> 13 | meld >> 26 | meld >> 39) & SUIT_BITS
        missing = (rank_bits | rank_bits << 13 | rank_bits << 26 | rank_bits << 39) & ~meld
        if missing & hand:  # three-card set: only one card can join it
            options.append(missing & hand)
        return options
    shift = 13 * ((meld.bit_length() - 1) // 13)
    suit_run = meld >> shift
    low, high = (suit_run & -suit_run).bit_length() - 1, suit_run.bit_length() - 1
    suit_hand = (hand >> shift) & SUIT_BITS
    downs, ups = [0], [0]
    rank = low - 1
    while rank >= 0 and suit_hand >> rank & 1:
        downs.append(downs[-1] | 1 << rank)
        rank -= 1
    rank = high + 1
    while rank <= 12 and suit_hand >> rank & 1:
        ups.append(ups[-1] | 1 << rank)
        rank += 1
    return [(down | up) << shift for down in downs for up in ups]


def best_layoffs(hand: int, melds: Sequence[int]) -> LayoffPlan:
    """The layoffs that leave the defender the least deadwood (fewest cards on a tie).

    ``hand`` is the defender's mask; ``melds`` the knocker's melds as masks.

    >>> from okgin.cards import mask_of, parse_cards
    >>> plan = best_layoffs(mask_of(parse_cards("8S 9S KD")), [mask_of(parse_cards("5S 6S 7S"))])
    >>> plan.deadwood
    10
    """
    per_meld = [_extensions(meld, hand) for meld in melds]
    best: LayoffPlan | None = None
    for choice in product(*per_meld):
        laid = 0
        for cards in choice:
            if laid & cards:
                break
            laid |= cards
        else:
            left = deadwood_of_mask(hand & ~laid)
            if best is None or (left, laid.bit_count()) < (best.deadwood, best.laid.bit_count()):
                new_melds = tuple(meld | cards for meld, cards in zip(melds, choice, strict=True))
                best = LayoffPlan(laid, new_melds, left)
    assert best is not None  # the empty choice is always possible
    return best

