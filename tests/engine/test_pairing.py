"""Pairings: Swiss, knockout and round robin at tables of 2 to 4, and the standings."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okgin.pairing import (
    PairingError,
    Round,
    TableResult,
    knockout_round,
    knockout_rounds,
    met,
    round_robin,
    standings,
    swiss_round,
    table_sizes,
)

tables = st.integers(2, 4)


def assert_a_round(r: Round, entrants: list[int], table: int) -> None:
    """Everyone once, at one table or on a bye; every table of 2 to ``table``."""
    assert sorted(r.seated) == sorted(entrants)
    assert all(2 <= len(t) <= table for t in r.tables)


def rematches(r: Round, seen: set[frozenset[int]]) -> int:
    return sum(frozenset(p) in seen for t in r.tables for p in itertools.combinations(t, 2))


def fewest_rematches(playing: list[int], sizes: list[int], seen: set[frozenset[int]]) -> int:
    """Brute force: the fewest rematches of any partition of ``playing`` into tables of
    ``sizes`` (in any order: the short table may seat anyone)."""
    if not playing:
        return 0
    first, rest = playing[0], playing[1:]
    best = 10**9
    for size in set(sizes):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for combo in itertools.combinations(rest, size - 1):
            cost = sum(frozenset(p) in seen for p in itertools.combinations((first, *combo), 2))
            left = [e for e in rest if e not in combo]
            best = min(best, cost + fewest_rematches(left, left_sizes, seen))
    return best


def pairs_met(*tables: tuple[int, ...]) -> list[Round]:
    """A history in which exactly the pairs of ``tables`` have met."""
    return [Round((t,)) for t in tables]


# -- Swiss -----------------------------------------------------------------------------------


def test_a_first_round_seats_the_standings_in_order():
    assert swiss_round(list(range(8)), 2) == Round(((0, 1), (2, 3), (4, 5), (6, 7)))
    assert swiss_round(list(range(10)), 3) == Round(((0, 1, 2), (3, 4, 5), (6, 7, 8)), (9,))
    assert swiss_round(list(range(7)), 4) == Round(((0, 1, 2, 3), (4, 5, 6)))


def test_the_next_below_is_skipped_to_avoid_a_rematch():
    history = [Round(((0, 1), (2, 3)))]
    assert swiss_round([0, 1, 2, 3], 2, history) == Round(((0, 2), (1, 3)))


def test_a_rematch_only_when_every_other_pairing_has_one():
    # Three rounds of four: every pair has met, so the next round is the standings in order.
    history = round_robin([0, 1, 2, 3], 2)
    assert swiss_round([3, 2, 1, 0], 2, history) == Round(((3, 2), (1, 0)))


def test_the_top_seed_may_sit_at_the_short_table_to_avoid_a_rematch():
    # 5 at tables of 3: 0 has met 1, 2 and 3, so only (0, 4) and (1, 2, 3) avoid a rematch;
    # the seed at a table of 3 always met someone again.
    history = pairs_met((0, 1), (0, 2), (0, 3))
    r = swiss_round([0, 1, 2, 3, 4], 3, history)
    assert rematches(r, met(history)) == 0
    assert sorted(map(len, r.tables)) == [2, 3]


def test_seven_at_tables_of_four_seat_the_short_table_high():
    # 0 has met 1, 2, 3 and 4 has met 5: (0, 4, 6) (1, 2, 3, 5) has no rematch; every
    # seating with 0 at the table of 4 has one.
    history = pairs_met((0, 1), (0, 2), (0, 3), (4, 5))
    r = swiss_round(list(range(7)), 4, history)
    assert rematches(r, met(history)) == 0


def test_the_bye_goes_to_the_lowest_who_has_not_had_one():
    assert swiss_round([0, 1, 2], 2, [Round(((0, 1),), (2,))]).byes == (1,)
    everyone = [Round((), (0,)), Round((), (1,)), Round((), (2,))]
    assert swiss_round([0, 1, 2], 2, everyone).byes == (2,)


@settings(max_examples=80, deadline=None)
@given(st.data(), tables, st.integers(2, 12), st.integers(0, 5))
def test_swiss_rounds_seat_everyone_once_and_rematch_only_when_unavoidable(data, table, n, played):
    # Against the brute force over every partition into the round's table sizes.
    entrants = list(range(n))
    history: list[Round] = []
    for _ in range(played):
        ranking = data.draw(st.permutations(entrants))
        history.append(swiss_round(ranking, table, history))
    ranking = data.draw(st.permutations(entrants))
    r = swiss_round(ranking, table, history)
    assert_a_round(r, entrants, table)
    sizes, byes = table_sizes(n, table)
    assert sorted(map(len, r.tables)) == sorted(sizes) and len(r.byes) == byes
    playing = [e for e in ranking if e not in r.byes]
    assert rematches(r, met(history)) == fewest_rematches(playing, sizes, met(history))


@settings(max_examples=40, deadline=None)
@given(st.data(), tables, st.integers(2, 12), st.integers(1, 8))
def test_swiss_byes_go_to_the_lowest_without_one(data, table, n, rounds):
    entrants = list(range(n))
    history: list[Round] = []
    for _ in range(rounds):
        ranking = data.draw(st.permutations(entrants))
        r = swiss_round(ranking, table, history)
        had = Counter(e for past in history for e in past.byes)
        for bye in r.byes:
            fewer = [e for e in entrants if had[e] < had[bye]]
            assert not fewer, f"{bye} has another bye while {fewer} had fewer"
            below = ranking[ranking.index(bye) + 1:]
            assert all(had[e] > had[bye] for e in below), "the lowest of those with the fewest"
        history.append(r)


def test_a_large_swiss_too_long_to_search_is_repaired_to_no_rematch():
    # Standings that barely move seat the same neighbours together: the search runs out of
    # tries from the third round on, and the swaps find rounds without a rematch.
    entrants = list(range(64))
    history: list[Round] = []
    for number in range(6):
        ranking = entrants[number:] + entrants[:number]
        history.append(swiss_round(ranking, 4, history))
    assert all(rematches(r, met(history[:i])) == 0 for i, r in enumerate(history))


# -- knockout --------------------------------------------------------------------------------


def test_a_knockout_of_five_gives_the_top_three_byes():
    assert knockout_round([0, 1, 2, 3, 4], 2) == Round(((3, 4),), (0, 1, 2))
    assert knockout_round(list(range(8)), 2) == Round(((0, 7), (1, 6), (2, 5), (3, 4)))


@settings(max_examples=80, deadline=None)
@given(tables, st.integers(2, 70), st.randoms(use_true_random=False))
def test_a_knockout_of_any_size_ends_with_one_winner(table, n, rng):
    alive = list(range(n))
    rounds = 0
    while len(alive) > 1:
        r = knockout_round(alive, table)
        assert_a_round(r, alive, table)
        if rounds:
            assert not r.byes, "byes only in the first round"
        else:
            assert list(r.byes) == alive[: len(r.byes)], "byes go to the top seeds"
        winners = {rng.choice(t) for t in r.tables}
        through = [e for e in alive if e in winners or e in r.byes]
        assert len(through) == 1 or any(table**k == len(through) for k in range(1, 8))
        alive = through
        rounds += 1
    assert rounds == knockout_rounds(n, table)


# -- round robin -----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(tables, st.integers(2, 13))
def test_a_round_robin_seats_every_pair_together(table, n):
    entrants = list(range(n))
    rounds = round_robin(entrants, table)
    for r in rounds:
        assert_a_round(r, entrants, table)
    assert met(rounds) == {frozenset(p) for p in itertools.combinations(entrants, 2)}
    byes = Counter(e for r in rounds for e in r.byes)
    assert max(byes[e] for e in entrants) - min(byes[e] for e in entrants) <= 1, "byes in turn"
    if table == 2:
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        together = Counter(frozenset(t) for r in rounds for t in r.tables)
        assert set(together.values()) == {1}


# -- standings and errors --------------------------------------------------------------------


def test_standings_by_score_then_buchholz_then_points_difference():
    results = [
        TableResult((0, 1), (100, 40)),
        TableResult((2, 3), (100, 90)),
        TableResult((0, 2), (100, 70)),
        TableResult((3, 1), (100, 20)),
    ]
    rows = standings([0, 1, 2, 3], results)
    assert [s.entrant for s in rows] == [0, 2, 3, 1]
    # 2 and 3 have one win each; 2 met 3 and 0 (2 wins): Buchholz 3; 3 met 2 and 1: 1.
    assert (rows[1].score, rows[1].buchholz, rows[2].buchholz) == (1, 3, 1)
    three = standings([0, 1, 2], [TableResult((2, 0, 1), (100, 50, 20))], byes=[1])
    # 2 (a win) and 1 (a bye, then last) have 1 each and Buchholz 3/2: 2's difference is higher.
    assert [(s.entrant, s.score) for s in three] == [(2, 1), (1, 1), (0, Fraction(1, 2))]
    assert (three[0].buchholz, three[1].buchholz) == (Fraction(3, 2), Fraction(3, 2))
    assert (three[0].difference, three[1].difference) == (100 - 35, 20 - 75)


def test_equal_scores_and_buchholz_fall_to_points_difference():
    rows = standings([0, 1, 2, 3], [TableResult((0, 1), (100, 90)), TableResult((2, 3), (100, 10))])
    assert [s.entrant for s in rows] == [2, 0, 1, 3]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: swiss_round([0, 1, 2], 5), "a table seats 2 to 4 players, not 5"),
        (lambda: swiss_round([0], 2), "1 entrants: a round needs at least 2"),
        (lambda: knockout_round([0, 0, 1], 2), "an entrant is named twice"),
        (lambda: round_robin([0, 1], 1), "a table seats 2 to 4 players, not 1"),
        (lambda: standings([0, 1], [TableResult((0, 7), (1, 2))]), "unknown entrant"),
        (lambda: standings([0, 1], [], byes=[5]), "a bye for 5, who is not an entrant"),
    ],
)
def test_bad_input_is_refused_with_what_was_wrong(call, message):
    with pytest.raises(PairingError, match=message):
        call()
