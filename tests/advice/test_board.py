"""The analysis board (issue 28, item 3): a position typed in as one seat saw it (the rules, the
seat, the dealer, the upcard, that seat's hand and the public moves) is made into exactly the
view the engine gave that seat in real games, so the coach says the same of it; positions no
seat could see (11 cards where 10 are due, a card in two places, 53 cards, a move the rules
refuse, moves past the hand's end) are refused with a sentence saying what is wrong."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_odds import played

from okgin.actions import Discard
from okgin.advice import analyse
from okgin.advice.board import PositionError, position_view, read_position
from okgin.bots import make_player
from okgin.cards import DECK, format_cards
from okgin.hand import Hand
from okgin.match import Match
from okgin.rules import preset
from okgin.steps import game_steps
from okgin.view import seat_view


def fields_of(hand: Hand, seat: int) -> dict[str, str]:
    """The board's fields for ``seat``'s view of ``hand`` now, as a person would type them."""
    return {"rules": hand.rules.preset, "players": str(hand.players), "seat": str(seat),
            "dealer": str(hand.dealer), "upcard": str(hand.deal.upcard),
            "hand": format_cards(seat_view(hand, seat).hand),
            "moves": "\n".join(str(action) for action in hand.public_actions)}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["oklahoma", "oklahoma-multiplayer", "gin", "oklahoma-big-gin"]),
       st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 3))
def test_a_position_typed_in_is_the_view_the_seat_had(rules: str, seed: int, moves: int, seat: int) -> None:
    hand = played(rules, seed, moves)
    if hand.over:
        return
    seat %= hand.players
    assert position_view(read_position(fields_of(hand, seat))) == seat_view(hand, seat)


def test_the_coach_says_the_same_of_a_typed_position_as_of_the_seats_own_view() -> None:
    for seed in (4, 9):
        hand = played("oklahoma", seed, 9)
        assert not hand.over and hand.to_act is not None
        seat = hand.to_act
        typed = analyse(position_view(read_position(fields_of(hand, seat))), ["You", "Ruby"])
        assert typed == analyse(seat_view(hand, seat), ["You", "Ruby"])
        assert typed.suggestion is not None and len(typed.suggestion.values) >= 2


def _refused(change: dict[str, str], said: str) -> None:
    hand = played("oklahoma", 4, 9)
    fields = {**fields_of(hand, hand.to_act or 0), **change}
    with pytest.raises(PositionError) as refused:
        position_view(read_position(fields))
    assert said in str(refused.value), str(refused.value)


def test_positions_no_seat_could_see_are_refused_saying_why() -> None:
    hand = played("oklahoma", 4, 9)
    seat = hand.to_act or 0
    mine = seat_view(hand, seat).hand
    typed = fields_of(hand, seat)
    kept = [c for c in mine if c not in hand.picked[seat]]  # cards it did not take from the pile
    thrown = next(a.card for a in hand.public_actions if isinstance(a, Discard))
    unseen = [c for c in DECK if c not in mine and str(c) not in typed["moves"] and c != hand.deal.upcard]
    eleven = format_cards([*mine, unseen[0]])
    _refused({"hand": eleven}, f"your hand holds {len(mine) + 1} cards where {len(mine)} are due")
    _refused({"hand": format_cards([*kept[1:], *hand.picked[seat], thrown])}, f"{thrown} is in two places")
    _refused({"hand": format_cards(DECK)}, f"your hand holds 52 cards where {len(mine)} are due")
    _refused({"hand": format_cards(DECK) + " 7H"}, "7H is named twice")  # 53 cards
    _refused({"hand": typed["hand"] + " " + str(mine[0])}, f"{mine[0]} is named twice")
    _refused({"upcard": str(thrown)}, f"cannot discard {thrown}: it was just taken")  # the engine says why
    _refused({"moves": typed["moves"] + f"\n{(seat + 1) % 2} draw"}, "move")
    for field in ("players", "target", "seat", "dealer", "scores"):  # digits to str.isdigit, not to int()
        _refused({field: "\u00b2"}, f"{field}: give a whole number")
    _refused({"moves": typed["moves"] + "\n\u2460 draw"}, "is not an action")
    _refused({"moves": "0 knock 7H"}, "ends the hand")
    _refused({"moves": "0 fold"}, "move 1: '0 fold': unknown verb")
    _refused({"seat": "5"}, "seat: give a whole number from 0 to 1")
    _refused({"rules": "poker"}, "no preset 'poker'")
    _refused({"upcard": "1Z"}, "is not a card")
    _refused({"scores": "10"}, "give 2 scores")


def test_each_replay_step_links_to_the_board_at_the_view_its_seat_had() -> None:
    """The replay viewer's link at a step (okgin.steps: the hand's public moves up to it, the
    seat to play's cards, the scores before the hand) is that seat's view then, hand after hand."""
    rules = preset("oklahoma").replace(target=60)
    match = Match(rules, first_dealer=0)
    players = [make_player("simple", random.Random(seat)) for seat in range(2)]
    rng = random.Random(5)
    while not match.over:
        match.deal_next(rng)
        while (hand := match.current) is not None and hand.to_act is not None:
            match.apply(players[hand.to_act].act(match.view(hand.to_act)))
    steps = game_steps(match, ["You", "Ruby"])
    assert steps["board"] is True and len(steps["hands"]) >= 2
    checked, totals = 0, (0, 0)
    for played_hand, real in zip(steps["hands"], match.hands, strict=True):
        assert played_hand["scores"] == list(totals)
        again = Hand(real.rules, real.dealer, real.deal)
        for move, at in enumerate(played_hand["steps"]):
            if at["to_act"] is not None:
                seat = at["to_act"]
                fields = {"rules": steps["rules"], "players": str(steps["players"]),
                          "target": str(steps["target"]), "seat": str(seat),
                          "dealer": str(played_hand["dealer"]), "upcard": played_hand["upcard"],
                          "hand": " ".join(at["hands"][seat]),
                          "moves": "\n".join(played_hand["moves"][:move]),
                          "scores": " ".join(map(str, played_hand["scores"]))}
                assert position_view(read_position(fields)) == seat_view(again, seat, totals, totals)
                checked += 1
            if move < len(real.actions):
                again.apply(real.actions[move])
        assert real.result is not None
        totals = tuple(t + p for t, p in zip(totals, real.result.points, strict=True))
    assert checked > 30
    assert game_steps(Match(rules.replace(knock_bonus=5), first_dealer=0), [])["board"] is False
