"""The watchers' odds (issue 28, item 4): worked out from what a spectator sees alone, so a
table whose every hidden card is changed (the hands' unseen cards and the stock, dealt anew
among themselves) gives the same odds; each is a share (the hand's chances and the void's add
up to one, the game's to one at most); a hand over gives its winner the hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okgin.actions import Discard, Knock
from okgin.advice.odds import race, watchers_odds
from okgin.bots import make_player
from okgin.cards import Card
from okgin.hand import Deal, Hand
from okgin.rules import preset
from okgin.view import public_view, seat_view


def played(rules_name: str, seed: int, moves: int) -> Hand:
    """A hand dealt from ``seed`` and played ``moves`` moves (or to its end) by `simple`."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    hand = Hand(rules, rng.randrange(rules.players), Deal.shuffle(rules, rng))
    players = [make_player("simple", random.Random(seed + seat)) for seat in range(rules.players)]
    for _ in range(moves):
        seat = hand.to_act
        if hand.over or seat is None:
            break
        hand.apply(players[seat].act(seat_view(hand, seat)))
    return hand


def hidden_dealt_anew(hand: Hand, rng: random.Random) -> Hand:
    """The same hand, its same moves, with every card no spectator has seen moved to another
    such card's place (a derangement): each seat's unseen cards and the stock all change."""
    seen = {hand.deal.upcard} | {c for cards in hand.picked for c in cards}
    seen |= {a.card for a in hand.actions if isinstance(a, (Discard, Knock))}
    deal = hand.deal
    places = [c for cards in deal.hands for c in cards] + list(deal.stock)
    hidden = [c for c in places if c not in seen]
    moved = hidden[:]
    while any(a == b for a, b in zip(hidden, moved, strict=True)):
        rng.shuffle(moved)
    swap: dict[Card, Card] = dict(zip(hidden, moved, strict=True))
    new = Deal(tuple(tuple(swap.get(c, c) for c in cards) for cards in deal.hands), deal.upcard,
               tuple(swap.get(c, c) for c in deal.stock))
    other = Hand(hand.rules, hand.dealer, new)
    for action in hand.actions:
        other.apply(action)
    return other


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["oklahoma", "oklahoma-multiplayer", "gin"]), st.integers(0, 10_000),
       st.integers(0, 40))
def test_changing_every_hidden_card_leaves_the_odds_as_they_were(rules: str, seed: int, moves: int) -> None:
    hand = played(rules, seed, moves)
    if hand.over:
        return  # every hand is shown at the end: nothing is hidden any more
    other = hidden_dealt_anew(hand, random.Random(seed))
    seats = range(hand.players)
    assert [other.hand_size(s) for s in seats] == [hand.hand_size(s) for s in seats]
    assert any(set(a) != set(b) for a, b in zip(hand.deal.hands, other.deal.hands, strict=True))
    won = (0,) * hand.players
    odds = watchers_odds(public_view(hand), won, guesses=16)
    assert odds == watchers_odds(public_view(other), won, guesses=16)
    if odds is not None:
        assert abs(sum(odds.hand) + odds.void - 1) < 1e-9
        assert all(0 <= p <= 1 for p in (*odds.hand, *odds.match)) and sum(odds.match) <= 1 + 1e-9


def test_a_hand_over_is_its_winners_and_a_winning_hand_at_the_target_is_the_game() -> None:
    for seed in range(40):
        hand = played("oklahoma", seed, 200)
        if hand.result is not None and hand.result.winner is not None:
            break
    assert hand.result is not None and hand.result.winner is not None
    winner = hand.result.winner
    points = hand.result.points
    odds = watchers_odds(public_view(hand), points)  # the match: this hand's points alone won
    assert odds is not None and odds.hand[winner] == 1 and odds.void == 0
    at_target = tuple(hand.rules.target if seat == winner else 0 for seat in range(hand.players))
    final = watchers_odds(public_view(hand), at_target)
    assert final is not None and final.match[winner] == 1


def test_the_race_for_the_hands_still_needed_is_worked_out_exactly() -> None:
    """First to win the hands it needs, each hand won by a seat at random: one hand each is a
    coin; one against two, the first wins at once or after the other's first win (1/2 + 1/4)."""
    assert race((1, 1)) == (0.5, 0.5)
    assert race((1, 2)) == (0.75, 0.25)
    assert race((2, 2, 2)) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    # Two against three with a fair coin: the first wins in 11 of 16 (sum of C(1 + k, k) / 2^(2 + k), k < 3).
    assert race((2, 3))[0] == pytest.approx(11 / 16)
    assert sum(race((3, 5, 4, 2))) == pytest.approx(1)
