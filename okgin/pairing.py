"""Tournament pairings and standings: Swiss, knockout and round robin at tables of 2 to 4 (no I/O).

Entrants are numbers (their seeds: 0 is the top seed). A round is a tuple of tables, each a
tuple of entrants, and the entrants who sit out with a bye. The rules each format follows are
in docs/tournaments.md.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from okgin.errors import OkginError

Table = tuple[int, ...]
Pair = frozenset[int]

SEARCH_BUDGET = 20_000
"""Tables tried per allowed number of rematches before the Swiss search allows one more."""

EXACT_FACTOR = 10
"""The exact search (every order of the table sizes) may try this many times SEARCH_BUDGET tables."""


class PairingError(OkginError):
    """A table size, an entrant list or a result that cannot be paired or ranked."""


@dataclass(frozen=True)
class Round:
    """One round: its tables (the better-placed entrant first) and its byes."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    @property
    def seated(self) -> list[int]:
        """Every entrant of the round, at a table or on a bye."""
        return [e for table in self.tables for e in table] + list(self.byes)


@dataclass(frozen=True)
class TableResult:
    """A finished table: ``order`` its entrants from first place to last, ``points`` each
    one's final match score in the same order."""

    order: Table
    points: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """One entrant's place in the standings and the figures that decided it."""

    entrant: int
    score: Fraction
    """1 for each table won and each bye, (s − 1 − place) / (s − 1) at a table of s."""
    buchholz: Fraction
    """The sum of the scores of everyone the entrant has sat with, once per table."""
    difference: Fraction
    """The sum over its tables of its match points less the mean of the others'."""
    played: int
    byes: int


def check_table(size: int) -> None:
    """Raise PairingError unless ``size`` is a table of 2 to 4 players."""
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 4:
        raise PairingError(f"a table seats 2 to 4 players, not {size!r}")


def _check_entrants(entrants: Sequence[int], table: int, least: int = 2) -> None:
    check_table(table)
    if len(set(entrants)) != len(entrants):
        raise PairingError("an entrant is named twice")
    if len(entrants) < least:
        raise PairingError(f"{len(entrants)} entrants: a round needs at least {least}")


def table_sizes(entrants: int, table: int) -> tuple[list[int], int]:
    """Swiss and round robin tables for ``entrants``: full tables of ``table``, then one of
    the remainder when it is 2 or more; a remainder of one is a bye. Returns (sizes, byes)."""
    full, rest = divmod(entrants, table)
    sizes = [table] * full + ([rest] if rest >= 2 else [])
    return sizes, 1 if rest == 1 else 0


def met(rounds: Iterable[Round]) -> set[Pair]:
    """Every pair of entrants who have sat at one table."""
    return {frozenset(pair) for r in rounds for t in r.tables for pair in itertools.combinations(t, 2)}


# -- Swiss -----------------------------------------------------------------------------------


def swiss_round(
    ranking: Sequence[int], table: int, history: Sequence[Round] = (), budget_per_try: int = SEARCH_BUDGET
) -> Round:
    """The next Swiss round for ``ranking`` (the standings, best first).

    The bye (if any) goes to the lowest-ranked entrant who has not had one (once everyone
    has, the lowest of those with the fewest). Tables are filled from the top of the
    standings, each entrant with the next ones below who have not met anyone at the table;
    when no such round exists the fewest rematches are allowed. The fewest is found exactly
    over every order of the table sizes (``_fewest``, within ``EXACT_FACTOR`` budgets); when
    the sizes in order (full tables first) reach it, that seating is taken, else the exact
    one. Past that budget the sizes stay in order; when that search takes more
    than ``budget_per_try`` tries (large fields late in an event), the standings are seated
    in order and players swapped between tables, nearest tables first, while a swap removes
    rematches. Raises PairingError for a bad table size or entrant list.
    """
    _check_entrants(ranking, table)
    sizes, bye_count = table_sizes(len(ranking), table)
    byes: tuple[int, ...] = ()
    if bye_count:
        had = {e: sum(e in r.byes for r in history) for e in ranking}
        fewest = min(had.values())
        byes = ([e for e in ranking if had[e] == fewest][-1],)
    playing = [e for e in ranking if e not in byes]
    seen = met(history)
    budget = [budget_per_try]
    tables = _search(playing, sizes, seen, 0, budget)  # none in today's order: the best, and quick
    if tables is not None:
        return Round(tuple(tables), byes)
    exact = _fewest(playing, sizes, seen, budget_per_try * EXACT_FACTOR)
    if exact is not None:
        cost, best = exact
        budget = [budget_per_try]
        tables = _search(playing, sizes, seen, cost, budget)  # today's order first, when as good
        return Round(tuple(tables if tables is not None else best), byes)
    for allowed in range(len(playing) * table):
        budget = [budget_per_try]
        tables = _search(playing, sizes, seen, allowed, budget)
        if tables is not None:
            return Round(tuple(tables), byes)
        if budget[0] <= 0:  # not proven impossible, only too long to search: repair instead
            break
    blocks, start = [], 0
    for size in sizes:
        blocks.append(list(playing[start:start + size]))
        start += size
    return Round(_repair(blocks, seen, playing), byes)


def _fewest(
    playing: list[int], sizes: list[int], seen: set[Pair], budget: int
) -> tuple[int, list[Table]] | None:
    """The fewest rematches of any partition of ``playing`` into tables of ``sizes`` (the
    sizes in any order: a short table may seat the top of the standings) and the first such
    seating in standings order; None when that takes more than ``budget`` tables tried.

    Each remaining field (the entrants not yet seated and the table sizes left) is solved
    once, so a field of 12 is a few thousand fields at most."""
    memo: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    left = [budget]

    def cost_of(table: Table) -> int:
        return sum(frozenset(p) in seen for p in itertools.combinations(table, 2))

    def choices(field: tuple[int, ...], shapes: tuple[int, ...]) -> Iterable[tuple[Table, tuple[int, ...]]]:
        anchor, rest = field[0], field[1:]
        for size in dict.fromkeys(sorted(shapes, reverse=True)):
            after = list(shapes)
            after.remove(size)
            for combo in itertools.combinations(rest, size - 1):
                yield (anchor, *combo), tuple(after)

    def best(field: tuple[int, ...], shapes: tuple[int, ...]) -> int:
        if not field:
            return 0
        key = (field, shapes)
        if key not in memo:
            lowest = 10**9
            for table, after in choices(field, shapes):
                left[0] -= 1
                if left[0] <= 0:
                    raise _OutOfTries
                here = cost_of(table)
                if here < lowest:  # a table alone as dear as the best so far cannot beat it
                    lowest = min(lowest, here + best(tuple(e for e in field if e not in table), after))
            memo[key] = lowest
        return memo[key]

    field, shapes = tuple(playing), tuple(sorted(sizes, reverse=True))
    try:
        total = best(field, shapes)
    except _OutOfTries:
        return None
    tables: list[Table] = []
    left[0] = budget  # the walk back reads the solved fields, plus those pruned above
    try:
        while field:
            target = best(field, shapes)
            for table, after in choices(field, shapes):
                rest = tuple(e for e in field if e not in table)
                here = cost_of(table)
                if here <= target and here + best(rest, after) == target:
                    tables.append(table)
                    field, shapes = rest, after
                    break
    except _OutOfTries:
        return None
    return total, tables


class _OutOfTries(Exception):
    """The exact search ran past its budget."""


def _search(
    playing: list[int], sizes: list[int], seen: set[Pair], allowed: int, budget: list[int]
) -> list[Table] | None:
    """Tables of ``sizes`` for ``playing`` with at most ``allowed`` rematches, the top
    unplaced entrant always with the nearest ones the allowance lets it meet."""
    if not playing:
        return []
    anchor, rest = playing[0], playing[1:]
    for companions, cost in _companions(anchor, rest, sizes[0] - 1, seen, allowed, budget):
        chosen = set(companions)
        later = _search([e for e in rest if e not in chosen], sizes[1:], seen, allowed - cost, budget)
        if later is not None:
            return [(anchor, *companions), *later]
        if budget[0] <= 0:
            return None
    return None


def _companions(
    anchor: int, rest: list[int], need: int, seen: set[Pair], allowed: int, budget: list[int]
) -> Iterable[tuple[tuple[int, ...], int]]:
    """Sets of ``need`` entrants from ``rest`` (in standings order) to sit with ``anchor``,
    each with the rematches it makes, none over ``allowed``."""
    for combo in itertools.combinations(rest, need):
        budget[0] -= 1
        if budget[0] <= 0:
            return
        table = (anchor, *combo)
        cost = sum(frozenset(p) in seen for p in itertools.combinations(table, 2))
        if cost <= allowed:
            yield combo, cost


def _repair(blocks: list[list[int]], seen: set[Pair], ranking: list[int]) -> tuple[Table, ...]:
    """Swap players between tables while a swap lowers the rematches, trying the tables
    nearest in the standings and the players nearest in rank first."""
    place = {e: i for i, e in enumerate(ranking)}

    def cost(table: list[int]) -> int:
        return sum(frozenset(p) in seen for p in itertools.combinations(table, 2))

    improved = True
    while improved:
        improved = False
        pairs = sorted(itertools.combinations(range(len(blocks)), 2), key=lambda ij: (ij[1] - ij[0], ij))
        for i, j in pairs:
            if cost(blocks[i]) + cost(blocks[j]) == 0:
                continue
            swaps = sorted(
                itertools.product(range(len(blocks[i])), range(len(blocks[j]))),
                key=lambda ab: abs(place[blocks[i][ab[0]]] - place[blocks[j][ab[1]]]),
            )
            for a, b in swaps:
                before = cost(blocks[i]) + cost(blocks[j])
                blocks[i][a], blocks[j][b] = blocks[j][b], blocks[i][a]
                if cost(blocks[i]) + cost(blocks[j]) < before:
                    improved = True
                    break
                blocks[i][a], blocks[j][b] = blocks[j][b], blocks[i][a]
    return tuple(tuple(sorted(block, key=place.__getitem__)) for block in blocks)


# -- knockout --------------------------------------------------------------------------------


def knockout_round(alive: Sequence[int], table: int) -> Round:
    """The next knockout round for ``alive`` (in seed order, best first); each table's winner
    goes through.

    The first round leaves a power of ``table`` players (or one): the top seeds get the byes,
    the others play, dealt to the tables best against worst. Later rounds have no byes.
    Raises PairingError for a bad table size or fewer than two players.
    """
    _check_entrants(alive, table)
    n = len(alive)
    through = 1  # the players left after this round: the largest power of table below n
    while through * table < n:
        through *= table
    extra = n - through  # players this round knocks out: a table of s knocks out s - 1
    count = math.ceil(extra / (table - 1))
    sizes = [table] * (count - 1) + [extra - (count - 1) * (table - 1) + 1]
    byes = tuple(alive[: through - count])
    players = list(alive[through - count:])
    seats: list[list[int]] = [[] for _ in sizes]
    order = list(range(count))
    while players:
        for index in order:
            if players and len(seats[index]) < sizes[index]:
                seats[index].append(players.pop(0))
        order.reverse()
    return Round(tuple(tuple(seat) for seat in seats), byes)


def knockout_rounds(entrants: int, table: int) -> int:
    """How many rounds a knockout of ``entrants`` at tables of ``table`` takes."""
    check_table(table)
    rounds, size = 0, 1
    while size < entrants:
        rounds, size = rounds + 1, size * table
    return rounds


# -- round robin -----------------------------------------------------------------------------


def round_robin(entrants: Sequence[int], table: int) -> list[Round]:
    """Rounds in which every pair of ``entrants`` sits at a table together at least once.

    Tables of 2: the circle method, each pair exactly once in n − 1 rounds (n rounds when n
    is odd, each entrant one bye). Tables of 3 or 4: each round built greedily to seat
    together the most pairs not yet met, until none is left. Raises PairingError.
    """
    _check_entrants(entrants, table)
    if table == 2:
        return _circle(list(entrants))
    rounds: list[Round] = []
    everyone = {frozenset(p) for p in itertools.combinations(entrants, 2)}
    while not everyone <= met(rounds):
        rounds.append(_greedy_round(list(entrants), table, everyone - met(rounds), rounds))
    return rounds


def _circle(players: list[int]) -> list[Round]:
    ring: list[int | None] = [*players, None] if len(players) % 2 else list(players)
    rounds = []
    for _ in range(len(ring) - 1):
        pairs = [(ring[i], ring[-1 - i]) for i in range(len(ring) // 2)]
        tables = tuple((a, b) for a, b in pairs if a is not None and b is not None)
        byes = tuple(a if b is None else b for a, b in pairs if a is None or b is None)
        rounds.append(Round(tables, tuple(e for e in byes if e is not None)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _greedy_round(players: list[int], table: int, unmet: set[Pair], history: list[Round]) -> Round:
    sizes, bye_count = table_sizes(len(players), table)
    byes_had = {e: sum(e in r.byes for r in history) for e in players}
    left = {e: sum(e in pair for pair in unmet) for e in players}
    byes: tuple[int, ...] = ()
    if bye_count:
        byes = (min(players, key=lambda e: (byes_had[e], left[e], -players.index(e))),)
    free = [e for e in players if e not in byes]
    tables = []
    for size in sizes:
        seat = [max(free, key=lambda e: (sum(frozenset((e, o)) in unmet for o in free), -free.index(e)))]
        free.remove(seat[0])
        while len(seat) < size:
            best = max(free, key=lambda e: (sum(frozenset((e, s)) in unmet for s in seat), -free.index(e)))
            seat.append(best)
            free.remove(best)
        tables.append(tuple(sorted(seat, key=players.index)))
    return Round(tuple(tables), byes)


# -- standings -------------------------------------------------------------------------------


def standings(
    entrants: Sequence[int], results: Sequence[TableResult], byes: Collection[int] = ()
) -> list[Standing]:
    """The standings after ``results`` (every finished table) and ``byes`` (one entry per bye
    given; an entrant may appear more than once), best first: by score, then Buchholz, then
    points difference, then seed. Raises PairingError for a result naming someone unknown.
    """
    score = {e: Fraction(0) for e in entrants}
    difference = {e: Fraction(0) for e in entrants}
    played = dict.fromkeys(entrants, 0)
    for result in results:
        size = len(result.order)
        if size < 2 or len(result.points) != size or not set(result.order) <= set(score):
            raise PairingError(f"a table result names an unknown entrant or lacks points: {result}")
        for place, (e, points) in enumerate(zip(result.order, result.points, strict=True)):
            score[e] += Fraction(size - 1 - place, size - 1)
            difference[e] += points - Fraction(sum(result.points) - points, size - 1)
            played[e] += 1
    bye_list = list(byes)
    for e in bye_list:
        if e not in score:
            raise PairingError(f"a bye for {e}, who is not an entrant")
        score[e] += 1
    buchholz = {e: Fraction(0) for e in entrants}
    for result in results:
        for e in result.order:
            buchholz[e] += sum((score[o] for o in result.order if o != e), Fraction(0))
    rows = [
        Standing(e, score[e], buchholz[e], difference[e], played[e], bye_list.count(e)) for e in entrants
    ]
    seed = {e: i for i, e in enumerate(entrants)}
    return sorted(rows, key=lambda s: (-s.score, -s.buchholz, -s.difference, seed[s.entrant]))
