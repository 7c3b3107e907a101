"""Mining puzzles from computer players' games, reproducibly from a seed.

Game ``g`` of seed ``S`` is a match under a preset and a table size (2 to 4 seats) drawn from
``Random("puzzles:S:g")``, each seat `hard` or `normal`. Every decision of every seat is looked
at from that seat's view alone (rebuilt from the analysis board's notation, so the puzzle can
hold nothing more): first cheaply (a margin of 3 on 32 guesses, then of 5.5 on 256 over the
moves within 12 points of the best on the 32), then a survivor must
have one move best by 6 points on 1,024 guesses at each making salt, with the margin of safety
(``FIRST_MARGIN`` on the first, ``SAFETY_MEAN`` on their mean). ``QUOTAS`` cap the share of one
kind of decision.
Positions that are no question (one legal move, gin or Big Gin at hand) are passed over.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Reshuffle, Take
from okgin.advice.worlds import Worlds
from okgin.bots import Player, make_player
from okgin.bots.knock_search import KnockSearchPlayer
from okgin.bots.memo import deadwood
from okgin.bots.normal import NormalPlayer
from okgin.hand import Hand, Phase, play_chance
from okgin.match import Match
from okgin.puzzles.price import (
    FIRST_MARGIN,
    GUESSES,
    MAKE_SALTS,
    MIDDLE_GUESSES,
    MIDDLE_MARGIN,
    MIDDLE_REACH,
    QUICK_GUESSES,
    QUICK_MARGIN,
    QUICK_SALT,
    SAFETY_MEAN,
    Priced,
    holds,
    price,
    priced_in,
)
from okgin.puzzles.puzzle import Puzzle, puzzle_id, view_of
from okgin.puzzles.themes import themes_of
from okgin.rules import preset
from okgin.view import SeatView, seat_view

PRESETS = ("oklahoma", "oklahoma", "oklahoma-big-gin", "gin", "oklahoma-multiplayer", "oklahoma-reshuffle")
"""The presets games are drawn from (plain Oklahoma twice as often)."""
TABLES = (2, 2, 2, 3, 4)
"""The table sizes games are drawn from (two seats three times as often); the multi-player
preset is played at three or four."""
PLAYERS: dict[str, Callable[[random.Random], Player]] = {"hard": KnockSearchPlayer, "normal": NormalPlayer}
"""The players games are drawn from, by the name a puzzle's source gives them: `normal`, and as
`hard` the knock search (`hard` before issue 27 gave it its close-move search), kept so that
``made_by``'s command still makes the shipped set exactly."""
LEVELS = tuple(PLAYERS)
HANDS = 6
"""Hands looked at per game at most: more games, more kinds of table."""
QUOTAS = {Phase.DRAW: 0.6, Phase.OFFER: 0.2}
QUOTA_SLACK = 5
"""The most of a set made of one kind of decision (a share of the puzzles found so far, plus
``QUOTA_SLACK``): a draw (take or draw) is far more often a clear question than a discard (one
card worse than all ten others), so without a cap nearly every puzzle would be one."""
MU_EASY, MU_NORMAL, MU_NEITHER = 22.0, 25.0, 28.0
"""A puzzle's starting mu: lower when `easy` finds its answer, higher when `normal` misses it too."""

Report = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Found:
    """A decision of a game, as its seat saw it, and where it came from."""

    position: dict[str, str]
    source: str


def games(seed: int) -> Iterator[Found]:
    """Every decision of seed ``seed``'s games, in order (endless: the caller stops)."""
    number = 0
    while True:
        yield from _game(seed, number)
        number += 1


def _game(seed: int, number: int) -> Iterator[Found]:
    rng = random.Random(f"puzzles:{seed}:{number}")
    name = rng.choice(PRESETS)
    players = rng.choice((3, 4) if name == "oklahoma-multiplayer" else TABLES)
    rules = preset(name).replace(players=players)
    levels = [rng.choice(LEVELS) for _ in range(players)]
    bots = [PLAYERS[level](random.Random(f"puzzles:{seed}:{number}:{seat}")) for seat, level in
            enumerate(levels)]
    match = Match(rules, first_dealer=rng.randrange(players))
    for count in range(HANDS):
        if match.over:
            return
        hand = match.deal_next(rng)
        for turn, view in enumerate(_decisions(hand, match, bots, rng)):
            position = position_of(view, name)
            if position is not None:
                yield Found(position, f"seed {seed} game {number} ({'-'.join(levels)}, {name}) "
                                      f"hand {count + 1} move {turn + 1}")


def _decisions(hand: Hand, match: Match, bots: list[Player], rng: random.Random) -> Iterator[SeatView]:
    """Play ``hand`` through ``match``, yielding each seat's view before it acts."""
    while True:
        play_chance(hand, rng)
        seat = hand.to_act
        if seat is None:
            return
        view = seat_view(hand, seat, match.totals, match.won)
        yield view
        match.apply(bots[seat].act(view))


def position_of(view: SeatView, name: str) -> dict[str, str] | None:
    """``view`` in the board's notation (its rules: preset ``name`` at its table size and
    target), or None when it is no question: one legal move, gin or Big Gin at hand, or a
    reshuffle behind it (the board cannot type one in)."""
    if len(view.legal) < 2 or any(isinstance(a, Reshuffle) for a in view.history):
        return None
    if any(isinstance(a, BigGin) or (isinstance(a, Knock) and deadwood(view.hand_mask & ~a.card.mask) == 0)
           for a in view.legal):
        return None
    moves = [str(a) for a in view.history if isinstance(a, (Pass, Take, Draw, Discard))]
    target = "" if view.rules.target == preset(name).target else str(view.rules.target)
    return {"rules": name, "players": str(view.rules.players), "target": target, "seat": str(view.seat),
            "dealer": str(view.dealer), "upcard": str(view.upcard), "hand": " ".join(map(str, view.hand)),
            "moves": "\n".join(moves), "scores": " ".join(map(str, view.scores))}


def kind(view: SeatView) -> Phase:
    """The kind of decision, for ``QUOTAS``: the view's phase."""
    return view.phase


def judge(found: Found, full: frozenset[Phase] = frozenset()) -> Puzzle | None:
    """The puzzle at ``found``, or None if no move is best by the margin on every making salt
    (or its kind of decision is one of ``full``)."""
    view = view_of(found.position)
    if len(view.legal) < 2 or not view.my_turn or kind(view) in full:
        return None
    quick = price(view, QUICK_GUESSES, QUICK_SALT)
    if quick.margin < QUICK_MARGIN:
        return None
    near = [move for move, worth in quick.values if worth >= quick.values[0][1] - MIDDLE_REACH]
    middle = priced_in(view, Worlds(view, guesses=MIDDLE_GUESSES, salt=QUICK_SALT), near)
    if middle.best != quick.best or middle.margin < MIDDLE_MARGIN:
        return None
    first_worlds = Worlds(view, guesses=GUESSES, salt=MAKE_SALTS[0])
    first = priced_in(view, first_worlds)
    if first.best != quick.best or first.margin < FIRST_MARGIN:
        return None
    later: list[Priced] = []
    for salt in MAKE_SALTS[1:]:
        priced = price(view, GUESSES, salt)
        if not holds(priced, first.best):
            return None
        later.append(priced)
    margins = [p.margin for p in (first, *later)]
    if sum(margins) / len(margins) < SAFETY_MEAN:
        return None
    answer = first.best
    return Puzzle(
        id=puzzle_id(found.position), position=found.position, answer=str(answer),
        values=tuple((str(move), worth) for move, worth in first.values),
        margins=tuple(round(p.margin, 2) for p in (first, *later)),
        themes=themes_of(view, answer, first_worlds), rating=starting_mu(view, answer),
        source=found.source)


def starting_mu(view: SeatView, answer: PlayerAction) -> float:
    """A puzzle's first mu: ``MU_EASY`` when `easy` plays its answer, ``MU_NORMAL`` when
    `normal` does, else ``MU_NEITHER`` (each seeded by the view, so the figure is the same
    every run). Players' answers then move it."""
    for level, mu in (("easy", MU_EASY), ("normal", MU_NORMAL)):
        if make_player(level, random.Random(0)).act(view) == answer:
            return mu
    return MU_NEITHER


def make(seed: int, count: int, report: Report | None = None,
         each: Callable[[list[Puzzle]], None] | None = None) -> list[Puzzle]:
    """``count`` puzzles mined from seed ``seed``'s games, in the order found (the same every
    run, and the first ``n`` of any run are the run of ``n``: the quotas read only the puzzles
    found before). ``report`` is told of each puzzle found, ``each`` is given the list so far."""
    made: list[Puzzle] = []
    ids: set[str] = set()
    kinds: Counter[Phase] = Counter()
    started = time.monotonic()
    for looked, found in enumerate(games(seed), start=1):
        if len(made) >= count:
            break
        full = frozenset(phase for phase, share in QUOTAS.items()
                         if kinds[phase] >= share * len(made) + QUOTA_SLACK)
        puzzle = judge(found, full)
        if puzzle is None or puzzle.id in ids:
            continue
        made.append(puzzle)
        ids.add(puzzle.id)
        kinds[kind(puzzle.view())] += 1
        if report is not None:
            report(f"{len(made)}/{count} after {looked} positions, {time.monotonic() - started:.0f} s: "
                   f"{puzzle.id} {puzzle.answer} by {min(puzzle.margins):.1f} ({', '.join(puzzle.themes)})")
        if each is not None:
            each(made)
    return made
