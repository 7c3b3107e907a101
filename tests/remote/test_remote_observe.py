"""`okgin bot`'s observation (okgin/remote/observe.py): a state frame, as the server writes it,
made back into the seat's SeatView is that seat's own view exactly (its result left out), at
every turn of whole games under several rules, so the player it is given sees what the seat may
and no more."""

from __future__ import annotations

import dataclasses
import random

import pytest

from okgin.actions import Knock, Reshuffle
from okgin.bots import make_player
from okgin.errors import OkginError
from okgin.match import Match
from okgin.remote.observe import api_notation, seat_view_of
from okgin.rules import preset
from okgin.server.rooms.games import Game
from okgin.view import SeatView


def _without_result(view: SeatView) -> SeatView:
    return dataclasses.replace(view, result=None)


@pytest.mark.parametrize(("rules", "seed"), [("oklahoma", 1), ("gin", 2), ("oklahoma-big-gin", 3)])
def test_a_streamed_state_is_the_seats_own_view_at_every_turn(rules: str, seed: int) -> None:
    game = Game.deal(preset(rules).replace(target=60), seed)
    match: Match = game.match
    players = [make_player("normal", random.Random(seed + s)) for s in range(match.rules.players)]
    rng = random.Random(seed)
    checked, reshuffled = 0, False
    while match.final is None:
        hand = match.hands[-1]
        if hand.over:
            match.deal_next(rng)
            continue
        if hand.to_act is None:  # chance: the pile becomes the stock
            reshuffled = True
            match.apply(Reshuffle(tuple(rng.sample(hand.discards[:-1], len(hand.discards) - 1))))
            continue
        seat = hand.to_act
        for looking in range(match.rules.players):
            frame = game.frame(looking, ["A", "B"], [None, "normal"])
            assert seat_view_of(frame) == _without_result(match.view(looking))
            checked += 1
        action = players[seat].act(seat_view_of(game.frame(seat, ["A", "B"], [None, "normal"])))
        assert f"{seat} {api_notation(action)}" == str(action)
        if isinstance(action, Knock):
            assert api_notation(action).startswith("knock ")
        match.apply(action)
    assert checked > 100, (checked, reshuffled)


def test_a_frame_that_is_not_a_state_says_so_in_one_line() -> None:
    game = Game.deal(preset("gin"), 4)
    frame = game.frame(0, ["A", "B"], [None, None])
    for broken in ({**frame, "view": {**frame["view"], "hand": ["ZZ"]}},
                   {**frame, "view": {k: v for k, v in frame["view"].items() if k != "legal"}},
                   {**frame, "rules": {"preset": "gin", "colour": 3}}):
        with pytest.raises(OkginError, match="the server sent a state okgin cannot read"):
            seat_view_of(broken)


@pytest.mark.parametrize("level", ["random", "simple", "easy", "normal", "hard"])
def test_every_level_moves_legally_from_a_streamed_state(level: str) -> None:
    """Each level `okgin bot --level` takes, given only the observed view, makes moves the
    real hand takes (its API notation one of the state's `legal`), for a hand's first 30 moves."""
    game = Game.deal(preset("oklahoma"), 5)
    match: Match = game.match
    player = make_player(level, random.Random(5), budget=20)
    for _ in range(30):
        hand = match.hands[-1]
        if hand.over or hand.to_act is None:
            break
        frame = game.frame(hand.to_act, ["A", "B"], [None, level])
        action = player.act(seat_view_of(frame))
        assert api_notation(action) in frame["view"]["legal"]
        match.apply(action)
