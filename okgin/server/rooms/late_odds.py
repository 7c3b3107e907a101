"""The watchers' odds in a spectator's frames, a move late (as on television).

A spectator's state frame carries ``odds``: each seat's chance to win the hand and the game
(``okgin.advice.odds``, worked out from the public view alone) as they stood before the hand's
last move, so they tell nobody what the table is about to do. ``watchers.make_frames`` adds
them to the spectators' states; a player's frame never carries them. The odds of a moment are
worked out once per game object (on the worker thread that makes the frames) and kept until the
table moves on.
"""

from __future__ import annotations

from typing import Any

from okgin.advice.odds import watchers_odds
from okgin.hand import Hand
from okgin.match import Match
from okgin.view import public_view


class LateOdds:
    """The odds a move late for one game, kept for the moment they were last asked for."""

    def __init__(self) -> None:
        self._kept: tuple[tuple[int, int], dict[str, Any] | None] | None = None

    def frame(self, match: Match) -> dict[str, Any] | None:
        """The odds before the last move of ``match``'s latest hand (None at its deal, or
        where that moment had nobody to act: a reshuffle)."""
        hand = match.hands[-1]
        done = len(hand.actions)
        if done == 0:
            return None
        moment = (len(match.hands), done - 1)
        if self._kept is None or self._kept[0] != moment:
            self._kept = (moment, _odds_before_last(match, hand, moment))
        return self._kept[1]


def _odds_before_last(match: Match, hand: Hand, moment: tuple[int, int]) -> dict[str, Any] | None:
    before = Hand(hand.rules, hand.dealer, hand.deal)
    for action in hand.actions[:-1]:
        before.apply(action)
    totals, won = match.totals, match.won
    if hand.result is not None:  # the last move ended the hand: its points were not there before it
        points = hand.result.points
        totals = tuple(total - gained for total, gained in zip(totals, points, strict=True))
        won = tuple(total - max(gained, 0) for total, gained in zip(won, points, strict=True))
    odds = watchers_odds(public_view(before, totals), won)
    if odds is None:
        return None
    return {"hand_number": moment[0], "moves": moment[1], "hand": [round(p, 3) for p in odds.hand],
            "void": round(odds.void, 3), "match": [round(p, 3) for p in odds.match]}
