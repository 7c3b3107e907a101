"""The CPU a daily deal's move costs the server (a benchmark, not a test): the person's move and
`hard`'s answers, as ``okgin.daily.answered`` works them out in the server's thinking processes.

    .venv/bin/python bench/bench_daily.py --days 6

Each day (a seed of its own) is played by the tests' two fixed players (tests/support/daily_days.py:
one knocks at its first chance, the other never does), five deals each; every move's CPU time
(``time.process_time``: the replay of the deal's stored moves and `hard`'s search) is taken, and
the percentiles printed (docs/daily.md's Cost).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "support"))

from daily_days import choose

from okgin import daily


def move_costs(days: int) -> list[float]:
    """Every move's CPU seconds over ``days`` days, each played by both fixed players."""
    costs = []
    for number in range(days):
        seed = hashlib.sha256(f"bench daily {number}".encode()).hexdigest()
        for knocker in (True, False):
            for deal in range(daily.DEALS):
                computer_first = daily.computer_to_play(daily.dealt(seed, deal))
                moves = daily.answered(seed, deal, [], None) if computer_first else []
                while (match := daily.replayed(seed, deal, moves)).current is not None:
                    legal = [str(action) for action in match.view(daily.PERSON).legal]
                    started = time.process_time()
                    moves += daily.answered(seed, deal, moves, choose(legal, knocker))
                    costs.append(time.process_time() - started)
    return sorted(costs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=6)
    costs = move_costs(parser.parse_args().days)

    def ms(share: float) -> float:
        return 1000 * costs[min(len(costs) - 1, int(share * len(costs)))]

    print(f"{len(costs)} moves: CPU per move p50 {ms(0.5):.1f} ms, p95 {ms(0.95):.1f} ms, "
          f"p99 {ms(0.99):.1f} ms, most {1000 * costs[-1]:.0f} ms; {sum(costs):.1f} s in all")


if __name__ == "__main__":
    main()
