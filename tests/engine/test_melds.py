"""The meld solver against known hands and against an independent brute force."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okgin.cards import DECK, Card, mask_of, parse_cards
from okgin.melds import (
    Arrangement,
    arrange,
    arrangement_of_mask,
    best_discard,
    best_discard_of_mask,
    deadwood,
    deadwood_of_mask,
    discard_deadwood_of_mask,
    meld_kind,
)

# --- the brute force: every valid meld of the hand, then every disjoint choice of them ---


def _points(index: int) -> int:
    return min(index % 13 + 1, 10)


def _is_meld(mask: int) -> bool:
    cards = [i for i in range(52) if mask >> i & 1]
    if len(cards) < 3:
        return False
    ranks = {i % 13 for i in cards}
    suits = {i // 13 for i in cards}
    if len(ranks) == 1:
        return len(cards) <= 4
    ordered = sorted(i % 13 for i in cards)
    return len(suits) == 1 and ordered == list(range(ordered[0], ordered[0] + len(cards)))


def _all_melds(mask: int) -> list[int]:
    cards = [i for i in range(52) if mask >> i & 1]
    found = []
    for size in range(3, len(cards) + 1):
        for combo in combinations(cards, size):
            meld = sum(1 << i for i in combo)
            if _is_meld(meld):
                found.append(meld)
    return found


def brute_deadwood(mask: int, melds: list[int] | None = None) -> int:
    """Least deadwood: the lowest card is unmatched or in one of the melds, recursively."""
    usable = [m for m in (_all_melds(mask) if melds is None else melds) if m & mask == m]

    def least(rest: int) -> int:
        if not rest:
            return 0
        low = rest & -rest
        best = _points(low.bit_length() - 1) + least(rest ^ low)
        for meld in usable:
            if meld & low and meld & rest == meld:
                best = min(best, least(rest ^ meld))
        return best

    return least(mask)


def brute_discards(mask: int) -> dict[int, int]:
    """Deadwood left after each possible discard, by card index."""
    melds = _all_melds(mask)
    return {i: brute_deadwood(mask ^ (1 << i), melds) for i in range(52) if mask >> i & 1}


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


# --- hands with known answers ---

KNOWN = [
    ("AS 2S 3S 7H 7D 7C KH KD QC 5C", 35),
    ("", 0),
    ("KS", 10),
    ("AH 2H 3H", 0),  # aces are low: A-2-3 is a run
    ("QS KS AS", 21),  # ... and Q-K-A is not
    ("JS QS KS", 0),
    ("5H 6H 7H 7C 7D", 11),  # the 7H in the set (5H 6H left), not in the run (7C 7D left)
    ("4H 5H 6H 7H 7C 7D", 0),  # the run gives up its end to the set
    ("7C 7D 7H 7S 5S 6S", 0),  # four of a kind sharing 7S with a run: set of three + run
    ("7C 7D 7H 7S 8S 9S KD", 10),
    ("7C 7D 7H 7S 6S 8S KD", 10),  # 7S in the middle of the run
    ("3C 4C 5C 6C 5D 5H", 10),  # run of four (5D 5H left) beats set of 5s (3C 4C 6C left)
    ("2C 3C 4C 5C 6C 4D 4H", 8),  # the run of five keeps 4C: 4D 4H left
    ("9C TC JC QC KC", 0),
    ("4C 4D 4H 4S 5S 6S 5C 6C", 8),  # two runs take two of the four: 4D 4H left
]


@pytest.mark.parametrize(("text", "expected"), KNOWN)
def test_known_deadwood(text: str, expected: int) -> None:
    mask = hand(text)
    assert deadwood_of_mask(mask) == expected == brute_deadwood(mask)
    assert arrangement_of_mask(mask).deadwood == expected


BEST_DISCARDS = [
    # (hand, least deadwood after the discard, the card discarded)
    ("AS 2S 3S 4S 7H 7D 7C KH KD QC 5C", 25, "KD"),  # a king, diamonds before hearts
    ("4C 4D 4H 4S 8C 8D 8H 8S 5C 5D 5H", 0, "8C"),  # all eleven meld: discard from a four
    ("8D TH 9D TS 2S TD 8H 9H AS 2D 8S", 13, "TS"),  # OpenSpiel says 14 here
    ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC", 0, "JC"),
    ("KS", 0, "KS"),
    ("AS AD AH JS QS KS", 2, "AD"),  # keep the run: an ace goes (the first suit)
    ("AC AD AH 5S 6S 7S 7C 7D 7H", 2, "AC"),  # the same, next to a four of a kind
    ("8C 4D 6D 7D 8D 5H 7H 8H 8S", 9, "7H"),  # 8C 8H 8S set, 8D left to 6D-7D-8D
    ("6C 7C 8C 7D 8D 6H 7H 8H 6S", 12, "6C"),  # three ranks of sets crossing three runs
]


@pytest.mark.parametrize(("text", "value", "card"), BEST_DISCARDS)
def test_known_best_discard(text: str, value: int, card: str) -> None:
    mask = hand(text)
    assert discard_deadwood_of_mask(mask) == value == min(brute_discards(mask).values())
    assert best_discard_of_mask(mask) == (value, Card.parse(card).index)
    assert best_discard(parse_cards(text)) == (value, Card.parse(card))


def test_empty_hand_has_no_discard() -> None:
    with pytest.raises(ValueError):
        best_discard_of_mask(0)
    with pytest.raises(ValueError):
        discard_deadwood_of_mask(0)


def test_card_level_helpers() -> None:
    cards = parse_cards("AS 2S 3S 7H 7D 7C KH KD QC 5C")
    assert deadwood(cards) == 35
    shown = arrange(cards)
    assert isinstance(shown, Arrangement)
    assert shown.deadwood == 35
    assert sorted(shown.cards) == sorted(cards)
    assert meld_kind(parse_cards("7H 7D 7C")) == "set"
    assert meld_kind(parse_cards("AS 2S 3S")) == "run"
    assert meld_kind(parse_cards("QS KS AS")) is None
    assert meld_kind(parse_cards("7H 7D")) is None


# --- properties against the brute force ---

random_hands = st.integers(3, 11).flatmap(
    lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
)


@st.composite
def dense_hands(draw: st.DrawFn) -> list[int]:
    """Cards from five adjacent ranks of all suits: sets and runs everywhere, crossing."""
    low = draw(st.integers(0, 8))
    pool = [13 * suit + rank for suit in range(4) for rank in range(low, low + 5)]
    size = draw(st.integers(3, 11))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


any_hands = st.one_of(random_hands, dense_hands())


@st.composite
def dense_big_hands(draw: st.DrawFn) -> list[int]:
    """9 to 11 cards of five adjacent ranks: sets of four and of three crossing runs."""
    low = draw(st.integers(0, 8))
    pool = [13 * suit + rank for suit in range(4) for rank in range(low, low + 5)]
    size = draw(st.integers(9, 11))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


def _mask(indices: list[int]) -> int:
    return sum(1 << i for i in indices)


@settings(max_examples=400, deadline=None)
@given(any_hands)
def test_deadwood_is_the_least(indices: list[int]) -> None:
    mask = _mask(indices)
    assert deadwood_of_mask(mask) == brute_deadwood(mask)


@settings(max_examples=400, deadline=None)
@given(dense_big_hands())
@pytest.mark.slow
def test_dense_big_hands(indices: list[int]) -> None:
    mask = _mask(indices)
    after = brute_discards(mask)
    assert discard_deadwood_of_mask(mask) == min(after.values())
    assert deadwood_of_mask(mask) == brute_deadwood(mask)


@settings(max_examples=300, deadline=None)
@given(any_hands)
def test_best_discard_is_the_least(indices: list[int]) -> None:
    mask = _mask(indices)
    after = brute_discards(mask)
    least = min(after.values())
    assert discard_deadwood_of_mask(mask) == least
    value, index = best_discard_of_mask(mask)
    assert value == least
    ties = [i for i, v in after.items() if v == least]
    top = max(i % 13 for i in ties)
    assert index == min(i for i in ties if i % 13 == top)  # higher rank, then first suit


@settings(max_examples=300, deadline=None)
@given(any_hands)
def test_arrangement_is_valid_and_least(indices: list[int]) -> None:
    mask = _mask(indices)
    shown = arrangement_of_mask(mask)
    seen = 0
    for meld in shown.melds:
        meld_mask = mask_of(meld)
        assert _is_meld(meld_mask), meld
        assert not seen & meld_mask, "melds share a card"
        seen |= meld_mask
    unmatched = mask_of(shown.unmatched)
    assert not seen & unmatched
    assert seen | unmatched == mask
    assert len(shown.cards) == len(indices)
    assert shown.deadwood == brute_deadwood(mask)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=12, max_size=13, unique=True))
@pytest.mark.slow
def test_more_cards_than_a_hand(indices: list[int]) -> None:
    mask = _mask(indices)
    assert deadwood_of_mask(mask) == brute_deadwood(mask)


def test_every_ten_card_example_in_the_deck_order() -> None:
    # a cheap sweep: consecutive windows of the deck in rank-major order (many sets)
    order = sorted(range(52), key=lambda i: (i % 13, i // 13))
    for start in range(0, 42):
        mask = _mask(order[start:start + 10])
        assert deadwood_of_mask(mask) == brute_deadwood(mask), [str(DECK[i]) for i in order[start:start + 10]]
        assert discard_deadwood_of_mask(mask | 1 << order[(start + 10) % 52]) == min(
            brute_discards(mask | 1 << order[(start + 10) % 52]).values()
        )



def test_eleven_cards_of_three_ranks_and_aces_discard_to_the_least() -> None:
    # A draft of the solver answered 99 here (no discard found), which crashed legal_actions.
    hand = mask_of(parse_cards("AC 3C 4C AD 3D 4D AH 3H 4H 3S 4S"))
    least = min(brute_discards(hand).values())
    assert discard_deadwood_of_mask(hand) == least
    value, index = best_discard_of_mask(hand)
    assert value == least == deadwood_of_mask(hand & ~(1 << index))
