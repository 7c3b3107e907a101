"""Server CPU per acknowledged action at hand 1 and at hand 10 of a game (a benchmark, not a test).

    nice -n 10 .venv/bin/python bench/bench_action_cpu.py --rooms 8 --hands 10 --runs 3 --before c64e1ae
    nice -n 10 .venv/bin/python bench/bench_action_cpu.py --processes 2 --before c64e1ae
    nice -n 10 .venv/bin/python bench/bench_action_cpu.py --processes 2 --nginx
    .venv/bin/python bench/bench_action_cpu.py --processes 2 --nginx --versus-one --runs 5

With ``--nginx`` the two processes are behind Debian's nginx running deploy/okgin.conf: each
room's seats reach it through the room's own URL (``/ws?room=CODE``), so one process serves
the room, as in production.

Starts a throwaway PostgreSQL (tests/support/real_servers.py) and, for each build measured (this tree,
and with ``--before REV`` the okgin package of that git revision, put first on the server's
PYTHONPATH), one `okgin serve --db postgresql+psycopg://…` on a fresh database (with
``--processes 2``, two sharing it and a throwaway Redis, each room's host on the first and its
guest on the second). ``--rooms`` rooms of two scripted people (no computer players, no timer,
a target no game reaches) play ``--hands`` hands, all rooms a hand at the same time; each
action waits for its ack and for both seats' states. The servers' CPU (user + system,
/proc/<pid>/stat, added up) over each hand, divided by the hand's acknowledged actions (moves
and the deal of the next hand), is the figure: it should not grow with the hand number when
what a change writes and reads does not grow with the game. Builds are measured one after the
other in the same run, on the same machine at the same load; with ``--runs N`` they take turns
N times and each hand's figure is the median of its N runs. ``--versus-one`` measures one
process (no proxy, no Redis), and with ``--nginx`` one process behind the same nginx too, in
turn with the setup asked for, for the ratios (the last column against each of the others).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from real_servers import Nginx, Postgres, Redis, free_port
from scripted_client import Client, choose

ROOT = Path(__file__).resolve().parents[1]
RULES = {"preset": "oklahoma", "target": 100_000}


@dataclass(frozen=True)
class Setup:
    """What one column of the table measures: a build, its processes, nginx and Redis."""

    name: str
    source: Path | None  # None: this tree
    processes: int
    nginx: bool
    redis: bool


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(url: str, source: Path | None, broker: str | None) -> tuple[subprocess.Popen[bytes], int]:
    """`okgin serve` on ``url`` (the okgin of ``source`` if given); its process and port."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(source)) if source is not None else None
    if source is None:  # a store of this tree is upgraded first, as an operator would
        subprocess.run([sys.executable, "-m", "okgin.cli", "db", "upgrade", "--db", url], check=True,
                       capture_output=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "okgin.cli", "serve", "--port", str(port), "--db", url, "--allow-seeds",
         "--no-address-limits", "--idle-hours", "0", *(["--broker", broker] if broker else [])],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir(),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            asyncio.run(_probe(port))
            return process, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


async def _probe(port: int) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.close()


def _states(client: Client) -> int:
    """How many state frames ``client`` has received (its frames are read as they come)."""
    count = sum(1 for text in client.frames if text.startswith('{"type":"state"'))
    client.frames.clear()
    _SEEN[client] = _SEEN.get(client, 0) + count
    return _SEEN[client]


_SEEN: dict[Client, int] = {}
"""By the client itself, not its id: a later run's client may be given a closed one's id."""


class Room:
    """Two seated people; ``play_hand`` plays the current hand to its end and deals the next."""

    def __init__(self, seats: list[Client]) -> None:
        self.seats = seats
        self.acked = 0

    @classmethod
    async def open(cls, ws_urls: list[str], seed: int, routed: bool) -> Room:
        host = await Client.connect(ws_urls[0])
        await host.request({"type": "create", "players": 2, "name": "Ann", "rules": RULES})
        if routed:  # behind nginx the page comes back on the room's own URL
            room, token = host.room, host.token
            await host.close()
            ws_urls = [f"{ws_urls[0]}?room={room}"]
            host = await Client.connect(ws_urls[0])
            await host.request({"type": "enter", "room": room, "token": token})
        guest = await Client.connect(ws_urls[-1])
        await guest.request({"type": "enter", "room": host.room})
        await guest.request({"type": "sit", "seat": 1, "name": "Bea"})
        guest.seat = 1
        await host.request({"type": "start", "seed": seed})
        room = cls([host, guest])
        await room._settle([0, 0])
        return room

    async def _settle(self, before: list[int]) -> None:
        """Until each seat has a new state (the change just made, shown to both)."""
        for seat, client in enumerate(self.seats):
            while _states(client) <= before[seat]:
                await client.receive(60)

    async def play_hand(self) -> None:
        host = self.seats[0]
        assert host.state is not None
        number = host.state["hand_number"]
        while True:
            state = host.state
            assert state is not None
            if state["view"]["result"] is not None:
                mover, message = host, {"type": "next", "hand": number}
            else:
                to_act = state["view"]["to_act"]
                mover = self.seats[to_act]
                assert mover.state is not None
                message = choose(mover.state) or {}
            before = [_states(client) for client in self.seats]
            answer = await mover.request(message, 60)
            assert answer["type"] == "ack", (message, answer)
            self.acked += 1
            await self._settle(before)
            if message["type"] == "next":
                return


async def measure(
    ws_urls: list[str], pids: list[int], rooms: int, hands: int, routed: bool,
) -> list[tuple[int, float, int]]:
    """(hand number, the servers' CPU seconds, acknowledged actions) for each hand."""
    tables = [await Room.open(ws_urls, seed, routed) for seed in range(1, rooms + 1)]
    figures = []
    for number in range(1, hands + 1):
        acked, cpu = sum(t.acked for t in tables), sum(map(cpu_seconds, pids))
        await asyncio.gather(*(t.play_hand() for t in tables))
        figures.append((number, sum(map(cpu_seconds, pids)) - cpu, sum(t.acked for t in tables) - acked))
    for table in tables:
        for client in table.seats:
            await client.close()
    return figures


def build_source(revision: str) -> Path:
    """The okgin package of git ``revision``, in a temp dir to put first on PYTHONPATH."""
    where = Path(tempfile.mkdtemp(prefix="okgin-before-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "okgin"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=8)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument("--before", default=None, help="a git revision to measure beside this tree")
    parser.add_argument("--nginx", action="store_true", help="the processes behind deploy/okgin.conf")
    parser.add_argument("--redis", action="store_true", help="one process with --broker redis:// too")
    parser.add_argument("--runs", type=int, default=1, help="runs of each build, in turn (medians shown)")
    parser.add_argument("--versus-one", action="store_true",
                        help="one process (no nginx, no Redis) in turn with this setup, for the ratio")
    args = parser.parse_args()
    two = args.processes == 2
    here = Setup("this tree", None, args.processes, args.nginx, two or args.redis)
    setups = [here]
    if args.before:
        setups.insert(0, Setup(f"before ({args.before})", build_source(args.before), args.processes,
                               args.nginx, two or args.redis))
    elif args.versus_one:  # one process as it is, and behind the same nginx: the proxy's share
        setups[:0] = [Setup("one process", None, 1, False, False)]
        if args.nginx:
            setups.insert(1, Setup("one process behind nginx", None, 1, True, False))
    postgres = Postgres().start()
    redis = Redis().start() if any(setup.redis for setup in setups) else None
    runs: dict[str, list[list[float]]] = {setup.name: [] for setup in setups}
    try:
        for _ in range(args.runs):  # the builds in turn, run after run: the same load for each
            for setup in setups:
                figures = run_build(postgres, redis if setup.redis else None, setup, args)
                runs[setup.name].append([cpu / acked * 1000 for _, cpu, acked in figures])
                print(f"{setup.name}: " + " ".join(f"{ms:.2f}" for ms in runs[setup.name][-1]), flush=True)
    finally:
        postgres.stop()
        if redis is not None:
            redis.stop()
    where = f"{args.processes} process{'es' if two else ''}"
    print(f"server CPU per acknowledged action (ms), {args.rooms} rooms of 2, PostgreSQL, {where}"
          f"{' behind nginx' if args.nginx else ''}{', --broker redis' if args.redis else ''}"
          f"{' (and one process, for the ratio)' if args.versus_one else ''}; "
          f"the median of {args.runs} run{'s' if args.runs > 1 else ''} for each hand")
    names = list(runs)
    ratios = [f"ratio to {name}" for name in names[:-1]]
    print("| hand | " + " | ".join(names + ratios) + " |")
    rows = [("all hands", [statistics.median(ms for run in runs[name] for ms in run) for name in names])]
    rows += [(str(number + 1), [statistics.median(run[number] for run in runs[name]) for name in names])
             for number in range(args.hands)]
    for label, cells in rows:
        row = [f"{cell:.2f}" for cell in cells] + [f"{cells[-1] / cell:.2f}" for cell in cells[:-1]]
        print(f"| {label} | " + " | ".join(row) + " |")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def run_build(
    postgres: Postgres, redis: Redis | None, setup: Setup, args: argparse.Namespace,
) -> list[tuple[int, float, int]]:
    """One setup measured once: fresh database, fresh servers (and nginx), all its hands."""
    url = postgres.fresh_database()
    broker = redis.url if redis else None
    servers = [start_server(url, setup.source, broker) for _ in range(setup.processes)]
    front = Nginx([port for _, port in servers], address_limits=False).start() if setup.nginx else None
    try:
        ws_urls = [f"ws://127.0.0.1:{port}/ws" for _, port in servers]
        if front is not None:
            ws_urls = [front.url.replace("http://", "ws://") + "/ws"]
        pids = [process.pid for process, _ in servers]
        return asyncio.run(measure(ws_urls, pids, args.rooms, args.hands, setup.nginx))
    finally:
        if front is not None:
            front.stop()
        for process, _ in servers:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
