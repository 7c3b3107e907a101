"""004's prize pool: the worked examples of docs/rules.md and the split's properties."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import okgin.prizes
from okgin.prizes import PrizeError, PrizeRules, split_by_standing, split_pool

PROPORTIONAL = PrizeRules(split="proportional")


WORKED = [
    # Two players: the loser's part of the 25% shrinks with the gap; a tie keeps all of it.
    (100, 0, [0, 30], (90, 10), (75, 25)),
    (100, 0, [12, 12], (75, 25), (75, 25)),
    (100, 0, [5, 70], (100, 0), (100, 0)),
    # Three players: a tie between the others splits evenly; odd chips go to the winner.
    (300, 0, [10, 10, 35], (245, 37, 18), (225, 50, 25)),
    (300, 0, [0, 20, 20], (256, 22, 22), (226, 37, 37)),
    (300, 0, [0, 60, 80], (300, 0, 0), (300, 0, 0)),
    # A single survivor within 50 of the winner.
    (300, 2, [40, 90, 0], (7, 0, 293), (75, 0, 225)),
    # Four players.
    (400, 0, [0, 10, 25, 49], (358, 26, 16, 0), (302, 60, 37, 1)),
    (400, 1, [20, 0, 20, 80], (20, 360, 20, 0), (50, 300, 50, 0)),
    (400, 0, [0, 50, 60, 200], (400, 0, 0, 0), (400, 0, 0, 0)),
    (400, 3, [90, 5, 55, 4], (0, 32, 0, 368), (0, 100, 0, 300)),
]
"""docs/rules.md's worked examples: (pool, winner, penalty points, scaled, proportional);
tests/server/rooms/test_stakes.py plays them at a staked table too."""


@pytest.mark.parametrize(("pool", "winner", "penalties", "scaled", "proportional"), WORKED)
def test_worked_examples(pool, winner, penalties, scaled, proportional):
    assert split_pool(pool, winner, penalties) == scaled
    assert split_pool(pool, winner, penalties, PROPORTIONAL) == proportional


def test_a_player_with_fewer_penalty_points_than_the_winner_counts_as_level_with_them():
    assert split_pool(100, 0, [30, 10]) == split_pool(100, 0, [30, 30]) == (75, 25)


def test_the_doctest():
    assert doctest.testmod(okgin.prizes).failed == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((-1, 0, [0, 0]), "the pool is -1 chips, expected a whole number of 0 or more"),
        ((10, 0, [0]), "a pool is split between 2 or more players, not 1"),
        ((10, 2, [0, 0]), "the winner is 2, expected a player from 0 to 1"),
        ((10, 0, [0, -3]), "player 1 has -3 penalty points, expected 0 or more"),
        ((10.5, 0, [0, 0]), "the pool is 10.5 chips"),
    ],
)
def test_bad_input_is_refused_with_what_was_wrong(args, message):
    with pytest.raises(PrizeError, match=message.replace("(", r"\(")):
        split_pool(*args)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"winner_percent": 101}, "winner_percent is 101, expected 0 to 100"),
        ({"cutoff": 0}, "cutoff is 0, expected a whole number of 1 or more"),
        ({"split": "even"}, "split is 'even', expected \"scaled\" or \"proportional\""),
    ],
)
def test_bad_prize_rules_are_refused(fields, message):
    with pytest.raises(PrizeError, match=message):
        PrizeRules(**fields)


games = st.integers(2, 4).flatmap(
    lambda n: st.tuples(
        st.integers(0, 10_000),
        st.integers(0, n - 1),
        st.lists(st.integers(0, 300), min_size=n, max_size=n),
        st.sampled_from([PrizeRules(), PROPORTIONAL, PrizeRules(winner_percent=60, cutoff=30)]),
    )
)


@given(games)
def test_whole_chips_none_created_or_lost_and_the_winner_has_their_share(game):
    pool, winner, penalties, rules = game
    chips = split_pool(pool, winner, penalties, rules)
    assert sum(chips) == pool and all(c >= 0 for c in chips)
    assert 100 * chips[winner] >= rules.winner_percent * pool
    assert chips[winner] == max(chips)


@given(games)
def test_no_chip_to_anyone_at_or_beyond_the_cutoff(game):
    pool, winner, penalties, rules = game
    chips = split_pool(pool, winner, penalties, rules)
    for i, points in enumerate(penalties):
        if i != winner and points - penalties[winner] >= rules.cutoff:
            assert chips[i] == 0


@given(games)
def test_fewer_penalty_points_never_earn_fewer_chips(game):
    pool, winner, penalties, rules = game
    chips = split_pool(pool, winner, penalties, rules)
    others = [i for i in range(len(penalties)) if i != winner]
    for a in others:
        for b in others:
            if penalties[a] <= penalties[b]:
                assert chips[a] >= chips[b]
            if penalties[a] == penalties[b]:
                assert chips[a] == chips[b]


@given(games, st.integers(1, 60))
def test_more_penalty_points_never_earn_a_player_more(game, extra):
    pool, winner, penalties, rules = game
    loser = (winner + 1) % len(penalties)
    worse = list(penalties)
    worse[loser] += extra
    assert split_pool(pool, winner, worse, rules)[loser] <= split_pool(pool, winner, penalties, rules)[loser]


# -- a tournament's pool, by standing (docs/rules.md, "A tournament's pool") ---------------


@pytest.mark.parametrize(
    ("pool", "penalties", "played", "scaled", "proportional"),
    [
        # a knockout of 8 at tables of 2: champion, runner-up, semi-finals, round 1
        (800, [12, 60, 30, 48, 20, 35, 70, 9], [3, 3, 2, 2, 1, 1, 1, 1],
         (718, 19, 19, 17, 17, 10, 0, 0), (603, 46, 46, 40, 40, 25, 0, 0)),
        # a Swiss of 6 at tables of 3, three rounds
        (600, [30, 45, 90, 60, 150, 120], [3] * 6, (525, 27, 18, 18, 6, 6), (450, 54, 36, 36, 12, 12)),
    ],
)
def test_a_tournaments_worked_examples(pool, penalties, played, scaled, proportional):
    assert split_by_standing(pool, penalties, played) == scaled
    assert split_by_standing(pool, penalties, played, PrizeRules(split="proportional")) == proportional


def test_the_audited_knockout_pays_the_runner_up_no_less_than_the_third():
    # failed before (summed penalty points, as split_pool): the runner-up 15, the third 7
    assert split_pool(100, 0, [0, 15, 7, 7]) == (81, 5, 7, 7)
    assert split_by_standing(100, [0, 15, 7, 7], [2, 2, 1, 1]) == (79, 7, 7, 7)


standings = st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.integers(0, 2000), st.lists(st.integers(0, 300), min_size=n, max_size=n),
    st.lists(st.integers(0, 6), min_size=n, max_size=n),
    st.builds(PrizeRules, st.integers(0, 100), st.integers(1, 120),
              st.sampled_from(["scaled", "proportional"]))))


@given(standings)
def test_a_tournaments_pool_is_whole_the_winners_share_kept_and_no_place_paid_more_than_above(event):
    pool, penalties, played, rules = event
    chips = split_by_standing(pool, penalties, played, rules)
    assert sum(chips) == pool and min(chips) >= 0
    assert chips[0] * 100 >= rules.winner_percent * pool
    assert list(chips[1:]) == sorted(chips[1:], reverse=True)
    if rules.winner_percent >= 50:
        assert chips[0] >= max(chips[1:])


def test_a_tournaments_bad_matches_played_are_refused():
    with pytest.raises(PrizeError, match="matches played"):
        split_by_standing(100, [0, 1], [1])
