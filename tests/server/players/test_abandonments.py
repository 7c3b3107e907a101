"""Abandonment's rules, without a server: the standing of those who left a rated game, the wait
before the next seek, and which seats a Play online table counts as abandoned."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from okgin.rules import preset
from okgin.server.players.abandonments import WAITS, WINDOW, wait_after, wait_words
from okgin.server.players.ratings import places
from okgin.server.rooms.room import Phase, Room, Seat

HOUR = 3600.0


@pytest.mark.parametrize(("winner", "scores", "left", "expected"), [
    (0, [120, 40], set(), [1, 2]),
    (0, [120, 40], {0}, [2, 1]),  # the leaver's stand-in won: the leaver still loses
    (1, [40, 120], {0}, [2, 1]),
    (2, [40, 90, 150, 90], {1}, [3, 4, 1, 2]),
    (2, [40, 90, 150, 90], {2}, [3, 1, 4, 1]),  # the winner left: the best score of those who stayed
    (2, [40, 90, 150, 90], {0, 2}, [3, 1, 3, 1]),  # two leavers share the last place
])
def test_those_who_left_are_placed_last(winner: int, scores: list[int], left: set[int],
                                        expected: list[int]) -> None:
    assert places(winner, scores, left) == expected


@given(st.data())
def test_a_leaver_is_never_placed_above_anyone_who_stayed(data: st.DataObject) -> None:
    seats = data.draw(st.integers(2, 4))
    scores = data.draw(st.lists(st.integers(-200, 300), min_size=seats, max_size=seats))
    winner = data.draw(st.integers(0, seats - 1))
    left = data.draw(st.sets(st.integers(0, seats - 1)))
    placed = places(winner, scores, left)
    stayed = [s for s in range(seats) if s not in left]
    assert all(placed[gone] > placed[s] for gone in left for s in stayed)
    assert len({placed[gone] for gone in left}) <= 1
    if not left:
        assert placed == places(winner, scores)
    else:  # those who stayed keep their order among themselves
        alone = places(winner, scores)
        assert all((alone[s] < alone[t]) <= (placed[s] < placed[t]) for s in stayed for t in stayed
                   if s != winner and t != winner)


@pytest.mark.parametrize(("ago", "expected"), [  # seconds before now of each abandonment
    ([], 0.0),
    ([10.0], 0.0),  # the first in a day: no wait
    ([2 * HOUR, HOUR], 0.0),  # the second, an hour ago: its 2 minutes are over
    ([HOUR, 60.0], 60.0),  # the second, a minute ago: a minute more
    ([20.0, 15.0, 10.0], 590.0),  # the third, 10 s ago: 10 minutes from it
    ([5.0, 4.0, 3.0, 2.0, 1.0], 3599.0),  # a fourth or more: an hour from the latest
    ([WINDOW + 2, WINDOW + 1, 10.0], 0.0),  # older than a day: they no longer count
])
def test_the_wait_grows_with_the_abandonments_of_the_last_day(ago: list[float], expected: float) -> None:
    now = 10 * WINDOW
    assert wait_after([now - a for a in ago], now) == pytest.approx(expected)
    assert WAITS[:3] == (0.0, 0.0, 120.0)


def test_the_wait_in_words() -> None:
    assert wait_words(590.0, 3) == ("You left 3 rated games to a computer player in the last 24 hours: "
                                    "you may play online again in 10 minutes.")
    assert wait_words(30.0, 2).endswith("again in a minute.")


def _table(pool: bool) -> Room:
    room, _ = Room.create(preset("oklahoma"), 3, "Ann")
    room.sit(1, "Ben")
    room.sit(2, "Cy")
    room.phase = Phase.PLAYING
    room.pool = pool
    return room


def test_play_onlines_table_stands_in_for_the_away_and_counts_them_and_leavers() -> None:
    room = _table(pool=True)
    room.seats[1].away_since = 100.0
    assert not room.stand_in_for(1, 100.0 + room.away_grace - 1)  # not yet past the grace
    assert room.stand_in_for(1, 100.0 + room.away_grace)
    assert room.abandoned() == (1,)
    room.leave(2)
    assert room.abandoned() == (1, 2)
    room.seats[1] = Seat("person", "Ben")  # came back: the seat is theirs again
    assert room.abandoned() == (2,)
    assert Room.from_data(room.code, room.version, room.to_data()).pool


def test_a_friends_table_asks_its_host_and_counts_nobody() -> None:
    room = _table(pool=False)
    room.seats[1].away_since = 100.0
    assert not room.stand_in_for(1, 100.0 + 10 * room.away_grace)
    room.leave(2)
    assert room.abandoned() == ()
