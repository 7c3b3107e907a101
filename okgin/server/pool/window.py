"""Who may sit with whom: the rating window that widens with the wait, the one predicate that
accepts a candidate pairing (``compatible``), and the tables formed from a pool's seekers.

Pure: no store, no clock of its own (``now`` is handed in). docs/play-online.md publishes
every figure here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from okgin.server.pool.seekers import Seeker

WINDOW_START = 100
"""Shown rating points either side of a seeker's own at first."""
WINDOW_GROWTH = 20.0
"""Points the window widens by per second waited."""
WINDOW_MAX = 1000
"""The widest window (reached after 45 s)."""


def window(waited: float) -> int:
    """Rating points either side a seeker accepts after ``waited`` seconds in the pool.

    >>> window(0), window(10), window(100)
    (100, 300, 1000)
    """
    return min(WINDOW_MAX, int(WINDOW_START + WINDOW_GROWTH * max(0.0, waited)))


def bots_agree(a: Seeker, b: Seeker) -> bool:
    """Does neither mind the other being a bot? A bot (an account seeking through the API) sits
    only with a person who allows bot opponents, and never with another bot: so a table the pool
    seats has at most one bot, and a person who allowed it at every other seat."""
    if a.bot and b.bot:
        return False
    return (not a.bot or b.bots) and (not b.bot or a.bots)


def compatible(a: Seeker, b: Seeker, now: float) -> bool:
    """May ``a`` and ``b`` sit at one table now? The one place a pairing is accepted: the same
    rules and seats, two different players, neither refusing the other as a bot (``bots_agree``),
    and each within the other's window."""
    if a.player == b.player or a.preset != b.preset or a.seats != b.seats or not bots_agree(a, b):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= window(a.waited(now)) and gap <= window(b.waited(now))


Accept = Callable[[Seeker, Seeker, float], bool]
"""A pairing rule: may these two sit at one table now (``compatible``, or one that adds to it)?"""


def unblocked(accept: Accept, blocked: set[frozenset[str]]) -> Accept:
    """``accept``, refusing besides any two players where either blocked the other (``blocked``:
    such pairs of player ids, read from the store by the pool each look)."""
    def rule(a: Seeker, b: Seeker, now: float) -> bool:
        return frozenset((a.player, b.player)) not in blocked and accept(a, b, now)
    return rule


def tables(seekers: Iterable[Seeker], now: float, accept: Accept = compatible) -> list[list[Seeker]]:
    """Tables to seat now, each a list of seekers in seat order: for each choice of rules and
    seats, the longest waiting first, with the closest ratings that every one already at its
    table accepts. A seeker is at one table at most; those left wait for the next look."""
    kinds: dict[tuple[str, int], list[Seeker]] = defaultdict(list)
    for seeker in seekers:
        kinds[seeker.preset, seeker.seats].append(seeker)
    found: list[list[Seeker]] = []
    for (_preset, seats), waiting in sorted(kinds.items()):
        found.extend(_tables_of(sorted(waiting, key=lambda s: (s.joined, s.id)), seats, now, accept))
    return found


def _tables_of(waiting: Sequence[Seeker], seats: int, now: float, accept: Accept) -> list[list[Seeker]]:
    used: set[str] = set()
    found: list[list[Seeker]] = []
    for first in waiting:
        if first.id in used:
            continue
        table = [first]
        others = sorted((s for s in waiting if s.id not in used and s.id != first.id),
                        key=lambda s: (abs(s.rating - first.rating), s.joined))
        for other in others:
            if all(accept(other, sitting, now) for sitting in table):
                table.append(other)
                if len(table) == seats:
                    break
        if len(table) == seats:
            found.append(table)
            used.update(s.id for s in table)
    return found
