"""Benchmark the coach (a script, not a test).

    python bench/bench_coach.py [--hands N] [--runs R] [--seed S]

N seeded hands of ``oklahoma`` are played by ``normal`` against ``normal``. Then, R runs each:

1. The analysis of one position (``okgin.advice.analyse``: the suggestion with its reason,
   every discard, near-melds, warnings) at each of seat 0's decisions with a choice, p50/p95,
   beside one decision of ``hard`` at its default budget on the same positions (the peer: the
   player whose move the coach explains), as a ratio of the p95s (most of `hard`'s draws
   take no search, so its median says little).
2. The review of a whole hand (``okgin.advice.review.review_hand`` for seat 0), p50/p95 per hand.

The figures printed are the medians over the runs. Targets (docs/coach.md): one analysis
p95 under 300 ms; a whole hand's review under 2 s.
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
from okgin.rules import Rules  # noqa: E402
from okgin.view import SeatView, seat_view  # noqa: E402


def play(seed: int) -> tuple[Hand, list[SeatView]]:
    """One hand of `normal` against `normal`, and seat 0's views where it had a choice."""
    rng = random.Random(seed)
    rules = Rules()
    hand = Hand(rules, 1, Deal.shuffle(rules, rng))
    players = [make_player("normal", random.Random(seed + s)) for s in range(2)]
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


def timed(work: list[object], run: object) -> list[float]:
    assert callable(run)
    times = []
    for item in work:
        started = time.perf_counter()
        run(item)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    played = [play(args.seed + n) for n in range(args.hands)]
    views = [view for _, hand_views in played for view in hand_views]
    hands = [hand for hand, _ in played]
    hard = make_player("hard", random.Random(args.seed))
    runs: dict[str, list[float]] = {k: [] for k in ("a50", "a95", "h50", "h95", "r50", "r95", "rmax")}
    for _ in range(args.runs):
        analysis = timed(list(views), lambda v: analyse(v, ("You", "Ruby")))
        decision = timed(list(views), hard.act)
        review = timed(list(hands), lambda h: review_hand(h, 0))
        for key, values in (("a", analysis), ("h", decision), ("r", review)):
            runs[key + "50"].append(statistics.median(values))
            runs[key + "95"].append(percentile(values, 0.95))
        runs["rmax"].append(max(review))
    figures = {key: round(statistics.median(values) * 1000, 1) for key, values in runs.items()}
    figures["positions"], figures["hands"], figures["runs"] = len(views), len(hands), args.runs
    print(f"positions {len(views)} from {len(hands)} hands, {args.runs} runs (medians of runs, ms)")
    print(f"analysis of one position  p50 {figures['a50']:7.1f}  p95 {figures['a95']:7.1f}")
    print(f"hard's decision (peer)    p50 {figures['h50']:7.1f}  p95 {figures['h95']:7.1f}  "
          f"analysis/hard p95 ratio {figures['a95'] / figures['h95']:.2f}")
    print(f"review of a whole hand    p50 {figures['r50']:7.1f}  p95 {figures['r95']:7.1f}  "
          f"max {figures['rmax']:7.1f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
