"""The pairing rules: the window widens with the wait up to its widest, a pairing is accepted
only within both seekers' windows, and the tables formed seat each seeker at most once, with
the right seats and rules, every pair within its windows (hypothesis over random pools)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from okgin.server.pool.seekers import Seeker
from okgin.server.pool.window import WINDOW_GROWTH, WINDOW_MAX, WINDOW_START, compatible, tables, window

NOW = 1_000_000.0


def seeker(number: int, rating: int, waited: float = 0.0, preset: str = "oklahoma", seats: int = 2,
           player: str | None = None) -> Seeker:
    return Seeker(f"s{number}", player or f"p{number}", f"Player {number}", preset, seats, rating,
                  NOW - waited, NOW + 10)


def test_the_window_starts_narrow_and_widens_with_the_wait_to_its_widest() -> None:
    assert window(0) == WINDOW_START == 100
    assert window(5) == WINDOW_START + 5 * WINDOW_GROWTH == 200
    assert window(30) == 700
    assert window(45) == window(600) == WINDOW_MAX == 1000
    widths = [window(seconds / 2) for seconds in range(200)]
    assert widths == sorted(widths)


def test_a_pairing_needs_both_windows_the_same_choice_and_two_players() -> None:
    fresh, patient = seeker(1, 1500), seeker(2, 1750, waited=30)
    assert not compatible(fresh, patient, NOW)  # 250 apart: within the patient's 700, not the fresh one's 100
    assert compatible(seeker(3, 1500, waited=10), patient, NOW)  # 300 within 300 and 700
    assert compatible(seeker(4, 1600), seeker(5, 1500), NOW)
    assert not compatible(seeker(6, 1500), seeker(7, 1500, preset="gin"), NOW)
    assert not compatible(seeker(8, 1500, seats=3, preset="oklahoma-multiplayer"),
                          seeker(9, 1500, seats=4, preset="oklahoma-multiplayer"), NOW)
    assert not compatible(seeker(10, 1500, player="same"), seeker(11, 1500, player="same"), NOW)


def test_a_lone_outlier_waits_while_the_others_are_seated_and_is_paired_once_the_window_grows() -> None:
    pool = [seeker(1, 1500), seeker(2, 1520), seeker(3, 1900)]
    assert [[s.id for s in t] for t in tables(pool, NOW)] == [["s1", "s2"]]
    later = [seeker(3, 1900, waited=20), seeker(4, 1500, waited=20)]
    assert [sorted(s.id for s in t) for t in tables(later, NOW)] == [["s3", "s4"]]


def test_a_three_seat_table_waits_for_three_who_all_accept_each_other() -> None:
    three = [seeker(i, 1500 + 40 * i, preset="oklahoma-multiplayer", seats=3) for i in range(3)]
    assert tables(three[:2], NOW) == []
    assert [len(t) for t in tables(three, NOW)] == [3]
    apart = [seeker(0, 1400, preset="oklahoma-multiplayer", seats=3, waited=1),
             seeker(1, 1500, preset="oklahoma-multiplayer", seats=3, waited=10),
             seeker(2, 1600, preset="oklahoma-multiplayer", seats=3, waited=1)]
    assert tables(apart, NOW) == []  # 1400 and 1600 are 200 apart, beyond each other's 120


def test_a_predicate_given_to_tables_decides_every_pairing() -> None:
    pool = [seeker(1, 1500), seeker(2, 1500), seeker(3, 1500), seeker(4, 1500)]
    blocked = {("p1", "p2"), ("p2", "p1")}
    def unblocked(a: Seeker, b: Seeker, now: float) -> bool:
        return (a.player, b.player) not in blocked and compatible(a, b, now)

    tabled = tables(pool, NOW, unblocked)
    assert all({s.player for s in t} != {"p1", "p2"} for t in tabled) and len(tabled) == 2


CHOICES = [("oklahoma", 2), ("gin", 2), ("oklahoma-multiplayer", 3), ("oklahoma-multiplayer", 4)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(CHOICES) - 1), st.integers(900, 2300), st.floats(0, 60),
                          st.integers(0, 30)), max_size=60))
def test_tables_seat_each_seeker_once_at_a_full_table_of_their_choice_within_every_window(
        drawn: list[tuple[int, int, float, int]]) -> None:
    pool = [seeker(i, rating, waited, CHOICES[c][0], CHOICES[c][1], player=f"p{who}")
            for i, (c, rating, waited, who) in enumerate(drawn)]
    seated = [s.id for table in tables(pool, NOW) for s in table]
    assert len(seated) == len(set(seated))
    for table in tables(pool, NOW):
        assert len(table) == table[0].seats
        assert len({(s.preset, s.seats) for s in table}) == 1
        assert len({s.player for s in table}) == len(table)
        for a in table:
            for b in table:
                if a is not b:
                    assert abs(a.rating - b.rating) <= min(window(a.waited(NOW)), window(b.waited(NOW)))
    left = [s for s in pool if s.id not in set(seated)]
    for kind in {(s.preset, s.seats) for s in left}:  # nobody left could have made a table of two
        same = [s for s in left if (s.preset, s.seats) == kind]
        if kind[1] == 2:
            assert not any(compatible(a, b, NOW) for a in same for b in same if a is not b)



def test_a_bot_sits_only_with_people_who_allow_bots_and_never_with_another_bot() -> None:
    bot, other_bot = replace(seeker(1, 1500), bot=True), replace(seeker(2, 1500), bot=True)
    refuses, allows = seeker(3, 1500), replace(seeker(4, 1500), bots=True)
    assert not compatible(bot, refuses, NOW) and not compatible(refuses, bot, NOW)
    assert compatible(bot, allows, NOW) and compatible(allows, bot, NOW)
    assert not compatible(bot, other_bot, NOW)
    assert not compatible(bot, replace(other_bot, bots=True), NOW)  # a bot's "bots" changes nothing
    assert compatible(refuses, allows, NOW)  # between people the setting is not asked
    assert tables([bot, other_bot, refuses], NOW) == []
    assert tables([bot, refuses, allows], NOW) == [[bot, allows]]


def test_a_table_of_three_seats_holds_at_most_one_bot() -> None:
    bots = [replace(seeker(n, 1500, preset="oklahoma-multiplayer", seats=3), bot=True) for n in range(3)]
    people = [replace(seeker(n, 1500, preset="oklahoma-multiplayer", seats=3), bots=True) for n in (5, 6)]
    found = tables([*bots, *people], NOW)
    assert len(found) == 1 and sum(s.bot for s in found[0]) == 1 and len(found[0]) == 3
