"""A staked table: its stake and prize rule checked, and its pool split as okgin.prizes splits it,
among the people only (a computer player stakes nothing and wins nothing)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_prizes import WORKED

from okgin.bots import make_player
from okgin.match import Match
from okgin.prizes import PrizeRules, penalty_points, split_pool
from okgin.rules import preset
from okgin.runner import play_match
from okgin.server.rooms.room import Phase, Room, RoomError
from okgin.server.rooms.stakes import StakeError, TableStakes, game_penalties, split_among


@pytest.mark.parametrize(("pool", "winner", "penalties", "scaled", "proportional"), WORKED)
def test_a_table_of_people_splits_as_the_worked_examples(
    pool: int, winner: int, penalties: list[int], scaled: tuple[int, ...], proportional: tuple[int, ...],
) -> None:
    seats, scores = list(range(len(penalties))), [0] * len(penalties)
    assert split_among(pool, seats, penalties, scores, winner, PrizeRules()) == dict(enumerate(scaled))
    other = PrizeRules(split="proportional")
    assert split_among(pool, seats, penalties, scores, winner, other) == dict(enumerate(proportional))


def test_with_a_computer_seat_the_peoples_pool_goes_to_the_people() -> None:
    # Seat 2 (a computer) won; the people, 0 and 1, split their 200: seat 0 has the fewest penalty
    # points among them and counts as the winner; seat 1 is 30 behind it.
    assert split_among(200, [0, 1], [10, 40, 0], [20, 10, 150], 2, PrizeRules()) == {0: 180, 1: 20}
    assert split_among(200, [0, 1], [10, 40, 0], [20, 10, 150], 2, PrizeRules()) == dict(
        enumerate(split_pool(200, 0, [10, 40])))
    # docs/rules.md's example: Ruby (seat 2) won; Bob (1) has 80, Ann (0) 84 penalty points.
    assert split_among(200, [0, 1], [84, 80, 37], [-74, -55, -7], 2, PrizeRules()) == {0: 46, 1: 154}
    # Level on penalty points: the higher score counts as the winner.
    assert split_among(200, [0, 1], [10, 10, 0], [20, 40, 150], 2, PrizeRules()) == {0: 50, 1: 150}
    # One person with computer players: their stake comes back whole.
    assert split_among(100, [1], [10, 40, 0], [20, 10, 150], 2, PrizeRules()) == {1: 100}


@given(st.integers(2, 4).flatmap(lambda n: st.tuples(
    st.integers(1, 1000), st.lists(st.integers(0, 300), min_size=n, max_size=n),
    st.lists(st.integers(0, 300), min_size=n, max_size=n), st.integers(0, n - 1),
    st.lists(st.booleans(), min_size=n, max_size=n))))
def test_the_pool_is_always_split_whole_among_the_people_who_staked(case: Any) -> None:
    stake, penalties, scores, winner, people = case
    staked = [seat for seat, person in enumerate(people) if person]
    if not staked:
        return
    shares = split_among(stake * len(staked), staked, penalties, scores, winner, PrizeRules())
    assert sorted(shares) == staked and sum(shares.values()) == stake * len(staked)
    assert all(chips >= 0 for chips in shares.values())


def test_a_games_penalty_points_are_its_hands_summed() -> None:
    rules = preset("oklahoma-multiplayer").replace(players=3, target=40)
    rng = random.Random(5)
    match = play_match([make_player("easy", random.Random(s)) for s in range(3)], Match(rules), rng)
    assert match.over
    expected = [0, 0, 0]
    for hand in match.hands:
        assert hand.result is not None
        for seat, points in enumerate(penalty_points(hand.result, rules.undercut_penalty)):
            expected[seat] += points
    assert game_penalties(match) == tuple(expected) and sum(expected) > 0


@pytest.mark.parametrize(("fields", "message"), [
    ((-5,), "the stake is a whole number of chips from 0 to 1000, not -5"),
    ((2.5,), "the stake is a whole number of chips from 0 to 1000, not 2.5"),
    (("50",), "the stake is a whole number of chips from 0 to 1000, not '50'"),
    ((True,), "the stake is a whole number of chips from 0 to 1000, not True"),
    ((1001,), "the stake is a whole number of chips from 0 to 1000, not 1001"),
    ((50, "even"), "the split is \"scaled\" or \"proportional\", not 'even'"),
    ((50, "scaled", 0), "the cutoff is a whole number of penalty points from 1 to 500, not 0"),
])
def test_a_bad_stake_or_prize_rule_is_refused_saying_why(fields: tuple[Any, ...], message: str) -> None:
    with pytest.raises(StakeError) as refused:
        TableStakes.read(*fields)
    assert str(refused.value) == message


def test_only_the_host_sets_the_stake_and_only_in_the_lobby() -> None:
    room, _ = Room.create(preset("oklahoma"), 3, "Ann")
    room.sit(1, "Bob")
    stakes = TableStakes.read(50, "proportional", 40)
    for by, message in ((1, "only the host can do that"), (None, "only the host can do that")):
        with pytest.raises(RoomError, match=message):
            room.set_stakes(by, stakes)
    assert room.stakes == TableStakes()
    room.set_stakes(0, stakes)
    assert room.public(1)["stake"] == 50 and room.public(1)["split"] == "proportional"
    assert Room.from_data(room.code, 0, room.to_data()).stakes == stakes
    room.phase = Phase.PLAYING
    with pytest.raises(RoomError, match="the stake is set in the lobby"):
        room.set_stakes(0, TableStakes())
    assert room.stakes == stakes
    solo, _ = Room.solo_game(preset("oklahoma"), ["easy"])
    with pytest.raises(RoomError, match="a game against the computer has no stake"):
        solo.set_stakes(0, stakes)


def test_the_people_seated_when_a_game_begins_stake_it() -> None:
    room, _ = Room.create(preset("oklahoma"), 3, "Ann")
    room.sit(1, "Bob")
    room.set_computer(0, 2, "easy", 0.0)
    room.start(0, "g1")
    assert room.staked == []  # no stake: nobody stakes
    staked, _ = Room.create(preset("oklahoma"), 3, "Ann")
    staked.sit(1, "Bob")
    staked.set_computer(0, 2, "easy", 0.0)
    staked.set_stakes(0, TableStakes.read(10))
    staked.start(0, "g1")
    assert staked.staked == [0, 1]
