"""How many hands a match lasts under each preset, with 2, 3 and 4 `simple` seats (a report).

    python bench/bench_match_length.py [--matches M] [--seed S] [--jobs J]

Plays M seeded matches per preset and table size (``okgin.sim``'s paired deals: every deal
played once per rotation of the seats) and prints a Markdown table of the hands per match:
mean, median, 95th percentile and longest. Beside the presets, a row plays
``oklahoma-reshuffle`` as it was before issue 14 (no knock bonus), to show why the preset
changed. docs/rules.md keeps the table this printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from okgin.rules import PRESET_NAMES, Rules, preset  # noqa: E402
from okgin.sim import SimConfig, percentile, run  # noqa: E402

OLD_RESHUFFLE = "oklahoma-reshuffle, knock 0 (before)"


def _rules(name: str, players: int) -> Rules:
    if name == OLD_RESHUFFLE:
        return preset("oklahoma-reshuffle").replace(players=players, knock_bonus=0)
    return preset(name).replace(players=players)


def hands_per_match(rules: Rules, matches: int, seed: int, jobs: int) -> list[int]:
    """The number of hands (void ones included) of each of ``matches`` seeded matches."""
    seats = ("simple",) * rules.players
    config = SimConfig(seats, matches, rules, seed=seed, jobs=jobs, max_hands=10_000, timing=False)
    return [len(stats.hand_points) for stats in run(config)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    print("| preset | seats | matches | mean hands | median | p95 | longest |")
    print("|---|---|---|---|---|---|---|")
    for players in (2, 3, 4):
        for name in (*PRESET_NAMES, OLD_RESHUFFLE):
            hands = hands_per_match(_rules(name, players), args.matches, args.seed, args.jobs)
            print(
                f"| {name} | {players} | {len(hands)} | {statistics.fmean(hands):.1f} | "
                f"{statistics.median(hands):g} | {percentile([float(h) for h in hands], 0.95):g} | "
                f"{max(hands)} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
