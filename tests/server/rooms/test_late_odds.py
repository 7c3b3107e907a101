"""The watchers' odds in the frames (issue 28, item 4): a spectator's state frame carries each
seat's chances as they stood before the hand's last move (worked out again here from that
moment's public view), a player's frame never carries them, and a table whose every hidden card
is changed sends its spectators the same odds at every move."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_odds import hidden_dealt_anew, played

from okgin.advice.odds import watchers_odds
from okgin.hand import Hand
from okgin.match import Match
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.rooms.watchers import Watcher, make_frames
from okgin.view import public_view


def states(hand: Hand, moves: int) -> list[dict[str, Any]]:
    """The states a spectator, seat 0 with the coach and seat 1 are sent (``make_frames``, as
    the server makes them) at ``hand``'s first ``moves`` moves: the spectator's first."""
    room, _ = Room.solo_game(hand.rules, ["normal"])
    room.coach = True
    watchers = [Watcher(lambda frame: None, None), Watcher(lambda frame: None, 0, coach=True),
                Watcher(lambda frame: None, 1)]
    frames, _ = make_frames(room, game_of(hand, moves), watchers, None)
    return [next(f for f in sent if f["type"] == "state") for sent in frames]


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
    assert len(hand.actions) > 6
    for moves in range(len(hand.actions) + 1):
        spectator, *players = states(hand, moves)
        assert all("odds" not in frame for frame in players) and players[0]["coach"] is not None
        odds = spectator["odds"]
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
            assert states(other, moves)[0]["odds"] == odds
