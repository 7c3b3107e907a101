"""Flood benchmark (not a test): one client floods the server while another plays; the
player's action-to-acknowledgement p50/p99 with and without the flood, in the same run.

    .venv/bin/python bench/bench_flood.py --moves 300 --rounds 3 [--pin]

With ``--pin`` the server runs on core 0 alone and this benchmark (the flooder and the player)
on core 1, so that the figures measure what the flood costs the server, not the cores the
flooder and the server would otherwise share. The flooder runs in a process of its own, so its
busy loop does not delay the player's client (as one event loop shared by both would).

The floods are those a hostile page could send: `new` messages, hints, and frames of 16 KB
garbage, each as fast as the server reads them, for as long as the player plays; and a
program's requests for the reviews of a public game's hand (``/games/…/review``, the coach's
work on every decision of the hand), 16 at a time, from 60 guests of its address, each with a
budget of its own. The server
refuses what is over its rate limits with an error and closes a connection refused 50 times, or
sent 5 malformed frames; the flooder then opens another and goes on. The question is what the
flood costs the other client. The conditions take turns in rounds (a block of moves each), so a
shared machine's changing load falls on all of them alike; a short unmeasured game first warms
the server up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

import httpx
import websockets
from scripted_client import Client, new_guest
from server_process import ServerProcess

PLAYER_ADDRESS = "127.0.0.2"
FLOODS = {
    "none": "",
    "`new` messages": json.dumps({"type": "new"}),
    "hints": json.dumps({"type": "hint"}),
    "16 KB garbage frames": "[" * 16_000,
    "reviews over HTTP": "",  # the flood of ``reviews``, over HTTP
}
REVIEWS = "reviews over HTTP"
REVIEWERS, AT_ONCE = 60, 16


@dataclass
class Flooded:
    """What a flood sent, and what it was answered."""

    sent: int = 0
    refused: int = 0
    connections: int = 0
    closed: int = 0


class Stop(Protocol):
    """Set when the flood is to end (a multiprocessing Event: the flooder is another process)."""

    def is_set(self) -> bool: ...


async def flood(url: str, frame: str, seen: Flooded, stop: Stop) -> None:
    """Send ``frame`` as fast as the server reads it until ``stop``; when the server closes the
    connection, open another and go on (an attacker does not stop at the first close)."""
    while not stop.is_set():
        client = await Client.connect(url)
        seen.connections += 1
        try:
            await client.open_game({"type": "new"})
        except AssertionError:
            pass  # a new game refused: flood without one
        except websockets.ConnectionClosed:
            seen.closed += 1  # too many connections from this address: closed unanswered
            continue
        reader = asyncio.create_task(_drain(client, seen, stop))
        transport = client.socket.transport
        with contextlib.suppress(websockets.ConnectionClosed):
            while not stop.is_set() and not reader.done():
                await client.socket.send(frame)
                seen.sent += 1
                # A send that fits the buffer neither waits nor yields: wait for the server to
                # read, and let the reader in, or this loop buffers frames without end.
                while transport.get_write_buffer_size() > 65_536 and not reader.done():
                    await asyncio.sleep(0.001)
                await asyncio.sleep(0)
        await reader
        await client.close()


async def _drain(client: Client, seen: Flooded, stop: Stop) -> None:
    while True:
        try:
            message = await client.receive(timeout=0.5)
        except TimeoutError:
            if stop.is_set():
                return
            continue
        except websockets.ConnectionClosed:
            seen.closed += 1
            return
        seen.refused += message["type"] == "error" and message.get("code") == "rate_limited"


async def play(url: str, moves: int) -> list[float]:
    # From another loopback address than the flooder's: the limits per address stay on, as
    # they are for two strangers, and the flood's reconnections do not spend the player's.
    client = Client(await websockets.connect(url, max_size=2**22, local_addr=(PLAYER_ADDRESS, 0)))
    await client.open_game({"type": "new", "opponents": ["easy"]})
    for _ in range(moves):
        await asyncio.sleep(0.03)  # a quick person's pace, well under the rate limit
        if not await client.step():
            await client.open_game({"type": "new", "opponents": ["easy"]})
    await client.close()
    return client.latencies


async def reviews(base_url: str, game: str, guests: list[str], seen: Flooded, stop: Stop) -> None:
    """Ask for the reviews of public ``game``'s first hand ``AT_ONCE`` at a time until ``stop``,
    the ``guests`` (their session cookies) taking turns, a person's budget each."""
    turns = itertools.cycle(guests)
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:

        async def ask() -> None:
            while not stop.is_set():
                answer = await client.get(f"/games/{game}/review?hand=1",
                                          cookies={"okgin_session": next(turns)})
                seen.sent += 1
                seen.refused += answer.status_code in (429, 503)

        await asyncio.gather(*(ask() for _ in range(AT_ONCE)))


async def public_game(url: str, base_url: str) -> str:
    """A finished game (to 25, against `easy`) that its player made public: what the review
    flood asks about."""
    cookie = new_guest(base_url)
    client = await Client.connect(url, cookie=cookie)
    short = {"preset": "oklahoma", "target": 25}
    await client.open_game({"type": "new", "opponents": ["easy"], "rules": short})
    await client.play()
    await client.close()
    game = client.game or ""
    with httpx.Client(base_url=base_url, cookies={"okgin_session": cookie}) as browser:
        csrf = re.search(r'name="csrf" value="([^"]+)"', browser.get("/history").text)
        assert csrf is not None
        said = browser.post(f"/games/{game}/public", data={"csrf": csrf[1], "public": "yes"},
                            headers={"Origin": base_url})
        assert said.status_code in (200, 303), said.text
    return game


def flooder(url: str, frame: str, stop: Stop, answers: Queue[Flooded], cores: set[int] | None) -> None:
    """The flood, in a process of its own: its busy loop must not delay the player's client,
    which a loop shared with it would (the figure is then the client's, not the server's).
    ``frame``: what to send on the WebSocket, or ``reviews base_url game cookie,…`` for the
    review flood."""
    if cores is not None:
        os.sched_setaffinity(0, cores)
    seen = Flooded()
    if frame.startswith("reviews "):
        _, base_url, game, guests = frame.split(" ")
        asyncio.run(reviews(base_url, game, guests.split(","), seen, stop))
    else:
        asyncio.run(flood(url, frame, seen, stop))
    answers.put(seen)


def measure(url: str, frame: str, moves: int, seen: Flooded, cores: set[int] | None) -> list[float]:
    """The player's latencies over ``moves`` moves, with ``frame`` flooded all the while."""
    if not frame:
        return asyncio.run(play(url, moves))
    processes = multiprocessing.get_context("spawn")
    stop, answers = processes.Event(), processes.Queue()
    flooding = processes.Process(target=flooder, args=(url, frame, stop, answers, cores))
    flooding.start()
    time.sleep(0.5)  # the flooder's process started and flooding
    latencies = asyncio.run(play(url, moves))
    stop.set()
    flooded: Flooded = answers.get(timeout=60)
    flooding.join(30)
    for name in ("sent", "refused", "connections", "closed"):
        setattr(seen, name, getattr(seen, name) + getattr(flooded, name))
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="the player's moves under each flood")
    parser.add_argument("--rounds", type=int, default=3,
                        help="the floods take turns in this many rounds, so each meets the same machine load")
    parser.add_argument("--pin", action="store_true",
                        help="the server on core 0, the clients on core 1 (sched_setaffinity)")
    args = parser.parse_args()
    server = ServerProcess(Path(tempfile.mkdtemp()) / "flood.db").start()
    if args.pin:
        assert server.process is not None
        pin(server.process.pid, {0})
        pin(os.getpid(), {1})
    latencies: dict[str, list[float]] = {name: [] for name in FLOODS}
    seen = {name: Flooded() for name in FLOODS}
    try:
        # The server's first games pay for imports, caches and worker threads: not the peer's cost.
        asyncio.run(play(server.ws_url, 30))
        game = asyncio.run(public_game(server.ws_url, server.url))
        guests = ",".join(new_guest(server.url) for _ in range(REVIEWERS))
        floods = {**FLOODS, REVIEWS: f"reviews {server.url} {game} {guests}"}
        print(f"load average {os.getloadavg()[0]:.2f} at the start")
        block = max(1, args.moves // args.rounds)
        for _ in range(args.rounds):
            for name, frame in floods.items():
                latencies[name] += measure(server.ws_url, frame, block, seen[name], {1} if args.pin else None)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
    finally:
        server.stop()
    print(f"{'flood':22} {'acks':>5} {'p50 ms':>7} {'p99 ms':>7} {'p99/peer':>8} {'sent':>8} {'refused':>8} "
          f"{'closed':>7}")
    peer = _p99(latencies["none"])
    for name, values in latencies.items():
        values.sort()
        p50, p99, f = statistics.median(values) * 1000, _p99(values), seen[name]
        print(f"{name:22} {len(values):5d} {p50:7.1f} {p99:7.1f} {p99 / peer:8.2f} {f.sent:8d} "
              f"{f.refused:8d} {f.closed:3d}/{f.connections:<3d}")


def pin(pid: int, cores: set[int]) -> None:
    """Every thread of ``pid`` on ``cores`` (threads made later inherit it from their maker)."""
    for thread in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(thread), cores)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000


if __name__ == "__main__":
    main()
