"""The CPU a small piece of work costs right after the process has waited (a benchmark, not a
test): why the server's CPU per action is higher at a human pace than in the closed loop.

    .venv/bin/python bench/bench_wake_cost.py --repeats 30

Three pieces of work, each timed by its thread's CPU clock (``time.thread_time``), done in a
worker thread as the server does its store reads, after waiting 0, 0.01, 0.1 and 0.5 s:
- a store read: ``TournamentStore.running`` on a fresh SQLite store (one SELECT through
  SQLAlchemy, the read the tournament director makes every second);
- 20,000 additions in a loop (the same few memory pages over and over);
- one pass over 200,000 separate float objects (about 5 MB: many pages, each touched once).

Back to back each costs what it costs. After a wait, on the virtual machines these figures come
from, work that touches much memory costs far more: the loop over few pages slows little,
while the store read and the pass over many pages slow tens of times (no page faults,
no system time: the thread's user time, and its wall time the same). In the closed loop a
server never waits, so a move's work finds its pages warm; at a human pace nearly every message
reaches a process that has been waiting, and pays this again.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from okgin.server.store.storage import Store
from okgin.server.store.tournament_store import TournamentStore

WAITS = (0.0, 0.01, 0.1, 0.5)


def python_loop() -> None:
    total = 0
    for number in range(20_000):
        total += number


OBJECTS = [float(number) for number in range(200_000)]


def pass_over_objects() -> None:
    total = 0.0
    for number in OBJECTS:
        total += number


def thread_cpu_ms(work: Callable[[], object]) -> float:
    start = time.thread_time()
    work()
    return (time.thread_time() - start) * 1000


def medians(work: Callable[[], object], repeats: int, pool: ThreadPoolExecutor) -> list[float]:
    """The median CPU of ``work`` after each wait in WAITS."""
    found = []
    for wait in WAITS:
        times = []
        for _ in range(repeats):
            time.sleep(wait)
            times.append(pool.submit(thread_cpu_ms, work).result())
        found.append(statistics.median(times))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=30, help="timings per wait (the median is shown)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(4) as pool:
        tournaments = TournamentStore(Store(f"sqlite:///{Path(folder) / 'store.db'}").engine)
        rows = {"a store read (TournamentStore.running)": tournaments.running,
                "20,000 additions in a loop": python_loop,
                "a pass over 200,000 objects": pass_over_objects}
        print("| work | " + " | ".join(f"after {wait:g} s" for wait in WAITS) + " |")
        print("|---|" + "---|" * len(WAITS))
        for name, work in rows.items():
            work()  # the first call compiles and caches: not what is measured
            cells = " | ".join(f"{ms:.2f} ms" for ms in medians(work, args.repeats, pool))
            print(f"| {name} | {cells} |")


if __name__ == "__main__":
    main()
