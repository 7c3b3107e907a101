"""Load benchmark (not a test): many simultaneous games over WebSockets on loopback.

Each game is a scripted client (seat 0) against computer players, with no artificial
delay. It reports the time from sending an action to its acknowledgement (p50/p99; the
game is saved before the acknowledgement) and the server's memory per game (RSS growth
divided by the games open).

    .venv/bin/python bench/bench_load.py --games 200 --seconds 30
    .venv/bin/python bench/bench_load.py --games 200 --hard 10   # 10 of them against `hard`
    .venv/bin/python bench/bench_load.py --games 200 --think 0.5 # a pause before each move

With ``--think 0`` (the default) every client moves the instant it may: a closed loop that
keeps the server saturated, so its latencies are mostly queueing behind the other games.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from scripted_client import Client
from server_process import ServerProcess


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def one_game(
    url: str, level: str, until: list[float], opened: asyncio.Event, count: list[int], seconds: float,
    think: float,
) -> Client:
    client = await Client.connect(url)
    await client.open_game({"type": "new", "opponents": [level]})
    count[0] += 1
    if count[0] == count[1]:
        until[0] = time.monotonic() + seconds
        opened.set()
    await opened.wait()
    while time.monotonic() < until[0]:
        if think:
            await client.wait_my_move()
            await asyncio.sleep(think * (0.5 + random.random()))
        if not await client.step():  # game over: start another
            await client.open_game({"type": "new", "opponents": [level]})
    await client.close()
    return client


async def run(url: str, games: int, hard: int, seconds: float, think: float, pid: int) -> None:
    base = rss_kb(pid)
    opened = asyncio.Event()
    count = [0, games]
    until = [0.0]
    levels = ["hard"] * hard + ["normal"] * (games - hard)
    tasks = [
        asyncio.create_task(one_game(url, level, until, opened, count, seconds, think)) for level in levels
    ]
    await opened.wait()
    loaded = rss_kb(pid)
    started = time.monotonic()
    clients = await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    report(clients, levels, games, think, elapsed, base, loaded, rss_kb(pid))


def report(clients: list[Client], levels: list[str], games: int, think: float, elapsed: float,
           base: int, loaded: int, end: int) -> None:
    def pct(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    every = [x for c in clients for x in c.latencies]
    normal = [x for c, lv in zip(clients, levels, strict=True) if lv == "normal" for x in c.latencies]
    print(f"games: {games}, think {think} s ({levels.count('hard')} against hard), {elapsed:.1f} s, "
          f"{len(every)} acknowledged actions ({len(every) / elapsed:.0f}/s)")
    print(f"action -> ack, all games:    p50 {pct(every, .5):.1f} ms   p99 {pct(every, .99):.1f} ms   "
          f"max {max(every) * 1000:.1f} ms   mean {statistics.mean(every) * 1000:.1f} ms")
    if levels.count("hard"):
        print(f"action -> ack, normal games: p50 {pct(normal, .5):.1f} ms   p99 {pct(normal, .99):.1f} ms")
    print(f"server RSS: {base / 1024:.1f} MB idle, {loaded / 1024:.1f} MB with {games} games open, "
          f"{end / 1024:.1f} MB at the end; {(loaded - base) / games:.1f} KB per game when opened, "
          f"{(end - base) / games:.1f} KB per game at the end")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--hard", type=int, default=0, help="how many games are against `hard`")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a client waits before moving")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the games play")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # One address opens every game: only the per-connection limits apply.
        server = ServerProcess(Path(tmp) / "bench.db", extra=("--no-address-limits",)).start()
        try:
            assert server.process is not None
            pid = server.process.pid
            asyncio.run(run(server.ws_url, args.games, args.hard, args.seconds, args.think, pid))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
