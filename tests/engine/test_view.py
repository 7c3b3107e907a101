"""What one seat may see: its own cards, the public pile, its legal actions, never the stock."""

from __future__ import annotations

import dataclasses
import random

from deals import DEFENDER_14, KNOCKER_6, deal, draw_and_discard, opening, play

from okgin.actions import Reshuffle
from okgin.cards import parse_card
from okgin.hand import Hand, Phase, play_chance
from okgin.rules import PRESETS
from okgin.view import seat_view

OK = PRESETS["oklahoma"]


def started() -> Hand:
    return play(OK, 1, deal([KNOCKER_6, DEFENDER_14], "6S", "KD"), ["0 pass", "1 take"])


def test_a_view_shows_the_seats_own_cards_and_public_facts_only():
    hand = started()
    view = seat_view(hand, 0, (12, 3))
    assert [str(c) for c in view.hand] == sorted(KNOCKER_6.split(), key=lambda t: parse_card(t).index)
    assert view.hand_sizes == (10, 11)
    assert view.stock_count == 31
    assert view.upcard == parse_card("6S") and view.knock_limit == 6 and view.multiplier == 2
    assert view.picked == ((), (parse_card("6S"),))
    assert view.scores == (12, 3) and view.target == 150
    assert not view.my_turn and view.legal == () and view.taken is None
    assert view.result is None
    names = {f.name for f in dataclasses.fields(view)}
    assert not names & {"stock", "hands", "deal"}
    other = seat_view(hand, 1)
    assert other.my_turn and other.taken == parse_card("6S")
    assert set(other.legal) == set(hand.legal_actions())
    assert parse_card("KD") not in view.hand and parse_card("KD") not in other.hand


def test_a_view_is_a_copy_that_does_not_change_with_the_hand():
    hand = started()
    view = seat_view(hand, 1)
    hand.apply(view.legal[0])
    assert view.phase == Phase.DISCARD and view.hand_sizes == (10, 11)
    assert seat_view(hand, 1).phase != view.phase


def test_a_reshuffle_shows_in_the_history_without_its_order():
    rules = PRESETS["oklahoma-reshuffle"]
    the_deal = deal([KNOCKER_6, DEFENDER_14], "KC")
    hand = play(rules, 1, the_deal, opening(1) + draw_and_discard(the_deal, 0, 0, 29))
    play_chance(hand, random.Random(2))
    assert len(hand.actions[-1].stock) == 29
    for seat in (0, 1):
        history = seat_view(hand, seat).history
        assert history[-1] == Reshuffle(())
        assert history[:-1] == tuple(hand.actions[:-1])


def test_after_the_hand_every_seat_sees_the_result():
    actions = ["0 pass", "1 pass", "0 draw", "0 knock KD"]
    hand = play(OK, 1, deal([KNOCKER_6, DEFENDER_14], "6S", "KD"), actions)
    for seat in (0, 1):
        view = seat_view(hand, seat)
        assert view.phase == Phase.OVER and view.legal == ()
        assert view.result is hand.result and view.result.points == (16, 0)


def test_the_public_view_holds_no_hand_and_agrees_with_every_seat():
    from okgin.view import public_view

    hand = started()
    public = public_view(hand, (12, 3))
    seat = seat_view(hand, 1, (12, 3))
    names = {f.name for f in dataclasses.fields(public)}
    assert not names & {"hand", "hand_mask", "legal", "taken", "seat"}
    for name in names:
        assert getattr(public, name) == getattr(seat, name), name
