"""The coach: near-melds, what each discard leaves, tips and warnings, from hand-made deals."""

from __future__ import annotations

from okgin.actions import Discard, Draw, Pass, Take
from okgin.advice.tips import advice, hint
from okgin.cards import DECK, Card, parse_cards
from okgin.hand import Deal, Hand
from okgin.rules import Rules
from okgin.view import seat_view


def make_hand(mine: str, theirs: str, upcard: str, top: str = "") -> Hand:
    """A hand whose stock starts with ``top`` (seat 1 deals, so seat 0 acts first)."""
    hands = (tuple(parse_cards(mine)), tuple(parse_cards(theirs)))
    up = Card.parse(upcard)
    first = parse_cards(top)
    used = set(hands[0]) | set(hands[1]) | {up} | set(first)
    stock = tuple(first) + tuple(c for c in DECK if c not in used)
    return Hand(Rules(), 1, Deal(hands, up, stock))


MINE = "7H 8H 9H 4C 4D KS QD 2S 5C JC"
THEIRS = "AC 2C 3C AD 2D 3D AH 2H 3H AS"


def test_deadwood_melds_and_near_melds() -> None:
    hand = make_hand(MINE, THEIRS, "9C")
    got = advice(seat_view(hand, 0))
    assert got.deadwood == 4 + 4 + 10 + 10 + 2 + 5 + 10
    assert [tuple(map(str, meld)) for meld in got.melds] == [("7H", "8H", "9H")]
    pairs = {tuple(sorted(map(str, pair))) for pair in got.near_melds}
    assert ("4C", "4D") in pairs and ("4C", "5C") in pairs
    assert any("want another 4" in tip for tip in got.tips)
    assert got.leaves == ()  # not discarding yet


def test_what_each_discard_leaves_least_first() -> None:
    hand = make_hand(MINE, THEIRS, "9C", top="TH")
    hand.apply(Pass(0))
    hand.apply(Pass(1))
    hand.apply(Draw(0))  # draws the 10 of hearts: 7-8-9-10 of hearts
    got = advice(seat_view(hand, 0))
    leaves = {str(leave.card): leave.deadwood for leave in got.leaves}
    assert leaves["KS"] == 4 + 4 + 10 + 2 + 5 + 10
    assert leaves["TH"] == 4 + 4 + 10 + 10 + 2 + 5 + 10
    assert got.leaves[0].deadwood == min(leaves.values())
    assert hint(seat_view(hand, 0)).startswith("Discard the")


def test_hint_takes_a_card_that_makes_a_meld() -> None:
    hand = make_hand(MINE, THEIRS, "TH")
    assert hint(seat_view(hand, 0)) == (
        "Take the 10♥: it extends your 7♥ 8♥ 9♥ and drops your deadwood from 45 to 35."
    )
    assert hint(seat_view(hand, 1)) == "Wait for your turn."


def test_knock_tip_and_warning_about_a_card_the_opponent_took() -> None:
    hand = make_hand("7H 8H 9H 4C 4D 4S 2S 3S AS 6C", THEIRS.replace("AS", "KC"), "7C", top="KD")
    hand.apply(Pass(0))
    hand.apply(Take(1))  # the opponent takes the 7 of clubs
    hand.apply(Discard(1, Card.parse("AH")))
    hand.apply(Draw(0))  # draws the king of diamonds
    got = advice(seat_view(hand, 0), names=("You", "Ruby"))
    assert got.tips[0] == "You can knock with 6 by discarding the king of diamonds."
    assert "Ruby took the 7 of clubs; the 6 of clubs may help them" in " ".join(got.warnings)
    assert any(leave.can_knock for leave in got.leaves)


def test_ace_upcard_means_gin_only() -> None:
    got = advice(seat_view(make_hand(MINE, THEIRS.replace("AS", "KC"), "AS"), 0))
    assert "only gin ends this hand" in " ".join(got.tips)


def test_a_warning_about_a_seat_named_you_reads_right() -> None:
    hand = make_hand("7H 8H 9H 4C 4D 4S 2S 3S AS 6C", THEIRS.replace("AS", "KC"), "7C", top="KD")
    for action in (Pass(0), Take(1), Discard(1, Card.parse("AH")), Draw(0)):
        hand.apply(action)
    said = advice(seat_view(hand, 0), ("Ruby", "You")).warnings
    assert "Careful: You took the 7 of clubs; the 6 of clubs may help you." in said
    said = advice(seat_view(hand, 0), ("You", "Sam")).warnings
    assert "Careful: Sam took the 7 of clubs; the 6 of clubs may help them." in said
