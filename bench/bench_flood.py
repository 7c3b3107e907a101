"""Flood benchmark (not a test): one client floods the server while another plays; the
player's action-to-acknowledgement p50/p99 with and without the flood, in the same run.

    .venv/bin/python bench/bench_flood.py --moves 300

The floods are those a hostile page could send: 2,000 `new` messages, 5,000 hints, and
5,000 frames of 16 KB garbage, each as fast as the socket takes them. The server refuses
what is over its rate limits with an error, and closes a connection refused 200 times; the
question is what the flood costs the other client. A short unmeasured game first warms the
server up, so the peer (no flood, measured first) does not pay for its first games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import websockets
from scripted_client import Client
from server_process import ServerProcess

FLOODS = {
    "none": [],
    "2,000 new games": [json.dumps({"type": "new"})] * 2000,
    "5,000 hints": [json.dumps({"type": "hint"})] * 5000,
    "5,000 garbage frames of 16 KB": ["[" * 16_000] * 5000,
}


async def flood(url: str, frames: list[str], refused: list[int]) -> None:
    client = await Client.connect(url)
    await client.open_game({"type": "new"})

    async def drain() -> None:
        while True:
            try:
                message = await client.receive(timeout=5)
            except TimeoutError:
                return  # quiet for 5 s: the errors read so far are counted
            except websockets.ConnectionClosed:
                refused[1] = 1  # the server closed the flooding connection (seen while reading)
                return
            refused[0] += message["type"] == "error" and "too many" in message.get("message", "")

    reader = asyncio.create_task(drain())
    try:
        for frame in frames:
            await client.socket.send(frame)
    except websockets.ConnectionClosed:
        refused[1] = 1  # the server closed the flooding connection
    await reader
    await client.close()


async def play(url: str, moves: int) -> list[float]:
    client = await Client.connect(url)
    await client.open_game({"type": "new", "opponents": ["easy"]})
    for _ in range(moves):
        await asyncio.sleep(0.03)  # a quick person's pace, well under the rate limit
        if not await client.step():
            await client.open_game({"type": "new", "opponents": ["easy"]})
    await client.close()
    return client.latencies


async def measure(url: str, frames: list[str], moves: int) -> tuple[list[float], list[int]]:
    refused = [0, 0]
    flooding = asyncio.create_task(flood(url, frames, refused)) if frames else None
    await asyncio.sleep(0.2 if frames else 0)
    latencies = await play(url, moves)
    if flooding is not None:
        await flooding
    return latencies, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    server = ServerProcess(Path(tempfile.mkdtemp()) / "flood.db").start()
    try:
        # The server's first games pay for imports, caches and worker threads: not the peer's cost.
        asyncio.run(play(server.ws_url, 30))
        print(f"load average {os.getloadavg()[0]:.2f} at the start")
        print(f"{'flood':32} {'p50 ms':>8} {'p99 ms':>8}  refused (read)  flooder closed")
        for name, frames in FLOODS.items():
            latencies, refused = asyncio.run(measure(server.ws_url, frames, args.moves))
            latencies.sort()
            p50 = statistics.median(latencies) * 1000
            p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
            closed = "yes" if refused[1] else "no"
            print(f"{name:32} {p50:8.1f} {p99:8.1f}  {refused[0]:14d}  {closed}", flush=True)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
