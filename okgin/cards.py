"""Cards, the deck and their text notation ("7S", "TD", "10♠")."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from okgin.errors import NotationError


class Suit(IntEnum):
    """The four suits; the value is the suit's place in a hand's bit mask."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def word(self) -> str:
        return ("clubs", "diamonds", "hearts", "spades")[self]


class Rank(IntEnum):
    """Ranks, aces low: the value is the rank's order (ace 1 .. king 13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return "A23456789TJQK"[self - 1]

    @property
    def points(self) -> int:
        """Deadwood points: aces 1, number cards their number, pictures 10."""
        return min(int(self), 10)

    @property
    def word(self) -> str:
        return _RANK_WORDS[self - 1]


_RANK_WORDS = (
    "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king",
)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. ``str(card)`` is its record notation, ``repr`` pastes back.

    >>> Card.parse("10♠")
    Card.parse('TS')
    """

    suit: Suit
    rank: Rank
    index: int = field(init=False, compare=False, repr=False)
    """The card's bit in a hand mask: 13 bits per suit, clubs first, aces lowest."""
    mask: int = field(init=False, compare=False, repr=False)
    """``1 << index``: the hot path works on masks, so both are computed once."""

    def __post_init__(self) -> None:
        index = 13 * int(self.suit) + int(self.rank) - 1
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "mask", 1 << index)

    @property
    def points(self) -> int:
        return self.rank.points

    @property
    def name(self) -> str:
        """The card in words, as a screen reader says it: "queen of hearts"."""
        return f"{self.rank.word} of {self.suit.word}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card: "7S", "TD", "10s", "Q♥". Raises NotationError naming the token."""
        return parse_card(text)

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


DECK: tuple[Card, ...] = tuple(
    Card(suit, rank) for suit in Suit for rank in Rank
)
"""All 52 cards, ``DECK[i].index == i``."""

_SUIT_TOKENS = {
    **{s.letter: s for s in Suit},
    **{s.symbol: s for s in Suit},
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_RANK_TOKENS = {**{r.letter: r for r in Rank}, "10": Rank.TEN}


def parse_card(text: str) -> Card:
    """Read one card in record notation (case and the suit symbols are accepted).

    Raises NotationError with the bad token in its message.
    """
    token = text.strip()
    upper = token.upper()
    rank = _RANK_TOKENS.get(upper[:-1]) if len(upper) >= 2 else None
    suit = _SUIT_TOKENS.get(upper[-1:]) if upper else None
    if rank is None or suit is None:
        raise NotationError(
            f"{text!r} is not a card: write a rank (A 2-9 T J Q K, or 10) "
            "then a suit (C D H S or ♣♦♥♠), e.g. 7S, TD, 10♠"
        )
    return Card(suit, rank)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read several cards, from one string separated by spaces/commas or from tokens.

    Raises NotationError for a bad token or a card named twice.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [parse_card(token) for token in tokens]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise NotationError(f"{card} is named twice")
        seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """The cards in record notation, separated by spaces."""
    return " ".join(str(card) for card in cards)


def _suit_tables() -> tuple[list[tuple[Card, ...]], ...]:
    """For each suit, the cards of every 13-bit suit mask, so a hand converts in 4 look-ups."""
    tables = []
    for suit in Suit:
        table: list[tuple[Card, ...]] = [()] * 8192
        for m in range(1, 8192):
            low = m & -m
            table[m] = (DECK[13 * suit + low.bit_length() - 1], *table[m ^ low])
        tables.append(table)
    return tuple(tables)


_CLUBS, _DIAMONDS, _HEARTS, _SPADES = _suit_tables()


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, in deck order."""
    return (
        _CLUBS[mask & 0x1FFF] + _DIAMONDS[mask >> 13 & 0x1FFF]
        + _HEARTS[mask >> 26 & 0x1FFF] + _SPADES[mask >> 39 & 0x1FFF]
    )


def indices_of_mask(mask: int) -> list[int]:
    """The card indices whose bits are set in ``mask``, lowest first."""
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A new deck in random order, drawn from ``rng`` (so a seed repeats a deal)."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck
