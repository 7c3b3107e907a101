"""The watchers' odds in the frames (issue 28, item 4): a spectator's state frame carries each
seat's chances as they stood before the hand's last move (worked out again here from that
moment's public view), a player's frame never carries them, and a table whose every hidden card
is changed sends its spectators the same odds at every move."""

from __future__ import annotations

import random

import pytest
from test_odds import hidden_dealt_anew, played

from okgin.advice.odds import watchers_odds
from okgin.hand import Hand
from okgin.match import Match
from okgin.server.rooms.games import Game
from okgin.view import public_view

KEYS = [(None, False), (0, False), (0, True), (1, False)]


def game_of(hand: Hand, moves: int) -> Game:
    """A game whose first hand is ``hand``'s deal with its first ``moves`` moves made."""
    match = Match(hand.rules, first_dealer=hand.dealer)
    match.start_hand(hand.deal)
    for action in hand.actions[:moves]:
        match.apply(action)
    return Game("watched", match)


@pytest.mark.slow
def test_spectators_get_the_odds_a_move_late_and_players_never() -> None:
    seed = 3
    hand = played("oklahoma", seed, 400)
    other = hidden_dealt_anew(played("oklahoma", seed, len(hand.actions) - 1), random.Random(seed))
    names, levels = ["Ann", "Bob"], [None, None]
    assert len(hand.actions) > 6
    for moves in range(len(hand.actions) + 1):
        frames = game_of(hand, moves).frames(KEYS, names, levels)
        assert all("odds" not in frames[key] for key in KEYS[1:])
        odds = frames[None, False]["odds"]
        if moves == 0:
            assert odds is None
            continue
        before = Hand(hand.rules, hand.dealer, hand.deal)
        for action in hand.actions[:moves - 1]:
            before.apply(action)
        expected = watchers_odds(public_view(before), (0, 0))
        assert expected is not None and odds["moves"] == moves - 1 and odds["hand_number"] == 1
        assert odds["hand"] == [round(p, 3) for p in expected.hand]
        assert odds["match"] == [round(p, 3) for p in expected.match]
        if moves < len(hand.actions):  # the table with every hidden card changed: the same odds
            assert game_of(other, moves).frames(KEYS[:1], names, levels)[None, False]["odds"] == odds
