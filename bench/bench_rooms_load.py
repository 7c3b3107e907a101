"""Rooms load benchmark (not a test): 500 rooms of 2-4 scripted people, on one `okgin serve`
process or on two behind one address (clients alternate between the two ports: a tiny
round-robin; or, with ``--nginx``, Debian's nginx running deploy/okgin.conf in front, which
sends every seat of a room to one process), state in a throwaway PostgreSQL, events through a
throwaway Redis.

It reports, over the measured seconds:
- action -> ack: from sending an action to its acknowledgement at the seat that moved (the
  change is saved, and shown to that process's seats, before the ack);
- action -> update: from sending an action to the moment each *other* seat of the room
  receives the state showing it (across processes when the seats are on different ones);
- errors (answers of type "error", a compare-and-set refusal included) and actions per second;
- memory per room: the servers' RSS growth while the rooms are open, divided by the rooms.

    nice -n 19 .venv/bin/python bench/bench_rooms_load.py --rooms 500 --processes 1 --think 2
    nice -n 19 .venv/bin/python bench/bench_rooms_load.py --rooms 500 --processes 2 --think 2
    nice -n 19 .venv/bin/python bench/bench_rooms_load.py --rooms 500 --processes 2 --think 0
    nice -n 19 .venv/bin/python bench/bench_rooms_load.py --rooms 500 --processes 2 --think 2 --nginx

With ``--think 0`` every person moves the instant it may (closed loop): the actions per
second is then the saturation figure, and latencies are mostly queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from real_servers import Nginx, Postgres, Redis
from scripted_client import Client, choose
from server_process import ServerProcess

NGINX = [False]
"""Whether the servers are behind nginx (set by ``--nginx``)."""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Clock:
    """When each action was sent, by (room, hand, history length after it); what was measured."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int, int], float] = {}
        self.acks: list[float] = []
        self.updates: list[float] = []
        self.errors: list[str] = []
        self.measuring = False


class Seat(Client):
    """A scripted person who notes when the others' states arrive."""

    clock: Clock
    last_frame = 0.0

    async def receive(self, timeout: float = 60.0) -> dict[str, Any]:
        message = await super().receive(timeout)
        self.last_frame = time.monotonic()
        if message["type"] == "state" and self.room is not None and self.clock.measuring:
            key = (self.room, message["hand_number"], len(message["view"]["history"]))
            sent = self.clock.sent.get(key)
            mover = message["view"]["history"][-1].split()[0] if message["view"]["history"] else None
            if sent is not None and mover != str(self.seat):
                self.clock.updates.append(time.perf_counter() - sent)
        return message

    async def move(self, think: float) -> bool:
        state = await self.wait_my_move(120)
        message = choose(state)
        if message is None:
            return False
        if think:
            await asyncio.sleep(think * (0.5 + random.random()))
        if message["type"] == "act" and self.room is not None:
            key = (self.room, state["hand_number"], len(state["view"]["history"]) + 1)
            self.clock.sent[key] = time.perf_counter()
        started = time.perf_counter()
        answer = await self.request(message, 120)
        if self.clock.measuring:
            if answer["type"] == "ack":
                self.clock.acks.append(time.perf_counter() - started)
            elif message["type"] == "act":  # "next" pressed by two seats at once is expected
                self.clock.errors.append(answer["message"])
        if answer["type"] == "error":
            await self.request({"type": "options", "coach": False}, 120)  # look again
        return True


async def connect(url: str, clock: Clock) -> Seat:
    client = await Seat.connect(url)
    assert isinstance(client, Seat)
    client.clock = clock
    return client


async def open_room(urls: list[str], first: int, players: int, clock: Clock) -> list[Seat]:
    """A room made through one process, each other seat taken through the next (round-robin).
    Behind nginx (one URL) the host comes back on the room's own URL, as the page does."""
    host = await connect(urls[first % len(urls)], clock)
    await host.request({"type": "create", "players": players, "name": "Host", "rules": "oklahoma"}, 120)
    while host.room is None or host.token is None:
        await host.receive()
    if len(urls) == 1 and "/ws" in urls[0] and NGINX[0]:
        room, token = host.room, host.token
        await host.close()
        urls = [f"{urls[0]}?room={room}"]
        host = await connect(urls[0], clock)
        await host.request({"type": "enter", "room": room, "token": token}, 120)
    seats = [host]
    for seat in range(1, players):
        guest = await connect(urls[(first + seat) % len(urls)], clock)
        await guest.request({"type": "enter", "room": host.room}, 120)
        answer = await guest.request({"type": "sit", "seat": seat, "name": f"P{seat}"}, 120)
        assert answer["type"] == "ack", answer
        seats.append(guest)
    answer = await host.request({"type": "start"}, 120)
    assert answer["type"] == "ack", answer
    return seats


async def play(seat: Seat, until: list[float], think: float) -> None:
    while time.monotonic() < until[0]:
        if not await seat.move(think):
            return  # the game is over (rare within the measured seconds)


async def run(urls: list[str], rooms: int, seconds: float, think: float, pids: list[int],
              seats: tuple[int, ...] = (2, 3, 4)) -> None:
    clock = Clock()
    base = sum(rss_kb(pid) for pid in pids)
    rng = random.Random(1)
    sizes = [rng.choice(seats) for _ in range(rooms)]
    opening = time.monotonic()
    tables: list[list[Seat]] = []
    for batch in range(0, rooms, 50):  # 50 rooms at a time: opening is not what is measured
        tables += await asyncio.gather(*(open_room(urls, sum(sizes[:i]), sizes[i], clock)
                                         for i in range(batch, min(rooms, batch + 50))))
    opened = time.monotonic() - opening
    loaded = sum(rss_kb(pid) for pid in pids)
    until = [time.monotonic() + seconds]
    clock.measuring = True
    started = time.monotonic()
    cpu = [sum(cpu_seconds(pid) for pid in pids), time.process_time()]
    asyncio.get_running_loop().call_later(seconds, _cpu_used, cpu, pids)
    asyncio.get_running_loop().call_later(seconds, setattr, clock, "measuring", False)
    tasks = [asyncio.create_task(play(seat, until, think)) for table in tables for seat in table]
    _, waiting = await asyncio.wait(tasks, timeout=seconds + 10)  # seats still waiting for a turn
    for task in waiting:
        task.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    failed = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception()]
    clock.errors += [f"{type(e).__name__}: {e}" for e in failed]
    # A room where nobody got a frame in the last 10 measured seconds missed an update
    # (unless its game is over: a Big Gin can end one in its first hand).
    stalled = [table for table in tables if max(s.last_frame for s in table) < started + seconds - 10
               and not (table[0].state and table[0].state["final"])]
    print(f"rooms with no frame in the last 10 measured seconds: {len(stalled)}")
    for table in stalled[:3]:
        print("  stalled:", [_where(seat) for seat in table])
    end = sum(rss_kb(pid) for pid in pids)
    for table in tables:
        for seat in table:
            await seat.close()
    report(clock, rooms, sizes, len(pids), think, opened, seconds, base, loaded, end)
    print(f"CPU in the measured {seconds:.0f} s: servers {cpu[0]:.1f} s "
          f"({cpu[0] * 1000 / max(1, len(clock.acks)):.2f} ms per acknowledged action), "
          f"the clients {cpu[1]:.1f} s, on 2 cores shared with other work")


def _cpu_used(cpu: list[float], pids: list[int]) -> None:
    """At the end of the measured seconds: what the servers and the clients used since the start."""
    cpu[0] = sum(cpu_seconds(pid) for pid in pids) - cpu[0]
    cpu[1] = time.process_time() - cpu[1]


def _where(seat: Seat) -> str:
    """What one seat last saw: whose turn, whether the hand or game is over."""
    state = seat.state
    if state is None:
        return f"seat {seat.seat}: no state"
    view = state["view"]
    return (f"seat {seat.seat}: hand {state['hand_number']}, {len(view['history'])} actions, "
            f"to act {view['to_act']}, over {view['result'] is not None}, final {state['final'] is not None}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def report(clock: Clock, rooms: int, sizes: list[int], processes: int, think: float, opened: float,
           elapsed: float, base: int, loaded: int, end: int) -> None:
    print(f"{rooms} rooms ({sizes.count(2)} of 2, {sizes.count(3)} of 3, {sizes.count(4)} of 4 seats, "
          f"{sum(sizes)} people), {processes} process(es){' behind nginx' if NGINX[0] else ''}, "
          f"think {think} s; opened in {opened:.1f} s, "
          f"measured {elapsed:.1f} s")
    print(f"actions acknowledged: {len(clock.acks)} ({len(clock.acks) / elapsed:.0f}/s); "
          f"errors: {len(clock.errors)} {sorted(set(clock.errors))[:3]}")
    print(f"action -> ack:    p50 {pct(clock.acks, .5):.1f} ms   p99 {pct(clock.acks, .99):.1f} ms")
    print(f"action -> update: p50 {pct(clock.updates, .5):.1f} ms   p99 {pct(clock.updates, .99):.1f} ms"
          f"   ({len(clock.updates)} updates at other seats)")
    print(f"servers' RSS: {base / 1024:.1f} MB idle, {loaded / 1024:.1f} MB with the rooms open, "
          f"{end / 1024:.1f} MB at the end; {(loaded - base) / rooms:.1f} KB per room when opened, "
          f"{(end - base) / rooms:.1f} KB per room at the end")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--processes", type=int, default=1, choices=(1, 2))
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds a person waits before moving")
    parser.add_argument("--seats", type=int, nargs="+", choices=(2, 3, 4), default=[2, 3, 4],
                        help="each room's seats, drawn from these (default: 2, 3 or 4)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the rooms play")
    parser.add_argument("--nginx", action="store_true",
                        help="put Debian's nginx with deploy/okgin.conf in front (its per-address "
                             "limits lifted: every scripted player comes from 127.0.0.1)")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # ~1,500 sockets each side, servers inherit it
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with cluster(args.processes) as made:
        servers = made.servers
        pids = [server.process.pid for server in servers if server.process is not None]
        urls = [s.ws_url for s in servers]
        if args.nginx:
            NGINX[0] = True
            made.front = Nginx([s.port for s in servers], address_limits=False).start()
            urls = [made.front.url.replace("http://", "ws://") + "/ws"]
        asyncio.run(run(urls, args.rooms, args.seconds, args.think, pids, tuple(args.seats)))


@dataclass
class Cluster:
    """The benchmark's `okgin serve` processes (and nginx in front, once started)."""

    servers: list[ServerProcess] = field(default_factory=list)
    front: Nginx | None = None


@contextlib.contextmanager
def cluster(processes: int) -> Iterator[Cluster]:
    """A throwaway PostgreSQL and Redis and ``processes`` servers on them (no address limits):
    all stopped at the end, and on ^C or SIGTERM, so no server outlives the benchmark."""
    postgres, redis = Postgres().start(), Redis().start()
    made = Cluster()

    def stop() -> None:
        if made.front is not None:
            made.front.stop()
        for server in made.servers:
            server.stop()
        redis.stop()
        postgres.stop()

    def interrupted(*_: object) -> None:
        stop()
        os._exit(130)

    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    try:
        shared = ("--db", postgres.fresh_database(), "--broker", redis.url, "--no-address-limits")
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(processes):
                made.servers.append(ServerProcess(Path(tmp) / f"unused{n}.db", extra=shared).start())
            yield made
    finally:
        stop()


if __name__ == "__main__":
    main()
