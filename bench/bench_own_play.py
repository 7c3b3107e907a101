"""How often the coach calls a computer player's own decisions mistakes (a script, not a test).

    .venv/bin/python bench/bench_own_play.py [--level expert] [--hands 8]

Plays ``--hands`` hands of the default rules with ``--level`` in both seats (hand N dealt and
played from seed N: the hands of tests/advice/test_review.py's own-play test), reviews each from
both seats, and prints the decisions judged, those the review calls mistakes (costing at least
``MISTAKE`` points) and their share. Issue 27 asks at most 3% for the levels that search their
close moves (docs/coach.md). The suite checks `hard` on these 8 hands; `expert`'s case (53 s of
CPU on a quiet machine, 109 s in a loaded run of the suite, its dearest test) is measured here.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "advice"))

from test_review import hard_hand

from okgin.advice.review import MISTAKE, review_hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--hands", type=int, default=8)
    args = parser.parse_args()
    started = time.process_time()
    hands = [hard_hand(seed, args.level) for seed in range(args.hands)]  # each played once
    reviews = [review_hand(hand, seat) for hand in hands for seat in (0, 1)]
    decisions = sum(review.decisions for review in reviews)
    mistakes = sum(len(review.mistakes) for review in reviews)
    print(f"{args.level}: {mistakes} of {decisions} decisions ({mistakes / decisions:.1%}) cost at least "
          f"{MISTAKE} points by the review, over {args.hands} hands "
          f"({time.process_time() - started:.0f} s of CPU)")


if __name__ == "__main__":
    main()
