"""The close-move search of `hard` and `expert`: the knock search's choice, with the close draws
and discards searched."""

from __future__ import annotations

import random

from okgin.actions import Discard, Draw, Knock, Pass, Take
from okgin.bots import make_player
from okgin.bots.close_search import MOST, rivals
from okgin.bots.expert import ExpertPlayer
from okgin.bots.hard import HardPlayer
from okgin.bots.knock_search import KnockSearchPlayer
from okgin.cards import DECK, Card, parse_cards
from okgin.hand import Deal, Hand, Phase
from okgin.rules import Rules
from okgin.view import seat_view


def _hand(mine: str, theirs: str, upcard: str) -> Hand:
    """Seat 0 holds ``mine`` and is offered ``upcard`` first (seat 1 deals)."""
    hands = (tuple(parse_cards(mine)), tuple(parse_cards(theirs)))
    used = {*hands[0], *hands[1], Card.parse(upcard)}
    return Hand(Rules(), 1, Deal(hands, Card.parse(upcard), tuple(c for c in DECK if c not in used)))


SEVEN_OF_CLUBS = ("6C 8C 9C KD 4H 5H 6H 7H 4S QS", "2C 3C 4C 2D 3D 4D TH JH QH KS", "7C")
"""The coach's offer (docs/bots.md): the 7♣ joins the 6♣ 8♣ 9♣, 47 deadwood to 14."""


def test_at_the_offer_it_searches_take_against_pass_and_takes_a_card_that_melds() -> None:
    view = seat_view(_hand(*SEVEN_OF_CLUBS), 0)
    assert view.phase == Phase.OFFER
    assert set(rivals(view, Take(0))) == {Take(0), Pass(0)}
    assert make_player("hard", random.Random(3)).act(view) == Take(0)
    assert make_player("expert", random.Random(3), budget=160).act(view) == Take(0)


def test_expert_guesses_four_times_as_many_deals_as_hard_at_half_the_prior() -> None:
    hard, expert = HardPlayer(random.Random(1)), ExpertPlayer(random.Random(1))
    assert (hard.budget, hard._knocks.budget, hard.prior) == (160, 200, 3.0)
    assert (expert.budget, expert._knocks.budget, expert.prior) == (640, 800, 1.5)
    given = ExpertPlayer(random.Random(1), budget=24)  # --budget sets both searches
    assert (given.budget, given._knocks.budget) == (24, 24)


def test_at_a_discard_it_searches_the_knock_searchs_choice_first_and_at_most_four() -> None:
    hand = _hand(*SEVEN_OF_CLUBS)
    hand.apply(Take(0))
    view = seat_view(hand, 0)
    choice = KnockSearchPlayer(random.Random(1)).act(view)
    assert isinstance(choice, Discard)
    moves = rivals(view, choice)
    assert moves[0] == choice and 2 <= len(moves) <= MOST
    assert all(isinstance(m, Discard) and m.card != Card.parse("7C") for m in moves)
    assert make_player("hard", random.Random(1)).act(view) in moves


def test_where_a_knock_is_legal_it_plays_as_the_knock_search_does() -> None:
    # the 4♦ makes 2♦ 3♦ 4♦ 5♦: throwing the K♠ leaves 6 deadwood, under the limit of 10
    hand = _hand("AC 2C 3C 2D 3D 5D 9H TH JH KS", "5C 6C 7C 2H 3H 4H 9S TS JS KD", "4D")
    hand.apply(Take(0))
    view = seat_view(hand, 0)
    assert Knock(0, Card.parse("KS")) in view.legal
    choice = KnockSearchPlayer(random.Random(5), 200).act(view)
    assert rivals(view, choice) == [choice]
    assert HardPlayer(random.Random(5)).act(view) == choice


def test_with_nothing_to_take_it_draws() -> None:
    hand = _hand(*SEVEN_OF_CLUBS)
    hand.apply(Pass(0))
    hand.apply(Pass(1))
    view = seat_view(hand, 0)
    assert Take(0) not in view.legal
    assert rivals(view, Draw(0)) == [Draw(0)]
