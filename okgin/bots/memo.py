"""Memoised meld-solver calls for the computer players, which ask about the same hands often.

The solver (``okgin.melds``) is pure, so remembering its answers by mask is safe. Each table is
cleared when it grows past ``LIMIT`` entries, which bounds memory in long simulations.
"""

from __future__ import annotations

from okgin.melds import best_discard_of_mask, deadwood_of_mask, discard_deadwood_of_mask

LIMIT = 1 << 19
_DEADWOOD: dict[int, int] = {}
_DISCARD: dict[int, tuple[int, int]] = {}
_DISCARD_VALUE: dict[int, int] = {}


def deadwood(mask: int) -> int:
    """Least deadwood of the hand ``mask`` (see ``okgin.melds.deadwood_of_mask``)."""
    value = _DEADWOOD.get(mask)
    if value is None:
        if len(_DEADWOOD) >= LIMIT:
            _DEADWOOD.clear()
        value = _DEADWOOD[mask] = deadwood_of_mask(mask)
    return value


def discard_value(mask: int) -> int:
    """Least deadwood after one discard from ``mask`` (the value of ``best_discard``)."""
    value = _DISCARD_VALUE.get(mask)
    if value is None:
        if len(_DISCARD_VALUE) >= LIMIT:
            _DISCARD_VALUE.clear()
        value = _DISCARD_VALUE[mask] = discard_deadwood_of_mask(mask)
    return value


def best_discard(mask: int) -> tuple[int, int]:
    """Least deadwood after one discard from ``mask`` and that card's index."""
    value = _DISCARD.get(mask)
    if value is None:
        if len(_DISCARD) >= LIMIT:
            _DISCARD.clear()
        value = _DISCARD[mask] = best_discard_of_mask(mask)
    return value


def discard_without(mask: int, keep: int) -> tuple[int, int]:
    """Least deadwood after discarding one card of ``mask`` other than the card index ``keep``.

    Returns (deadwood, card index). ``keep`` < 0 allows any card.
    """
    value, card = best_discard(mask)
    if card != keep or keep < 0:
        return value, card
    key = mask | (keep + 1) << 52
    known = _DISCARD.get(key)
    if known is not None:
        return known
    best, best_card = 1 << 30, -1
    rest = mask & ~(1 << keep)
    while rest:
        low = rest & -rest
        rest ^= low
        left = deadwood(mask ^ low)
        if left < best:
            best, best_card = left, low.bit_length() - 1
    _DISCARD[key] = best, best_card
    return best, best_card
