"""Server CPU per acknowledged action as the server fills: one room, 100 and 500 (a benchmark,
not a test).

    .venv/bin/python bench/bench_rooms_cpu.py --rooms 100 500 --think 0 2 --runs 3
    .venv/bin/python bench/bench_rooms_cpu.py --rooms 500 --think 0 --runs 3 --seats 2

Always two `okgin serve` processes behind Debian's nginx running deploy/okgin.conf, on a
throwaway PostgreSQL and Redis. One room is ``bench/bench_action_cpu.py --rooms 1`` (a room of
two scripted people playing 5 hands as fast as the server answers); the others are
``bench/bench_rooms_load.py`` (rooms of 2 to 4 scripted people, or with ``--seats 2`` rooms of two
like the one room) for each number of rooms and each think time (``--think 0``: every person
moves the moment they may; ``--think 2``: 1 to 3 s before each move, a human pace). All take
turns ``--runs`` times so that each meets the same load, and one table is printed: the servers'
CPU (user + system) divided by the actions acknowledged, the median of the runs, and its ratio
to the one room.

At a human pace a move costs more than in the closed loop: the processes' own upkeep (their
looks at the pool and the tournaments, the pings, presence) is divided among fewer moves, and
each move finds its room's memory cold (``bench/bench_wake_cost.py``). ``--rooms 1`` with
``--think 2`` measures one room at that pace too.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

LOAD = Path(__file__).resolve().parent / "bench_rooms_load.py"
ONE = Path(__file__).resolve().parent / "bench_action_cpu.py"
ALL_HANDS = re.compile(r"^\| all hands \| ([\d.]+) \|", re.MULTILINE)
PER_ACTION = re.compile(r"\(([\d.]+) ms per acknowledged action\)")
RATE = re.compile(r"actions acknowledged: \d+ \((\d+)/s\)")


def measure(rooms: int, think: float, seconds: float, seats: list[int]) -> tuple[float, float]:
    """One run of the load benchmark: (ms of server CPU per action, actions per second)."""
    out = subprocess.run([sys.executable, str(LOAD), "--rooms", str(rooms), "--processes", "2",
                          "--nginx", "--think", str(think), "--seconds", str(seconds),
                          "--seats", *map(str, seats)],
                         capture_output=True, text=True, check=True).stdout
    cpu, rate = PER_ACTION.search(out), RATE.search(out)
    if cpu is None or rate is None:
        raise SystemExit(f"bench_rooms_load.py said nothing of its CPU:\n{out}")
    return float(cpu.group(1)), float(rate.group(1))


def one_room() -> float:
    """One run of one room of two at full speed: ms of server CPU per action."""
    out = subprocess.run([sys.executable, str(ONE), "--rooms", "1", "--hands", "5", "--processes", "2",
                          "--nginx"], capture_output=True, text=True, check=True).stdout
    found = ALL_HANDS.search(out)
    if found is None:
        raise SystemExit(f"bench_action_cpu.py said nothing of its CPU:\n{out}")
    return float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--think", type=float, nargs="+", default=[0.0, 2.0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seats", type=int, nargs="+", choices=(2, 3, 4), default=[2, 3, 4],
                        help="the rooms' seats, drawn from these; 2 alone: rooms like the one room")
    args = parser.parse_args()
    found: dict[tuple[float, int], list[tuple[float, float]]] = {}
    ones: list[float] = []
    for run in range(args.runs):
        ones.append(one_room())
        print(f"run {run + 1}: one room: {ones[-1]} ms", file=sys.stderr)
        for think in args.think:
            for rooms in args.rooms:
                found.setdefault((think, rooms), []).append(measure(rooms, think, args.seconds, args.seats))
                cpu, rate = found[think, rooms][-1]
                print(f"run {run + 1}: think {think:g}, {rooms} rooms: {cpu} ms, {rate}/s", file=sys.stderr)
    base = statistics.median(ones)
    print("| think | rooms | actions/s | server CPU per action (ms) | runs | against one room |")
    print("|---|---|---|---|---|---|")
    print(f"| 0 s | 1 | – | **{base:.2f}** | {', '.join(f'{c:.2f}' for c in ones)} | 1.00× |")
    for (think, rooms), runs in found.items():
        cpu = statistics.median(c for c, _ in runs)
        rate = statistics.median(r for _, r in runs)
        each = ", ".join(f"{c:.2f}" for c, _ in runs)
        print(f"| {think:g} s | {rooms} | {rate:.0f} | **{cpu:.2f}** | {each} | {cpu / base:.2f}× |")


if __name__ == "__main__":
    main()
