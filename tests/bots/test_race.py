"""The race to the target (``bots/race.py``) and `hard` playing for it at three seats."""

from __future__ import annotations

import dataclasses
import random
from functools import cache

import pytest
from deals import deal, play

from okgin.actions import Discard, Knock, parse_action
from okgin.advice.suggest import trusted
from okgin.advice.worlds import Worlds
from okgin.bots import make_player
from okgin.bots.knock_search import KnockSearchPlayer
from okgin.bots.race import MatchWorth, gains_of, win_chances
from okgin.bots.rollout import utility
from okgin.rules import Rules, preset
from okgin.view import SeatView, seat_view

MULTI = preset("oklahoma-multiplayer")
GAINS = gains_of(MULTI)


def _by_hands(needs: tuple[int, ...], gains: tuple[tuple[int, float], ...]) -> tuple[float, ...]:
    """The same race played hand by hand: each hand a seat picked at random wins a gain."""

    @cache
    def chances(state: tuple[int, ...]) -> tuple[float, ...]:
        total = [0.0] * len(state)
        for seat in range(len(state)):
            for points, share in gains:
                weight = share / len(state)
                left = state[seat] - points
                if left <= 0:
                    total[seat] += weight
                    continue
                after = chances((*state[:seat], left, *state[seat + 1:]))
                total = [t + weight * a for t, a in zip(total, after, strict=True)]
        return tuple(total)

    return chances(needs)


@pytest.mark.parametrize("needs", [(30, 20, 45), (100, 55, 10), (25, 60, 40, 35), (10, 10)])
def test_the_race_equals_playing_it_hand_by_hand(needs: tuple[int, ...]) -> None:
    assert win_chances(needs, GAINS) == pytest.approx(_by_hands(needs, GAINS), abs=1e-9)


def test_equal_needs_give_equal_chances_and_a_seat_with_none_has_won() -> None:
    assert win_chances((100, 100, 100, 100), GAINS) == pytest.approx((0.25,) * 4)
    assert win_chances((40, 0, 5), GAINS) == (0.0, 1.0, 0.0)
    # One won hand away against ten: near certain, not certain.
    assert 0.95 < win_chances((5, 100, 100), GAINS)[0] < 1.0


def test_the_gains_are_the_rules_bonuses_that_move_a_seat_toward_the_target() -> None:
    assert GAINS == ((10, 0.6), (20, 0.2), (25, 0.2))
    old_004 = dataclasses.replace(preset("oklahoma-reshuffle"), knock_bonus=0)
    assert [points for points, _ in gains_of(old_004)] == [25, 25]


def _opening(rules: Rules, won: tuple[int, ...]) -> SeatView:
    """Seat 0's first discard at a three-seat table (dealer 2), with ``won`` on the sheet."""
    hands = ["4C 3D 2H 7S 8S 9S TS", "KC KD QH 5C 6H 2D 9D", "AH 3H 4H TC JC QC 8D"]
    hand = play(rules, 2, deal(hands, "JD", "JS"), ["0 pass", "1 pass", "2 pass", "0 draw"])
    return seat_view(hand, 0, won, won)


def test_the_worth_is_the_points_under_difference_scoring_and_add_the_match_under_penalty() -> None:
    points = (10, -14, -3)
    plain = MatchWorth(_opening(dataclasses.replace(MULTI, scoring="difference"), (0, 0, 0)))
    assert plain.value(points) == utility(points, 0)
    assert plain.feed_weight(1) == 1.0
    racing = MatchWorth(_opening(MULTI, (80, 0, 0)))
    # The knock's 10 points take seat 0 from needing 20 to needing 10.
    assert racing.chance(points) == pytest.approx(win_chances((10, 100, 100), GAINS)[0])
    now = win_chances((20, 100, 100), GAINS)[0]
    assert racing.value(points) == pytest.approx(utility(points, 0) + 400 * (racing.chance(points) - now))
    assert racing.value((0, 0, 0)) == 0.0


def test_the_seat_near_the_target_weighs_more_when_it_is_the_one_fed() -> None:
    view = _opening(MULTI, (70, 90, 0))
    worth = MatchWorth(view)
    assert worth.feed_weight(1) > 2 > 1 > worth.feed_weight(2)
    assert MatchWorth(_opening(MULTI, (0, 0, 0))).feed_weight(1) == pytest.approx(1.0)


def _hard(view: SeatView, seed: int) -> str:
    return str(make_player("hard", random.Random(seed)).act(view))


@pytest.mark.parametrize("seed", [1, 2])
def test_hard_knocks_early_when_a_seat_is_one_hand_from_the_target(seed: int) -> None:
    """Deadwood 5 (the 3♦ and 2♥) under a limit of 10, the stock at 29: at a fresh table
    `hard` plays on for a better hand; with a seat 95 points along, whose next won hand
    ends the match, it knocks at once."""
    fresh = _opening(MULTI, (0, 0, 0))
    assert any(isinstance(a, Knock) for a in fresh.legal)
    assert _hard(fresh, seed) == "0 discard 4C"
    for won in ((0, 95, 0), (0, 0, 95)):
        assert _hard(_opening(MULTI, won), seed) == "0 knock 4C"


def _feeding(won: tuple[int, ...]) -> SeatView:
    """Seat 1 took the 7♥ and then the 8♥ from the pile (its run 5♥ 6♥ 7♥ 8♥, the two
    taken cards seen by all); seat 0 has just drawn the 9♥, which extends that run."""
    hands = ["9S TS JS QS 7H 8H 3D", "5H 6H KC KD QC JD 2S", "AH 3H 8S TC JC 4C 4D"]
    actions = [
        "1 pass", "2 pass", "0 pass", "1 draw", "1 discard KC", "2 draw", "2 discard JC",
        "0 draw", "0 discard 7H", "1 take", "1 discard KD", "2 draw", "2 discard TC",
        "0 draw", "0 discard 8H", "1 take", "1 discard QC", "2 draw", "2 discard 8S", "0 draw",
    ]
    hand = play(MULTI, 0, deal(hands, "2C", "5D 6D AC 7D 2D 6S 9H"), actions)
    return seat_view(hand, 0, won, won)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_knock_search_keeps_the_card_the_next_seat_needs_when_that_seat_is_nearest(seed: int) -> None:
    """The 9♥ is the throw that saves most deadwood. At a fresh table, and when the seat
    nearest the target is the one after next (which cannot take it), the knock search throws
    it; when the next seat is 10 points from winning the match, it keeps it and throws the 3♦.
    `hard` searches these close discards on top (its play-outs see seat 1 take the 9♥ to its
    run) and keeps the 9♥ at every table, throwing the A♣."""
    def knock_search(won: tuple[int, ...]) -> str:
        return str(KnockSearchPlayer(random.Random(seed)).act(_feeding(won)))

    assert knock_search((0, 0, 0)) == "0 discard 9H"
    assert knock_search((70, 0, 90)) == "0 discard 9H"
    assert knock_search((70, 90, 0)) == "0 discard 3D"
    for won in ((0, 0, 0), (70, 0, 90), (70, 90, 0)):
        chosen = make_player("hard", random.Random(seed)).act(_feeding(won))
        assert isinstance(chosen, Discard) and chosen == parse_action("0 discard AC")


def test_the_coach_trusts_the_knock_searchs_discard_near_the_target() -> None:
    """The coach's benefit of the doubt goes to the knock search's own discard, judged by its own
    function (its horizon and its feed weight): the 9♥ at a fresh table, the 3♦ when the
    next seat is 10 points from winning the match."""
    for won, card in (((0, 0, 0), "9H"), ((70, 90, 0), "3D")):
        view = _feeding(won)
        assert parse_action(f"0 discard {card}") in trusted(view, Worlds(view))
