"""Tournament benchmark (not a test): a Swiss of 64 entrants over rooms on two `okgin serve`
processes sharing a throwaway PostgreSQL and Redis. Scripted people (``--people``, each a guest
of its own joining through the forms, every other one on the other process) play their tables
over the WebSocket; computer players take the other places and play in the servers.

It reports: the rounds completed and the seconds each took; action -> ack at the person who
moved and action -> update at the other people of the table (across processes when they are on
different ones), p50 and p99; errors (any ``error`` answer to a move, and any failed person);
the servers' RSS before and after.

    nice -n 10 .venv/bin/python bench/bench_tournament.py --entrants 64 --people 16 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rooms_load import Clock, Seat, cluster, pct, rss_kb
from server_process import ServerProcess
from tournament_client import Browser


class Board:
    """The tournament as last read (one poller for every person), and a wake-up on each read."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {"status": "running", "round": 0, "tables": []}
        self.changed = asyncio.Condition()
        self.round_started: dict[int, float] = {}

    async def poll(self, host: Browser, code: str) -> None:
        while True:
            state = await asyncio.to_thread(host.state, code)
            for number in range(1, state["round"] + 1):
                self.round_started.setdefault(number, time.monotonic())
            async with self.changed:
                self.state = state
                self.changed.notify_all()
            if state["status"] == "finished":
                self.round_started.setdefault(state["round"] + 1, time.monotonic())
                return
            await asyncio.sleep(0.25)

    async def table_of(self, seed: int, after: int) -> dict[str, Any] | None:
        """The person's table of the first round after ``after``, once its room exists; None
        when the tournament is over (a bye is skipped)."""
        async with self.changed:
            while True:
                state = self.state
                if state["status"] == "finished":
                    return None
                mine = [t for t in state["tables"]
                        if t["round"] > after and seed in t["seats"] and t["ready"]]
                if mine:
                    return dict(mine[0])
                await self.changed.wait()


async def person(url: str, cookie: str, seed: int, board: Board, clock: Clock, think: float) -> int:
    """Play this person's table every round; return the matches played."""
    played, last = 0, 0
    while (table := await board.table_of(seed, last)) is not None:
        last = table["round"]
        seat = await Seat.connect(url, cookie)
        assert isinstance(seat, Seat)
        seat.clock = clock
        answer = await seat.request({"type": "enter", "room": table["room"]}, 120)
        assert answer["type"] == "ack" and seat.seat == table["seats"].index(seed), answer
        while await seat.move(think):
            pass
        await seat.close()
        played += 1
    return played


async def run(servers: list[ServerProcess], args: argparse.Namespace) -> None:
    pids = [s.process.pid for s in servers if s.process is not None]
    base = sum(rss_kb(pid) for pid in pids)
    host = Browser(servers[0].url)
    fields = {"format": "swiss", "places": str(args.entrants), "table": str(args.table),
              "preset": args.preset, "target": str(args.target), "rounds": str(args.rounds),
              "levels": args.levels}
    code = host.create(fields)
    people = [Browser(servers[n % len(servers)].url) for n in range(args.people)]
    for n, browser in enumerate(people):
        answer = browser.post(f"/t/{code}/join", {"name": f"P{n}"})
        assert answer.status_code == 303, answer.text
    clock = Clock()
    clock.measuring = True
    board = Board()
    started = time.monotonic()
    assert host.post(f"/t/{code}/start", {}).status_code == 303
    poller = asyncio.create_task(board.poll(host, code))
    tasks = [asyncio.create_task(person(servers[n % len(servers)].ws_url, browser.cookie, n, board, clock,
                                        args.think)) for n, browser in enumerate(people)]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    await poller
    elapsed = time.monotonic() - started
    failed = [r for r in results if isinstance(r, BaseException)]
    clock.errors += [f"{type(e).__name__}: {e}" for e in failed]
    end = sum(rss_kb(pid) for pid in pids)
    state = board.state
    marks = [started] + [board.round_started[n] for n in sorted(board.round_started) if n > 1]
    rounds = [f"{b - a:.1f}" for a, b in itertools.pairwise(marks)]
    print(f"swiss: {args.entrants} entrants ({args.people} scripted people, the rest {args.levels}), "
          f"tables of {args.table}, {args.preset} to {args.target}, {len(servers)} processes, "
          f"think {args.think} s")
    print(f"rounds completed: {state['round']} of {args.rounds}, status {state['status']}, "
          f"in {elapsed:.1f} s (each round, s: {', '.join(rounds)}); "
          f"matches {sum(1 for t in state['tables'] if t['result'])}, "
          f"people's matches {sum(r for r in results if isinstance(r, int))}")
    print(f"actions acknowledged: {len(clock.acks)}; errors: {len(clock.errors)} "
          f"{sorted(set(clock.errors))[:3]}")
    print(f"action -> ack:    p50 {pct(clock.acks, .5):.1f} ms   p99 {pct(clock.acks, .99):.1f} ms")
    print(f"action -> update: p50 {pct(clock.updates, .5):.1f} ms   p99 {pct(clock.updates, .99):.1f} ms"
          f"   ({len(clock.updates)} updates at other people's seats)")
    print(f"servers' RSS: {base / 1024:.1f} MB before, {end / 1024:.1f} MB after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--people", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--preset", default="oklahoma-multiplayer")
    parser.add_argument("--target", type=int, default=25)
    parser.add_argument("--levels", default="easy")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a person waits before moving")
    args = parser.parse_args()
    with cluster(2) as made:
        asyncio.run(run(made.servers, args))


if __name__ == "__main__":
    main()
