"""Benchmark the coach (a script, not a test).

    python bench/bench_coach.py [--hands N] [--runs R] [--seed S] [--seats 2 3 4]

N seeded hands of ``oklahoma`` are played by ``normal`` against ``normal`` (at 3 and 4 seats,
``oklahoma-multiplayer`` with that many seats, every seat ``normal``). Then, R runs each:

1. The analysis of one position (``okgin.advice.analyse``: the suggestion with its reason,
   every discard, near-melds, warnings) at each of seat 0's decisions with a choice, p50/p95,
   beside one decision of ``hard`` at its default budget on the same positions (the peer: the
   player whose move the coach explains), as a ratio of the p95s (most of `hard`'s draws
   take no search, so its median says little).
2. The review of a whole hand (``okgin.advice.review.review_hand`` for seat 0: its decisions
   judged from its own views, no hidden card), p50/p95/max per hand, at each seat count.

The analysis is timed on the wall clock at two seats; the review in CPU time (the process's, so
that a shared machine's load counts less). The figures printed are the medians over the runs.
Targets (docs/coach.md): one analysis p95 under 300 ms; a whole hand's review under 2 s of CPU.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from okgin.advice import analyse  # noqa: E402
from okgin.advice.review import review_hand  # noqa: E402
from okgin.bots import make_player  # noqa: E402
from okgin.hand import Deal, Hand, play_chance  # noqa: E402
from okgin.rules import Rules, preset  # noqa: E402
from okgin.view import SeatView, seat_view  # noqa: E402


def rules_for(seats: int) -> Rules:
    """``oklahoma`` at two seats, ``oklahoma-multiplayer`` at three or four."""
    return Rules() if seats == 2 else preset("oklahoma-multiplayer").replace(players=seats)


def play(seed: int, seats: int = 2) -> tuple[Hand, list[SeatView]]:
    """One hand of `normal` at every seat, and seat 0's views where it had a choice."""
    rng = random.Random(seed)
    rules = rules_for(seats)
    hand = Hand(rules, 1, Deal.shuffle(rules, rng))
    players = [make_player("normal", random.Random(seed + s)) for s in range(seats)]
    views = []
    while not hand.over:
        seat = hand.to_act or 0
        view = seat_view(hand, seat)
        if seat == 0 and len(view.legal) > 1:
            views.append(view)
        hand.apply(players[seat].act(view))
        play_chance(hand, rng)
    return hand, views


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(work: list[object], run: object, clock: object = time.perf_counter) -> list[float]:
    assert callable(run) and callable(clock)
    times = []
    for item in work:
        started = clock()
        run(item)
        times.append(clock() - started)
    return times


def analysis_figures(hands: int, runs: int, seed: int) -> dict[str, float]:
    """The analysis of one position and `hard`'s decision on the same positions (two seats,
    wall clock), medians over the runs, in ms."""
    views = [view for _, hand_views in (play(seed + n) for n in range(hands)) for view in hand_views]
    hard = make_player("hard", random.Random(seed))
    found: dict[str, list[float]] = {k: [] for k in ("a50", "a95", "h50", "h95")}
    for _ in range(runs):
        analysis = timed(list(views), lambda v: analyse(v, ("You", "Ruby")))
        decision = timed(list(views), hard.act)
        for key, values in (("a", analysis), ("h", decision)):
            found[key + "50"].append(statistics.median(values))
            found[key + "95"].append(percentile(values, 0.95))
    figures = {key: round(statistics.median(values) * 1000, 1) for key, values in found.items()}
    print(f"positions {len(views)} from {hands} hands, {runs} runs (medians of runs, ms)")
    print(f"analysis of one position  p50 {figures['a50']:7.1f}  p95 {figures['a95']:7.1f}")
    print(f"hard's decision (peer)    p50 {figures['h50']:7.1f}  p95 {figures['h95']:7.1f}  "
          f"analysis/hard p95 ratio {figures['a95'] / figures['h95']:.2f}")
    return {**figures, "positions": len(views)}


def review_figures(hands: int, runs: int, seed: int, seats: int) -> dict[str, float]:
    """The review of each whole hand for seat 0 at ``seats`` seats, in CPU time: p50, p95 and
    the slowest hand, medians over the runs (each on ``hands`` hands of its own), in ms."""
    found: dict[str, list[float]] = {k: [] for k in ("r50", "r95", "rmax")}
    for run in range(runs):
        # Other hands each run: the meld solver's answers the players remember would make a
        # second review of the same hands cheaper than any review a server makes.
        played = [play(seed + run * hands + n, seats)[0] for n in range(hands)]
        review = timed(list(played), lambda h: review_hand(h, 0), time.process_time)
        found["r50"].append(statistics.median(review))
        found["r95"].append(percentile(review, 0.95))
        found["rmax"].append(max(review))
    figures = {key: round(statistics.median(values) * 1000, 1) for key, values in found.items()}
    print(f"review of a whole hand, {seats} seats, CPU  p50 {figures['r50']:7.1f}  "
          f"p95 {figures['r95']:7.1f}  max {figures['rmax']:7.1f}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4))
    parser.add_argument("--review-only", action="store_true", help="skip the analysis")
    args = parser.parse_args()
    figures: dict[str, object] = {"hands": args.hands, "runs": args.runs}
    if not args.review_only:
        figures["analysis"] = analysis_figures(args.hands, args.runs, args.seed)
    for seats in args.seats:
        figures[f"review_{seats}"] = review_figures(args.hands, args.runs, args.seed, seats)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
