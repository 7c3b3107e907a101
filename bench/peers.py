"""Peer implementations for the okgin meld-solver benchmark: OpenSpiel and RLCard.

Both peers are optional (``pip install okgin[bench]``, i.e. ``open-spiel`` and ``rlcard``)
and are imported lazily: every entry point returns ``None`` when its peer is not installed.
Checked against ``open-spiel==2.0.2`` and ``rlcard==1.2.0`` on CPython 3.11.

Cards are given in okgin notation: a rank from ``A 2 3 4 5 6 7 8 9 T J Q K`` followed by a
suit from ``C D H S`` (``"7S"``, ``"TD"``, ``"AH"``). Aces are low everywhere (runs are
A-2-3 ... J-Q-K, no wrap-around) and deadwood values are A=1, 2..9 face value, T/J/Q/K=10.

A solver is a pair ``(prepare, solve)``: ``prepare`` validates a 10- or 11-card hand and
converts it to the peer's own card representation; ``solve`` returns the least deadwood of a
10-card hand, or the least deadwood after the best discard of an 11-card hand. A benchmark
calls ``prepare`` once per hand outside the timed region and times only ``solve``.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = [
    "RANKS",
    "SUITS",
    "Solver",
    "openspiel_min_deadwood",
    "openspiel_simple_selfplay",
    "openspiel_solver",
    "rlcard_min_deadwood",
    "rlcard_solver",
]

RANKS = "A23456789TJQK"
"""okgin ranks, low to high."""

SUITS = "CDHS"
"""okgin suits."""

Solver = tuple[Callable[[list[str]], Any], Callable[[Any], int]]
"""``(prepare, solve)``: convert a hand once, then solve the converted hand."""

# OpenSpiel numbers suits s=0, c=1, d=2, h=3 (``kSuitChar = "scdh"``).
_OPENSPIEL_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}


def _import(name: str) -> ModuleType | None:
    """Import module ``name``, or return None when it (or a dependency) is missing."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _check_hand(cards: list[str]) -> None:
    """Raise ValueError unless ``cards`` is 10 or 11 distinct cards in okgin notation."""
    if len(cards) not in (10, 11):
        raise ValueError(f"expected 10 or 11 cards, got {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate cards in {cards}")
    for card in cards:
        if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
            raise ValueError(f"not a card in okgin notation: {card!r}")


def _compose(solver: Solver | None) -> Callable[[list[str]], int] | None:
    """Turn ``(prepare, solve)`` into one function from okgin cards to deadwood."""
    if solver is None:
        return None
    prepare, solve = solver

    def min_deadwood(cards: list[str]) -> int:
        return solve(prepare(cards))

    return min_deadwood


def openspiel_solver() -> Solver | None:
    """OpenSpiel's deadwood solver as ``(prepare, solve)``; None without open_spiel.

    ``solve`` is the bound method ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood``
    (arguments: num_ranks, num_suits, hand_size), called on a list of card ints.

    Card mapping: ``int = suit * 13 + rank`` with rank A=0 .. K=12 and OpenSpiel's suit
    order s=0, c=1, d=2, h=3; so AS=0, KS=12, AC=13, AD=26, 7H=45, KH=51.

    For 11 cards OpenSpiel takes ONE best meld group of all 11 cards and then drops the
    highest unmelded card. That is not always the least deadwood after the best discard:
    with ties (or near-ties) between meld groups it can be 1-2 points too high, e.g.
    ``8D TH 9D TS 2S TD 8H 9H AS 2D 8S`` gives 14 where 13 is reachable (about 1 in 400
    meld-rich hands, essentially never on uniformly random hands). 10-card answers are exact.
    """
    pyspiel = _import("pyspiel")
    if pyspiel is None:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def prepare(cards: list[str]) -> list[int]:
        _check_hand(cards)
        return [_OPENSPIEL_SUIT[c[1]] * 13 + RANKS.index(c[0]) for c in cards]

    solve: Callable[[Any], int] = utils.min_deadwood
    return prepare, solve


def openspiel_min_deadwood() -> Callable[[list[str]], int] | None:
    """OpenSpiel's least deadwood of okgin cards (see :func:`openspiel_solver`).

    Converts the cards on every call; use :func:`openspiel_solver` for timing.
    """
    return _compose(openspiel_solver())


def rlcard_solver() -> Solver | None:
    """RLCard's deadwood solver as ``(prepare, solve)``; None without rlcard.

    Card mapping: ``rlcard.games.base.Card(suit=s, rank=r)`` with the okgin letters
    unchanged (RLCard uses the same ``A..K`` ranks and ``S H D C`` suit letters; its card id
    is ``suit * 13 + rank`` with suit order S=0, H=1, D=2, C=3, not needed here).

    10 cards: ``rlcard.games.gin_rummy.utils.melding.get_best_meld_clusters(hand)`` then
    ``rlcard.games.gin_rummy.utils.utils.get_deadwood_count(hand, cluster)`` on the first
    best cluster, or on ``[]`` when the hand has no meld (as RLCard's own scorer does).

    11 cards: RLCard has no least-deadwood function for 11 cards (``get_best_meld_clusters``
    and ``get_deadwood_count`` raise ``GinRummyProgramError`` unless given exactly 10).
    As RLCard's judge does for knocking, ``solve`` enumerates
    ``melding.get_meld_clusters(hand)`` (plus the empty cluster), discards the highest
    unmelded card of each and takes the minimum; this is exact.
    """
    base = _import("rlcard.games.base")
    melding = _import("rlcard.games.gin_rummy.utils.melding")
    rl_utils = _import("rlcard.games.gin_rummy.utils.utils")
    if base is None or melding is None or rl_utils is None:
        return None
    card_cls = base.Card
    get_best_meld_clusters = melding.get_best_meld_clusters
    get_meld_clusters = melding.get_meld_clusters
    get_deadwood_count = rl_utils.get_deadwood_count
    get_deadwood_value = rl_utils.get_deadwood_value

    def prepare(cards: list[str]) -> list[Any]:
        _check_hand(cards)
        return [card_cls(suit=c[1], rank=c[0]) for c in cards]

    def solve(hand: list[Any]) -> int:
        if len(hand) == 10:
            best = get_best_meld_clusters(hand)
            return int(get_deadwood_count(hand, best[0] if best else []))
        least: int | None = None
        for cluster in [*get_meld_clusters(hand), []]:
            melded = {card for meld in cluster for card in meld}
            values = [int(get_deadwood_value(card)) for card in hand if card not in melded]
            deadwood = sum(values) - max(values) if values else 0
            if least is None or deadwood < least:
                least = deadwood
        assert least is not None
        return least

    return prepare, solve


def rlcard_min_deadwood() -> Callable[[list[str]], int] | None:
    """RLCard's least deadwood of okgin cards (see :func:`rlcard_solver`).

    Converts the cards on every call; use :func:`rlcard_solver` for timing.
    """
    return _compose(rlcard_solver())


def openspiel_simple_selfplay(hands: int, seed: int, *, oklahoma: bool = False) -> float | None:
    """Hands per second of OpenSpiel's simple gin rummy bot playing itself; None without it.

    Loads ``pyspiel.load_game("gin_rummy")`` (``"gin_rummy(oklahoma=true)"`` with
    ``oklahoma``: knock card = value of the first upcard, ace upcard means gin only), makes
    ``pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p)`` for p = 0, 1 and plays
    hand i with ``pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)``, which
    runs the whole hand, chance included, in C++. OpenSpiel plays single hands only: knock
    card 10, gin bonus 25, undercut bonus 25, no big gin, no Oklahoma doubling, dead hand
    (0 to both) when 2 cards remain in the stock.
    """
    if hands <= 0:
        raise ValueError(f"hands must be positive, got {hands}")
    pyspiel = _import("pyspiel")
    if pyspiel is None:
        return None
    game = pyspiel.load_game("gin_rummy(oklahoma=true)" if oklahoma else "gin_rummy")
    bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in (0, 1)]
    start = time.perf_counter()
    for i in range(hands):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    return hands / (time.perf_counter() - start)
