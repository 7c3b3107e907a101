"""The meld solver: least deadwood, an arrangement reaching it, and the best discard.

The hot path of the whole project, so it works on bit masks (``Card.index`` bits, 13 a suit)
and on tables made at import (about 5 MB, built in about 50 ms):

* ``RUN_DEADWOOD[m]``: the least deadwood of the 13-bit suit mask ``m`` using runs alone
  (runs never cross suits, so without sets a hand's deadwood is four look-ups);
* a packed copy of it that also counts, rank by rank, the suits holding each rank, so one
  sum of four look-ups gives the run-only deadwood *and* says whether a set is possible;
* the same tables with one rank taken out, and ``after - run`` deltas for the best discard.

A set is only possible on a rank held three or four times. Every way of using such ranks in
sets is tried (none, all of them, or for four of a kind each way of leaving one out), with the
rest split into runs by the tables; ways that cannot beat another are skipped (see
``_solve``). Every answer is exact.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from okgin.cards import DECK, Card, cards_of_mask, mask_of

SUIT_BITS = 0x1FFF
_RANK_POINTS = tuple(min(i + 1, 10) for i in range(13))
_NO_SUIT = 99
"""The discard delta of an empty suit: there is nothing there to discard."""


def _run_tables() -> tuple[list[int], list[int]]:
    """Least run-only deadwood of every suit mask, and the same after the best discard.

    ``run[m]``: least deadwood of suit mask m using runs only.
    ``after[m]``: least run deadwood after discarding one card of m (0 for m = 0).
    """
    run = [0] * 8192
    for m in range(1, 8192):
        low = (m & -m).bit_length() - 1
        best = _RANK_POINTS[low] + run[m ^ (1 << low)]
        bits = 0
        for top in range(low, 13):
            if not m >> top & 1:
                break
            bits |= 1 << top
            if top - low >= 2 and run[m ^ bits] < best:
                best = run[m ^ bits]
        run[m] = best
    after = [0] * 8192
    for m in range(1, 8192):
        rest, best = m, 1 << 30
        while rest:
            low = rest & -rest
            rest ^= low
            best = min(best, run[m ^ low])
        after[m] = best
    return run, after


RUN_DEADWOOD, DISCARD_DEADWOOD = _run_tables()
_DELTA = [
    a - r if m else _NO_SUIT
    for m, (a, r) in enumerate(zip(DISCARD_DEADWOOD, RUN_DEADWOOD, strict=True))
]
"""``_DELTA[m]``: what discarding the best card of suit m changes in its run deadwood."""

_SPREAD = [0] * 8192
for _m in range(1, 8192):
    _SPREAD[_m] = _SPREAD[_m >> 1] << 3 | (_m & 1)
_ONES = _SPREAD[SUIT_BITS]
_FLAGS = _ONES << 2
"""Rank i has a 3-bit counter at bit 3i; the clubs table adds 1, so bit 3i+2 means 3+ suits.
(The solvers spell it out, ``0x4924924924``: a constant is the fastest thing to load.)"""
assert _FLAGS == 0x4924924924
_PACK = [r << 39 | sp for r, sp in zip(RUN_DEADWOOD, _SPREAD, strict=True)]
_PACK_C = [p + _ONES for p in _PACK]
_RUN_CAPABLE = [(w | w << 1 | w << 2) & SUIT_BITS for w in (m & m >> 1 & m >> 2 for m in range(8192))]
"""The cards of each suit mask that are in some run of three inside it."""
_RUN_WITHOUT = [[RUN_DEADWOOD[m & ~(1 << i)] for m in range(8192)] for i in range(13)]
_DELTA_WITHOUT = [[_DELTA[m & ~(1 << i)] for m in range(8192)] for i in range(13)]

_Plan = tuple[int, int, int, list[int], list[int], list[int], list[int], int]
_PLAN: dict[int, _Plan] = {}
"""For each pattern of set flags: (how many set ranks, the ranks, the bits of ``p`` saying
four of a kind, the run and delta tables without the lowest and without the highest rank,
and the suit mask without the highest rank)."""
for _m in range(1, 8192):
    _low = (_m & -_m).bit_length() - 1
    _high = _m.bit_length() - 1
    _PLAN[_SPREAD[_m] << 2] = (
        _m.bit_count(), _m, _SPREAD[_m], _RUN_WITHOUT[_low], _DELTA_WITHOUT[_low],
        _RUN_WITHOUT[_high], _DELTA_WITHOUT[_high], SUIT_BITS ^ (1 << _high),
    )


def _options(c: int, d: int, h: int, s: int, ranks: int) -> list[tuple[int, int, int, int]]:
    """Every way of making sets of ``ranks``, as the cards each suit gives to sets."""
    combos = [(0, 0, 0, 0)]
    while ranks:
        r = ranks & -ranks
        ranks ^= r
        held = (c & r, d & r, h & r, s & r)
        opts = [(0, 0, 0, 0), held]
        if all(held):
            opts += [(0, r, r, r), (r, 0, r, r), (r, r, 0, r), (r, r, r, 0)]
        combos = [(a | e, b | f, g | k, q | u) for a, b, g, q in combos for e, f, k, u in opts]
    return combos


def _subsets(threes: int) -> list[int]:
    """Every subset of the ranks ``threes``, the most ranks first (they tend to win)."""
    subsets = [0]
    while threes:
        r = threes & -threes
        threes ^= r
        subsets = [*map(r.__or__, subsets), *subsets]
    return subsets


_SUBSETS = [_subsets(_m) if _m.bit_count() <= 4 else [] for _m in range(8192)]
"""``_subsets`` of every mask of up to four ranks (else empty: made when needed)."""


def _solve(
    c: int,
    d: int,
    h: int,
    s: int,
    ranks: int,
    discard: bool,
    best: int,
    *,
    _run: list[int] = RUN_DEADWOOD,
    _delta: list[int] = _DELTA,
    _capable: list[int] = _RUN_CAPABLE,
    _all_subsets: list[list[int]] = _SUBSETS,
) -> int:
    """Least deadwood of the suits c, d, h, s (after the best discard if ``discard``).

    The least of that and ``best``, which is the value of some way (such as no sets).
    ``ranks`` are the ranks held three or four times. Each subset of the threes is made
    into sets; with each, the (one) four of a kind is left alone, made a set of four, or a
    set of three leaving out one card, which is then in a run of its suit or discarded (a
    card that cannot be in a run would be deadwood: better in the set; and discarding it is
    as good as the set of four and a discard from the set). A rank none of whose cards can
    be in a run always makes its set, or with a discard, for a three, may instead lose one
    card to the discard, keeping two as deadwood (``extra``). Two or more fours of a kind
    (rare) try every way. Written out long, with chained comparisons rather than ``min``:
    calls, comprehensions and generators cost here.
    """
    run, delta = _run, _delta
    fours = c & d & h & s & ranks
    if fours & (fours - 1):
        for a, b, e, f in _options(c, d, h, s, ranks):
            m0, m1, m2, m3 = c ^ a, d ^ b, h ^ e, s ^ f
            value = run[m0] + run[m1] + run[m2] + run[m3]
            if discard and value - 10 < best:
                value += min(delta[m0], delta[m1], delta[m2], delta[m3])
            if value < best:
                best = value
        return best
    k0, k1, k2, k3 = _capable[c], _capable[d], _capable[h], _capable[s]
    free = ranks & ~(k0 | k1 | k2 | k3)
    k0, k1, k2, k3 = k0 & fours, k1 & fours, k2 & fours, k3 & fours
    extra = 1 << 30  # with a discard: what discarding a card of a free rank adds
    if free:
        if discard:
            extra = 0 if fours & free else 2 * _RANK_POINTS[(free & -free).bit_length() - 1]
        fours &= ~free
        ranks ^= free
        c, d, h, s = c & ~free, d & ~free, h & ~free, s & ~free
    threes = ranks ^ fours
    subsets = _all_subsets[threes] or _subsets(threes)
    if fours:
        top = fours.bit_length() - 1
        run4, delta4 = _RUN_WITHOUT[top], _DELTA_WITHOUT[top]
    # A discard changes a value by -10 at the least, so a way whose value before the discard
    # is 10 or more above the best is not finished.
    for sub in subsets:
        keep = SUIT_BITS ^ sub
        m0, m1, m2, m3 = c & keep, d & keep, h & keep, s & keep
        f0, f1, f2, f3 = run[m0], run[m1], run[m2], run[m3]
        if fours:
            w0, w1, w2, w3 = run4[m0], run4[m1], run4[m2], run4[m3]
            total = w0 + w1 + w2 + w3
            if not discard:  # the four of a kind, or three leaving a card to its run
                value = total + min(0, f0 - w0, f1 - w1, f2 - w2, f3 - w3)
                if value < best:
                    best = value
            else:
                # e01: the best discard change from suits 0 and 1 (the four out) or ``extra``
                e01, e23 = delta4[m0], delta4[m2]
                a = delta4[m1]
                if a < e01:
                    e01 = a
                if extra < e01:
                    e01 = extra
                a = delta4[m3]
                if a < e23:
                    e23 = a
                if extra < e23:
                    e23 = extra
                if total - 10 < best:
                    value = e01 if e01 < e23 else e23
                    if value > 0:  # discard from the set of four
                        value = 0
                    value += total
                    if value < best:
                        best = value
                if k0 or k1:  # a set of three, leaving out the card of suit 0 or 1
                    if k0:
                        value = total - w0 + f0 - 10
                        if value < best:
                            a = delta4[m1]
                            if e23 < a:
                                a = e23
                            b = delta[m0]
                            value += 10 + (a if a < b else b)
                            if value < best:
                                best = value
                    if k1:
                        value = total - w1 + f1 - 10
                        if value < best:
                            a = delta4[m0]
                            if e23 < a:
                                a = e23
                            b = delta[m1]
                            value += 10 + (a if a < b else b)
                            if value < best:
                                best = value
                if k2 or k3:
                    if k2:
                        value = total - w2 + f2 - 10
                        if value < best:
                            a = delta4[m3]
                            if e01 < a:
                                a = e01
                            b = delta[m2]
                            value += 10 + (a if a < b else b)
                            if value < best:
                                best = value
                    if k3:
                        value = total - w3 + f3 - 10
                        if value < best:
                            a = delta4[m2]
                            if e01 < a:
                                a = e01
                            b = delta[m3]
                            value += 10 + (a if a < b else b)
                            if value < best:
                                best = value
        value = f0 + f1 + f2 + f3
        if not discard:
            if value < best:
                best = value
        elif value - 10 < best:
            a = delta[m0]
            b = delta[m1]
            if b < a:
                a = b
            b = delta[m2]
            if b < a:
                a = b
            b = delta[m3]
            if b < a:
                a = b
            if extra < a:
                a = extra
            value += a
            if value < best:
                best = value
    return best


def deadwood_of_mask(
    mask: int,
    *,
    _pc: list[int] = _PACK_C,
    _pa: list[int] = _PACK,
    _plan: dict[int, _Plan] = _PLAN,
    _run: list[int] = RUN_DEADWOOD,
) -> int:
    """Least deadwood of the hand whose card bits are ``mask`` (any number of cards)."""
    c = mask & 0x1FFF
    d = mask >> 13 & 0x1FFF
    h = mask >> 26 & 0x1FFF
    s = mask >> 39
    p = _pc[c] + _pa[d] + _pa[h] + _pa[s]
    flags = p & 0x4924924924
    if not flags:
        return p >> 39
    best = p >> 39
    count, ranks, four, r1, _, r2, _, n2 = _plan[flags]
    if count == 1:
        w0, w1, w2, w3 = r1[c], r1[d], r1[h], r1[s]
        value = w0 + w1 + w2 + w3
        if p & four:  # leave one card of the four in its run, or not
            value += min(0, _run[c] - w0, _run[d] - w1, _run[h] - w2, _run[s] - w3)
        return best if best < value else value
    if count == 2 and not p & four:
        value = r1[c] + r1[d] + r1[h] + r1[s]
        if value < best:
            best = value
        value = r2[c] + r2[d] + r2[h] + r2[s]
        if value < best:
            best = value
        value = r1[c & n2] + r1[d & n2] + r1[h & n2] + r1[s & n2]
        return best if best < value else value
    return _solve(c, d, h, s, ranks, False, best)


def discard_deadwood_of_mask(
    mask: int,
    *,
    _pc: list[int] = _PACK_C,
    _pa: list[int] = _PACK,
    _plan: dict[int, _Plan] = _PLAN,
    _run: list[int] = RUN_DEADWOOD,
    _delta: list[int] = _DELTA,
) -> int:
    """Least deadwood of the hand ``mask`` after discarding one card (of any number of cards).

    The value of :func:`best_discard_of_mask`, without finding the card. Raises ValueError
    for an empty hand.
    """
    if not mask:
        raise ValueError("an empty hand has nothing to discard")
    c = mask & 0x1FFF
    d = mask >> 13 & 0x1FFF
    h = mask >> 26 & 0x1FFF
    s = mask >> 39
    p = _pc[c] + _pa[d] + _pa[h] + _pa[s]
    flags = p & 0x4924924924
    a = _delta[c]
    b = _delta[d]
    if b < a:
        a = b
    b = _delta[h]
    if b < a:
        a = b
    b = _delta[s]
    if b < a:
        a = b
    if not flags:
        return (p >> 39) + a
    best = (p >> 39) + a
    count, ranks, four, r1, d1, r2, d2, n2 = _plan[flags]
    if p & four:
        if count > 1:
            return _solve(c, d, h, s, ranks, True, best)
        # a four of a kind alone: its set of four and a discard (from it, or not), or a set
        # of three leaving the card of one suit to its runs (``_solve``, written out)
        w0 = r1[c]
        w1 = r1[d]
        w2 = r1[h]
        w3 = r1[s]
        total = w0 + w1 + w2 + w3
        e01 = d1[c]  # the best discard change from suits 0 and 1, the four out; e23 likewise
        b = d1[d]
        if b < e01:
            e01 = b
        e23 = d1[h]
        b = d1[s]
        if b < e23:
            e23 = b
        if total - 10 < best:
            value = e01 if e01 < e23 else e23
            if value > 0:
                value = 0
            value += total
            if value < best:
                best = value
        value = total - w0 + _run[c] - 10
        if value < best:
            a = d1[d]
            if e23 < a:
                a = e23
            b = _delta[c]
            value += 10 + (a if a < b else b)
            if value < best:
                best = value
        value = total - w1 + _run[d] - 10
        if value < best:
            a = d1[c]
            if e23 < a:
                a = e23
            b = _delta[d]
            value += 10 + (a if a < b else b)
            if value < best:
                best = value
        value = total - w2 + _run[h] - 10
        if value < best:
            a = d1[s]
            if e01 < a:
                a = e01
            b = _delta[h]
            value += 10 + (a if a < b else b)
            if value < best:
                best = value
        value = total - w3 + _run[s] - 10
        if value < best:
            a = d1[h]
            if e01 < a:
                a = e01
            b = _delta[s]
            value += 10 + (a if a < b else b)
            if value < best:
                best = value
        return best
    if count > 2:
        return _solve(c, d, h, s, ranks, True, best)
    # each way below: run deadwood, then (unless it cannot win: a discard saves at most 10)
    # the best discard's change
    value = r1[c] + r1[d] + r1[h] + r1[s]
    if value - 10 < best:
        a = d1[c]
        b = d1[d]
        if b < a:
            a = b
        b = d1[h]
        if b < a:
            a = b
        b = d1[s]
        if b < a:
            a = b
        value += a
        if value < best:
            best = value
    if count == 1:
        return best
    value = r2[c] + r2[d] + r2[h] + r2[s]
    if value - 10 < best:
        a = d2[c]
        b = d2[d]
        if b < a:
            a = b
        b = d2[h]
        if b < a:
            a = b
        b = d2[s]
        if b < a:
            a = b
        value += a
        if value < best:
            best = value
    c &= n2
    d &= n2
    h &= n2
    s &= n2
    value = r1[c] + r1[d] + r1[h] + r1[s]
    if value - 10 < best:
        a = d1[c]
        b = d1[d]
        if b < a:
            a = b
        b = d1[h]
        if b < a:
            a = b
        b = d1[s]
        if b < a:
            a = b
        value += a
        if value < best:
            best = value
    return best


def best_discard_of_mask(mask: int) -> tuple[int, int]:
    """Least deadwood left after discarding one card, and that card's index.

    On a tie the higher-ranked card is discarded (and of one rank, the first suit in
    clubs, diamonds, hearts, spades order). A hand whose every card melds still discards one
    (from a meld of four or more, leaving 0). Raises ValueError for an empty hand.
    """
    value = discard_deadwood_of_mask(mask)
    for rank in range(12, -1, -1):
        for index in range(rank, 52, 13):
            bit = 1 << index
            if mask & bit and deadwood_of_mask(mask ^ bit) == value:
                return value, index
    raise AssertionError("unreachable: some discard reaches the least deadwood")


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into melds and unmatched cards, with its deadwood."""

    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        """The points of the unmatched cards."""
        return sum(card.points for card in self.unmatched)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card: the melds' in order, then the unmatched ones."""
        return tuple(card for meld in self.melds for card in meld) + self.unmatched

    def __str__(self) -> str:
        parts = ["-".join(str(c) for c in meld) for meld in self.melds]
        parts += [str(c) for c in self.unmatched]
        return " ".join(parts)


def _runs_of_suit(suit_mask: int, suit: int) -> list[tuple[Card, ...]]:
    """The runs of a least-deadwood run-only split of one suit mask."""
    runs: list[tuple[Card, ...]] = []
    m = suit_mask
    while m:
        low = (m & -m).bit_length() - 1
        target = RUN_DEADWOOD[m]
        bits, chosen = 0, 0
        for top in range(low, 13):
            if not m >> top & 1:
                break
            bits |= 1 << top
            if top - low >= 2 and RUN_DEADWOOD[m ^ bits] == target:
                chosen = bits
        if chosen:
            runs.append(tuple(cards_of_mask(chosen << (13 * suit))))
            m ^= chosen
        else:
            m ^= 1 << low
    return runs


def arrangement_of_mask(mask: int) -> Arrangement:
    """One least-deadwood arrangement of the hand ``mask``: its melds and unmatched cards."""
    suits = (mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39)
    c, d, h, s = suits
    ranks = c & d & (h | s) | h & s & (c | d)
    run = RUN_DEADWOOD
    taken = min(
        _options(c, d, h, s, ranks),
        key=lambda o: run[c ^ o[0]] + run[d ^ o[1]] + run[h ^ o[2]] + run[s ^ o[3]],
    )
    used = sum(bits << (13 * i) for i, bits in enumerate(taken))
    melds: list[tuple[Card, ...]] = []
    rank_bits = taken[0] | taken[1] | taken[2] | taken[3]
    while rank_bits:
        low = rank_bits & -rank_bits
        rank_bits ^= low
        melds.append(tuple(cards_of_mask(used & low * 0x8004002001)))
    for suit, suit_mask in enumerate(suits):
        melds.extend(_runs_of_suit(suit_mask ^ taken[suit], suit))
    in_melds = mask_of(card for meld in melds for card in meld)
    melds.sort(key=lambda meld: (meld[0].rank, meld[0].suit))
    return Arrangement(tuple(melds), tuple(cards_of_mask(mask & ~in_melds)))


def deadwood(cards: Iterable[Card]) -> int:
    """Least deadwood of a hand.

    >>> from okgin.cards import parse_cards
    >>> deadwood(parse_cards("AS 2S 3S 7H 7D 7C KH KD QC 5C"))
    35
    """
    return deadwood_of_mask(mask_of(cards))


def arrange(cards: Iterable[Card]) -> Arrangement:
    """One least-deadwood arrangement of a hand."""
    return arrangement_of_mask(mask_of(cards))


def best_discard(cards: Iterable[Card]) -> tuple[int, Card]:
    """Least deadwood left after discarding one card, and the card to discard.

    Raises ValueError for an empty hand.
    """
    value, index = best_discard_of_mask(mask_of(cards))
    return value, DECK[index]


def meld_kind(cards: Iterable[Card]) -> str | None:
    """"set", "run" or None: whether the cards form one meld by themselves."""
    return meld_kind_of_mask(mask_of(cards))


@lru_cache(maxsize=4096)
def meld_kind_of_mask(mask: int) -> str | None:
    """"set", "run" or None for the cards of ``mask`` taken as one meld."""
    count = mask.bit_count()
    if count < 3:
        return None
    suits = [m for m in (mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39) if m]
    if len(suits) == 1:
        low = suits[0] & -suits[0]
        return "run" if suits[0] == low * ((1 << count) - 1) else None
    if count <= 4 and len(set(suits)) == 1 and suits[0] & (suits[0] - 1) == 0:
        return "set"
    return None
