"""Tournaments between computer players: paired deals, parallel matches, and the report.

Each group of matches shares one sequence of deals, played once per rotation of the seats
(for two players: each deal twice, seats swapped), so the luck of the deal cancels out.
Groups run in separate processes; every player sees only its seat's view (``play_hand``).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from itertools import chain
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from okgin.actions import PlayerAction, Reshuffle
from okgin.bots import LEVELS, Player, make_player
from okgin.bots.knock_search import MAX_BUDGET
from okgin.errors import OkginError
from okgin.hand import Deal
from okgin.match import Match
from okgin.prizes import penalty_points
from okgin.rules import Rules, preset
from okgin.runner import play_hand
from okgin.sim_records import check_resumable, claim, keep, manifest, read_back
from okgin.view import SeatView

OUTCOMES = ("knock", "gin", "big-gin", "undercut", "void")


@dataclass(frozen=True)
class SimConfig:
    """What to play: ``levels`` (one per seat, at least two), how many matches, under what."""

    levels: tuple[str, ...]
    matches: int
    rules: Rules
    seed: int = 0
    jobs: int = 1
    budget: int | None = None
    """Guessed deals `hard` searches per look-ahead (None: its default)."""
    records: Path | None = None
    max_hands: int = 1000
    timing: bool = True
    """Whether the report gives decision times: the one part of it that depends on the
    machine's load rather than on the seed (left out, a seeded report is the same every run)."""
    resume: bool = False
    """Read back the groups whose records ``records`` already holds instead of playing them
    (``okgin.sim_records``); their decision times are not known."""

    @property
    def groups(self) -> int:
        """Groups of paired matches: enough for ``matches``, each played once per rotation."""
        return max(1, math.ceil(self.matches / len(self.levels)))

    @property
    def labels(self) -> tuple[str, ...]:
        """A unique name per entrant: its level, numbered when a level plays itself."""
        labels = []
        for i, level in enumerate(self.levels):
            repeats = self.levels.count(level) > 1
            labels.append(f"{level}#{i + 1}" if repeats else level)
        return tuple(labels)


@dataclass
class MatchStats:
    """What one match gave, indexed by entrant (the config's order, not the seats')."""

    group: int
    rotation: int
    winner: int
    scores: list[int]
    hand_points: list[list[int]]
    """Per hand: each entrant's points."""
    outcomes: list[tuple[str, int | None]]
    """Per hand: the outcome and the entrant who won it (None when void)."""
    times: list[list[float]] = field(default_factory=list)
    """Per entrant: seconds per decision."""
    penalties: list[int] = field(default_factory=list)
    """Per entrant: penalty points over the match (``okgin.prizes.penalty_points``)."""
    decisions: list[int] = field(default_factory=list)
    """Per entrant: the actions it chose (timed or not: a match read back has no times)."""


class _Timed:
    """Wraps a player to time its decisions."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.name = player.name
        self.times = times

    def act(self, view: SeatView) -> PlayerAction:
        start = time.perf_counter()
        action = self.player.act(view)
        self.times.append(time.perf_counter() - start)
        return action


def play_one(config: SimConfig, group: int, rotation: int) -> MatchStats:
    """Play the match of ``group`` with the seats turned ``rotation`` places.

    Seat ``s`` holds entrant ``(s + rotation) % n``. The deals depend on the group alone.
    """
    n = len(config.levels)
    entrant = _entrants(n, rotation)
    times: list[list[float]] = [[] for _ in range(n)]
    players = [
        _Timed(
            make_player(config.levels[e], random.Random(f"{config.seed}/{group}/{rotation}/{e}"),
                        config.budget),
            times[e],
        )
        for e in entrant
    ]
    deals = random.Random(f"{config.seed}/{group}/deals")
    chance = random.Random(f"{config.seed}/{group}/chance")
    match = Match(config.rules, first_dealer=0)
    for _ in range(config.max_hands):
        if match.over:
            break
        hand = match.start_hand(Deal.shuffle(config.rules, deals))
        play_hand(hand, players, chance, match.totals, match, match.won)
    if match.final is None:
        raise OkginError(f"match {group}/{rotation} is not over after {config.max_hands} hands: "
                         "these players may never reach the target (random players seldom do)")
    if config.records is not None:
        keep(config.records, group, rotation, match, [config.labels[e] for e in entrant])
    return _stats(match, entrant, group, rotation, times)


def _entrants(n: int, rotation: int) -> list[int]:
    """The entrant in each seat when the seats are turned ``rotation`` places."""
    return [(s + rotation) % n for s in range(n)]


def _stats(
    match: Match, entrant: list[int], group: int, rotation: int, times: list[list[float]]
) -> MatchStats:
    """The match's figures, re-indexed by entrant."""
    assert match.final is not None
    n = len(entrant)
    by_entrant = [0] * n
    for seat, e in enumerate(entrant):
        by_entrant[e] = seat
    hand_points, outcomes = [], []
    penalties = [0] * n
    decisions = [0] * n
    for hand in match.hands:
        result = hand.result
        assert result is not None
        for action in hand.actions:
            if not isinstance(action, Reshuffle):
                decisions[entrant[action.seat]] += 1
        hand_points.append([result.points[by_entrant[e]] for e in range(n)])
        lost = penalty_points(result, match.rules.undercut_penalty)
        penalties = [penalties[e] + lost[by_entrant[e]] for e in range(n)]
        winner = None if result.winner is None else entrant[result.winner]
        outcomes.append((str(result.outcome), winner))
    scores = [match.final.scores[by_entrant[e]] for e in range(n)]
    return MatchStats(group, rotation, entrant[match.final.winner], scores, hand_points, outcomes,
                      times, penalties, decisions)


def _play_group(args: tuple[SimConfig, int]) -> list[MatchStats]:
    config, group = args
    return [play_one(config, group, r) for r in range(len(config.levels))]


def run(
    config: SimConfig, on_match: Callable[[MatchStats], None] | None = None
) -> list[MatchStats]:
    """Play every match of ``config`` (in ``config.jobs`` processes). Returns their figures,
    ordered by group and rotation; ``on_match`` is called as each one finishes."""
    finished: dict[int, list[MatchStats]] = {}
    if config.records is not None:
        config.records.mkdir(parents=True, exist_ok=True)
        if config.resume:
            finished = _finished_groups(config)
        claim(config.records, manifest(config.levels, config.rules, config.seed, config.budget))
    results: list[MatchStats] = []
    for batch in chain(finished.values(), _batches(config, set(finished))):
        for stats in batch:
            results.append(stats)
            if on_match is not None:
                on_match(stats)
    results.sort(key=lambda s: (s.group, s.rotation))
    return results


def _finished_groups(config: SimConfig) -> dict[int, list[MatchStats]]:
    """The groups whose every match the records folder holds already, read back."""
    assert config.records is not None
    n = len(config.levels)
    found: dict[int, list[MatchStats]] = {}
    for group in range(config.groups):
        matches = []
        for rotation in range(n):
            entrant = _entrants(n, rotation)
            labels = [config.labels[e] for e in entrant]
            match = read_back(config.records, group, rotation, labels, config.rules)
            if match is None:
                break
            matches.append(_stats(match, entrant, group, rotation, [[] for _ in range(n)]))
        else:
            found[group] = matches
    return found


def _batches(config: SimConfig, skip: set[int]) -> Iterator[list[MatchStats]]:
    """The groups not in ``skip`` played, each group's matches as it finishes."""
    work = [(config, g) for g in range(config.groups) if g not in skip]
    if config.jobs <= 1:
        yield from map(_play_group, work)
        return
    with get_context("fork").Pool(config.jobs) as pool:
        yield from pool.imap_unordered(_play_group, work)


# -- the report ----------------------------------------------------------------------------


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a win rate of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation 95% interval (low, high)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by the nearest-rank method (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class EntrantReport:
    """One entrant's figures over the whole run."""

    name: str
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    points_per_hand: float
    """Mean of (its points - the others' mean points) per hand."""
    points_low: float
    points_high: float
    outcomes: dict[str, int]
    """Hands this entrant won, by how (knock, gin, big-gin, undercut)."""
    decisions: int
    p50_ms: float
    p95_ms: float
    p99_ms: float


def report(config: SimConfig, results: list[MatchStats]) -> dict[str, Any]:
    """The figures of a run, as ``okgin sim --json`` prints them."""
    n = len(config.levels)
    matches = len(results)
    entrants = []
    for e, name in enumerate(config.labels):
        wins = sum(1 for r in results if r.winner == e)
        low, high = wilson(wins, matches)
        net = [
            hand[e] - (sum(hand) - hand[e]) / (n - 1) for r in results for hand in r.hand_points
        ]
        mean, p_low, p_high = mean_interval(net)
        won = {o: 0 for o in OUTCOMES if o != "void"}
        for r in results:
            for outcome, winner in r.outcomes:
                if winner == e:
                    won[outcome] = won.get(outcome, 0) + 1
        times = [t for r in results for t in r.times[e]]
        entrants.append(EntrantReport(
            name, wins, wins / matches if matches else 0.0, low, high, mean, p_low, p_high, won,
            sum(r.decisions[e] for r in results),
            1000 * percentile(times, 0.5), 1000 * percentile(times, 0.95), 1000 * percentile(times, 0.99),
        ))
    hands = sum(len(r.hand_points) for r in results)
    voids = sum(1 for r in results for outcome, _ in r.outcomes if outcome == "void")
    return {
        "rules": config.rules.preset,
        "players": list(config.labels),
        "matches": matches,
        "hands": hands,
        "voids": voids,
        "seed": config.seed,
        "budget": config.budget,
        "entrants": [_entrant_json(entry, config.timing) for entry in entrants],
        "winners": [r.winner for r in results],
    }


def _entrant_json(entry: EntrantReport, timing: bool) -> dict[str, Any]:
    data = asdict(entry)
    if not timing:
        for key in ("p50_ms", "p95_ms", "p99_ms"):
            del data[key]
    return data


def report_text(summary: dict[str, Any]) -> str:
    """The report in words, one line per entrant."""
    lines = [
        f"{summary['matches']} matches, {summary['hands']} hands under {summary['rules']} "
        f"({summary['voids']} void hands), seed {summary['seed']}"
    ]
    for e in summary["entrants"]:
        outcomes = ", ".join(f"{k} {v}" for k, v in e["outcomes"].items())
        timing = (
            f"; decision ms p50 {e['p50_ms']:.2f} p95 {e['p95_ms']:.2f} p99 {e['p99_ms']:.2f}"
            if "p50_ms" in e else ""
        )
        lines.append(
            f"{e['name']}: won {e['wins']} ({100 * e['win_rate']:.1f}%, 95% CI "
            f"{100 * e['win_low']:.1f}-{100 * e['win_high']:.1f}%); "
            f"{e['points_per_hand']:+.2f} points per hand "
            f"({e['points_low']:+.2f} to {e['points_high']:+.2f}); hands won: {outcomes}{timing}"
        )
    return "\n".join(lines)


def report_json(summary: dict[str, Any]) -> str:
    return json.dumps(summary)


def sim_command(
    levels: list[str], *, matches: int, rules: str, seed: int, jobs: int,
    budget: int | None, records: str | None, as_json: bool, progress: bool, timing: bool = True,
    resume: bool = False,
) -> int:
    """What ``okgin sim`` does: check the arguments, play with a progress bar, report.

    Raises OkginError (a ValueError) for a bad level, preset, count or budget.
    """
    config = make_config(levels, matches, rules, seed, jobs, budget, records, timing, resume)
    results = _run_with_progress(config) if progress else run(config)
    summary = report(config, results)
    print(report_json(summary) if as_json else report_text(summary))
    return 0


def make_config(
    levels: list[str], matches: int, rules: str, seed: int, jobs: int,
    budget: int | None, records: str | None, timing: bool = True, resume: bool = False,
) -> SimConfig:
    """A checked ``SimConfig``. Raises OkginError saying what is wrong (``resume``: unless
    ``records`` holds the records of this same run, seed, players, rules and budget)."""
    chosen = preset(rules)
    if len(levels) != chosen.players:
        if chosen.players == 2 and 2 <= len(levels) <= 4:
            chosen = chosen.replace(players=len(levels))
        else:
            raise OkginError(f"{rules} is for {chosen.players} players, {len(levels)} given")
    for level in levels:
        if level not in LEVELS:
            raise OkginError(f"no player {level!r}; the players are " + ", ".join(LEVELS))
    if matches < 1 or jobs < 1:
        raise OkginError("--matches and --jobs must be at least 1")
    if budget is not None and not 1 <= budget <= MAX_BUDGET:
        raise OkginError(f"--budget is the guessed deals per look-ahead, from 1 to {MAX_BUDGET}")
    folder = Path(records) if records is not None else None
    if resume:
        if folder is None:
            raise OkginError("--resume reads back the matches in --records DIR: name the folder")
        check_resumable(folder, manifest(levels, chosen, seed, budget))
    if folder is not None:  # before any match is played, not after the first one
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise OkginError(f"cannot keep records in {records}: {error.strerror}") from None
    return SimConfig(tuple(levels), matches, chosen, seed, jobs, budget, folder, timing=timing, resume=resume)


def _run_with_progress(config: SimConfig) -> list[MatchStats]:
    """``run`` with a progress bar showing the first entrant's running win rate."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    total = config.groups * len(config.levels)
    wins = [0]
    first = config.labels[0]
    columns = (
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
    )
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task(f"{first} wins -", total=total)

        def done(stats: MatchStats) -> None:
            wins[0] += stats.winner == 0
            played = int(bar.tasks[0].completed) + 1
            bar.update(task, advance=1, description=f"{first} wins {100 * wins[0] / played:.1f}%")

        return run(config, done)
