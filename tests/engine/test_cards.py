"""Cards and their notation: "7S", "TD", "10♠" in, "TS" out; bad tokens named in the error."""

from __future__ import annotations

import pytest

from okgin.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    cards_of_mask,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from okgin.errors import NotationError


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("7S", Card(Suit.SPADES, Rank.SEVEN)),
        ("TD", Card(Suit.DIAMONDS, Rank.TEN)),
        ("10S", Card(Suit.SPADES, Rank.TEN)),
        ("10s", Card(Suit.SPADES, Rank.TEN)),
        ("ts", Card(Suit.SPADES, Rank.TEN)),
        ("qh", Card(Suit.HEARTS, Rank.QUEEN)),
        ("Q♥", Card(Suit.HEARTS, Rank.QUEEN)),
        ("10♠", Card(Suit.SPADES, Rank.TEN)),
        ("A♣", Card(Suit.CLUBS, Rank.ACE)),
        ("K♦", Card(Suit.DIAMONDS, Rank.KING)),
        (" 2c ", Card(Suit.CLUBS, Rank.TWO)),
    ],
)
def test_parse_card_accepts(text, card):
    assert parse_card(text) == card
    assert Card.parse(text) == card


@pytest.mark.parametrize("text", ["1S", "XX", "", "7", "S", "7X", "11S", "0H", "AA", "10"])
def test_parse_card_rejects_naming_the_token(text):
    with pytest.raises(NotationError) as error:
        parse_card(text)
    assert repr(text) in str(error.value)
    assert "is not a card" in str(error.value)


def test_notation_errors_are_value_errors():
    with pytest.raises(ValueError, match=r"'1S' is not a card"):
        parse_card("1S")


def test_str_and_repr_round_trip_for_every_card():
    for card in DECK:
        assert parse_card(str(card)) == card
        assert eval(repr(card), {"Card": Card}) == card
        assert len(str(card)) == 2
    assert str(parse_card("10♠")) == "TS"
    assert repr(parse_card("10♠")) == "Card.parse('TS')"


def test_the_deck_holds_52_different_cards_indexed_by_their_bit():
    assert len(DECK) == 52 == len(set(DECK))
    assert all(card.index == i for i, card in enumerate(DECK))
    assert mask_of(DECK) == (1 << 52) - 1
    assert list(cards_of_mask(mask_of(DECK))) == list(DECK)


def test_points():
    points = [parse_card(t).points for t in ("AS", "2S", "9H", "TD", "JC", "QC", "KH")]
    assert points == [1, 2, 9, 10, 10, 10, 10]


def test_names_say_the_card_in_words():
    assert parse_card("QH").name == "queen of hearts"
    assert parse_card("TS").name == "10 of spades"
    assert parse_card("AC").name == "ace of clubs"


def test_parse_cards_from_text_or_tokens():
    assert format_cards(parse_cards("7s, TD 10♠")) == "7S TD TS"
    assert format_cards(parse_cards(["ah", "2h"])) == "AH 2H"
    assert parse_cards("") == []


def test_parse_cards_rejects_a_card_named_twice_and_a_bad_token():
    with pytest.raises(NotationError, match=r"^TS is named twice$"):
        parse_cards("TS 10S")
    with pytest.raises(NotationError, match=r"'XX' is not a card"):
        parse_cards("7S XX 8S")
