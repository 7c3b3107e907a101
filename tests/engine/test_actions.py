"""Actions: one frozen value each; str() is the record notation and parses back."""

from __future__ import annotations

import pytest

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, Reshuffle, Take, parse_action
from okgin.cards import parse_card, parse_cards
from okgin.errors import NotationError


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("0 pass", Pass(0)),
        ("1 take", Take(1)),
        ("0 draw", Draw(0)),
        ("1 discard KH", Discard(1, parse_card("KH"))),
        ("0 knock 3C", Knock(0, parse_card("3C"))),
        (
            "0 knock 3C 7C-7D-7H AS-2S-3S",
            Knock(0, parse_card("3C"), (tuple(parse_cards("7C 7D 7H")), tuple(parse_cards("AS 2S 3S")))),
        ),
        ("1 big-gin", BigGin(1)),
        ("reshuffle 4C 9H", Reshuffle(tuple(parse_cards("4C 9H")))),
        ("2 draw", Draw(2)),
    ],
)
def test_notation_round_trips(text, action):
    assert parse_action(text) == action
    assert str(action) == text


def test_notation_accepts_other_card_spellings_and_writes_the_standard_one():
    assert str(parse_action("1 discard 10♥")) == "1 discard TH"
    assert str(parse_action("0 knock 3c 7c-7d-7h")) == "0 knock 3C 7C-7D-7H"


def test_knock_without_melds_shows_none():
    assert parse_action("0 knock 3C").melds is None


def test_actions_are_frozen_values():
    action = Draw(0)
    with pytest.raises(AttributeError):
        action.seat = 1  # type: ignore[misc]
    assert {Draw(0), Draw(0)} == {Draw(0)}
    assert Reshuffle(tuple(parse_cards("4C 9H"))).public == "reshuffle"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not an action"),
        ("draw", "is not an action"),
        ("x draw", "is not an action"),
        ("\u00b2 draw", "is not an action"),  # a digit to str.isdigit, not to int()
        ("\u2460 pass", "is not an action"),
        ("0 fly", "unknown verb 'fly'"),
        ("0 pass KH", "'pass' takes no card"),
        ("0 discard", "'discard' needs the card to discard"),
        ("0 knock", "'knock' needs the card to discard"),
        ("0 discard KH QH", "'discard' takes one card"),
        ("0 discard 1S", "'1S' is not a card"),
        ("0 knock 3C 7C-XX-7H", "'XX' is not a card"),
        ("0 knock 3C 7C-7C-7H", "7C is named twice"),
        ("reshuffle 4C 4C", "4C is named twice"),
    ],
)
def test_bad_notation_says_what_was_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        parse_action(text)


def test_a_non_string_action_is_a_notation_error():
    with pytest.raises(NotationError, match="an action is a string"):
        parse_action(3)  # type: ignore[arg-type]
