"""Two `okgin serve` processes behind Debian's nginx running the shipped deploy/okgin.conf:
a room's players all land on one process (hashing on the room code in the /ws URL); that
process is SIGKILLed; two players come back through nginx to the other, which marks the third
away within 15 s (presence through Redis); the host hands that seat to a computer player and
the game is finished. A process that hangs (SIGSTOP) instead is failed over within 15 s: its
room is joined and played on the other. /metrics through nginx is Prometheus text naming the
process that answered."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families
from real_servers import Nginx, Postgres, Redis
from scripted_client import Client, run, take_seat
from server_process import ServerProcess
from test_two_processes import Player, play

THREE = {"preset": "oklahoma-multiplayer", "target": 25}
TWO = {"preset": "oklahoma", "target": 1000}  # no game ends in the few moves played
FAILED_OVER_WITHIN = 15.0
"""Seconds from a process's hang to its room being served again through nginx. deploy/okgin.conf
says so: a connection that brings nothing for 5 s is closed (a healthy process pings a quiet one every 2 s),
the page reconnects 1 s later, and a handshake or /healthz unanswered for 5 s goes to the next
process: at most 11 s, and a few milliseconds there."""


@pytest.fixture
def behind_nginx(tmp_path: Path, postgres: Postgres, redis_server: Redis) -> Iterator[tuple[Any, ...]]:
    url = postgres.fresh_database()
    shared = ("--db", url, "--broker", redis_server.url, "--away-seconds", "1")
    one = ServerProcess(tmp_path / "unused1.db", allow_seeds=True, extra=shared).start()
    two = ServerProcess(tmp_path / "unused2.db", allow_seeds=True, extra=shared).start()
    front = Nginx([one.port, two.port]).start()
    yield one, two, front
    front.stop()
    one.stop()
    two.stop()


def connections(server: ServerProcess) -> float:
    """The WebSocket connections a process holds, read from its own /metrics."""
    text = httpx.get(f"{server.url}/metrics").text
    found = re.search(r"^okgin_connections (\S+)$", text, re.MULTILINE)
    assert found is not None, text[:300]
    return float(found.group(1))


def settled(read: Any, wanted: Any, seconds: float = 30.0) -> Any:
    """``read()`` once it gives ``wanted``, or its last value after ``seconds``."""
    deadline = time.monotonic() + seconds
    value = read()
    while value != wanted and time.monotonic() < deadline:
        time.sleep(0.1)
        value = read()
    return value


def test_a_room_behind_nginx_outlives_the_process_that_held_it(behind_nginx: tuple[Any, ...]) -> None:
    one, two, front = behind_nginx
    ws = front.url.replace("http://", "ws://") + "/ws"

    async def go() -> tuple[dict[str, Any], dict[str, Any]]:
        room, route, host, token = await _hosted(ws, 3, THREE)
        ben = await take_seat(route, room, 1, "Ben")
        cat = await take_seat(route, room, 2, "Cat")
        assert (await host.request({"type": "start", "seed": 3}))["type"] == "ack"

        served = httpx.get(f"{front.url}/healthz", params={"room": room}).json()["process"]
        holder, survivor = (one, two) if one.process.pid == int(served.split("-")[0]) else (two, one)
        assert holder.process.pid == int(served.split("-")[0])
        # The maker's closed connection may not be counted off yet on a loaded machine: wait
        # for the counts to settle (a guard against a hang, not a time limit).
        counts = settled(lambda: (connections(holder), connections(survivor)), (3, 0))
        assert counts == (3, 0), "the room's players were split"

        acked: list[tuple[int, str]] = []
        tokens = {0: token, 1: ben.token}
        finals: list[tuple[dict[str, Any], dict[str, Any]]] = []

        async def person(client: Client, comes_back: bool) -> None:
            try:
                await play(Player(client, acked))
                return
            except (websockets.ConnectionClosed, OSError, TimeoutError):
                if not comes_back:
                    return
            again = await Client.connect(route)  # through nginx, which now sends it to the survivor
            answer = await again.request({"type": "enter", "room": room, "token": tokens[client.seat or 0]})
            assert answer["type"] == "ack", answer
            while again.state is None:
                await again.receive()
            if again.seat == 0:
                await hand_over_the_away_seat(again)
            await play(Player(again, acked))
            assert again.state is not None and again.room_state is not None
            finals.append((again.state, again.room_state))

        async def hand_over_the_away_seat(host: Client) -> None:
            while not (host.room_state and host.room_state["seats"][2]["away"]):
                await host.receive(15)
            away_after.append(time.monotonic() - killed[0])
            for _ in range(100):  # the away grace is 1 s here: the host asks until it is allowed
                answer = await host.request({"type": "computer", "seat": 2, "level": "easy"})
                if answer["type"] == "ack":
                    return
                await asyncio.sleep(0.1)
            raise AssertionError(f"the host could not hand the seat over: {answer}")

        killed: list[float] = []
        away_after: list[float] = []
        playing = asyncio.gather(person(host, True), person(ben, True), person(cat, False))
        while len(acked) < 6:
            await asyncio.sleep(0.01)
        await asyncio.to_thread(holder.kill)
        killed.append(time.monotonic())
        await asyncio.wait_for(playing, 300)
        assert away_after and away_after[0] <= 15, f"the third seat was shown away after {away_after} s"
        assert connections(survivor) == 2
        return finals[0]

    final, room = run(go())
    assert final["final"] is not None, "the game did not finish on the surviving process"
    assert room["seats"][2]["stand_in"] == "easy" and room["seats"][2]["away"], room["seats"][2]


def process_of(text: str) -> str:
    """The process a /metrics answer names (``okgin_process_info{process=...}``)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "okgin_process_info":
                return str(sample.labels["process"])
    raise AssertionError(f"no okgin_process_info in {text[:300]}")


def test_metrics_through_nginx_are_prometheus_text_naming_the_process(
    behind_nginx: tuple[Any, ...],
) -> None:
    one, two, front = behind_nginx
    pids = {str(one.process.pid), str(two.process.pid)}
    answered = set()
    for _ in range(4):  # no room: nginx picks either process
        response = httpx.get(f"{front.url}/metrics")
        assert response.status_code == 200, response.text
        families = {family.name: family for family in text_string_to_metric_families(response.text)}
        assert {"okgin_connections", "okgin_rooms", "okgin_actions", "okgin_action_seconds"} <= set(families)
        answered.add(process_of(response.text))
    assert {process.split("-")[0] for process in answered} <= pids, answered
    for room in ("ABCDEF", "GHJKLM", "NPQRST", "UVWXYZ"):  # a room's process, as /healthz says
        named = httpx.get(f"{front.url}/healthz", params={"room": room}).json()["process"]
        for _ in range(2):
            assert process_of(httpx.get(f"{front.url}/metrics", params={"room": room}).text) == named
    for process in (one, two):  # each process's own port names itself
        assert process_of(httpx.get(f"{process.url}/metrics").text).split("-")[0] == str(process.process.pid)


def ws_read_timeout() -> float:
    """Seconds nginx waits for a word from a process on /ws (deploy/okgin.conf): the handshake's
    answer, and then anything on the open connection."""
    found = re.search(r"location /ws \{[^}]*?proxy_read_timeout (\d+)s;", Nginx.CONFIG.read_text())
    assert found is not None, "deploy/okgin.conf sets no proxy_read_timeout for /ws"
    return float(found.group(1))


def test_a_quiet_table_keeps_its_connection_through_nginx(behind_nginx: tuple[Any, ...]) -> None:
    """Nobody moves for twice nginx's read timeout: the process's pings keep the connection
    open, and the next move is answered on it."""
    _one, _two, front = behind_nginx
    quiet = 2 * ws_read_timeout()

    async def go() -> float:
        host = await Client.connect(front.url.replace("http://", "ws://") + "/ws")
        await host.request({"type": "create", "players": 2, "name": "Ana", "rules": TWO})
        started = time.monotonic()
        with contextlib.suppress(TimeoutError):  # what is measured: the connection outlives this
            await asyncio.wait_for(host.socket.wait_closed(), quiet)
        held = time.monotonic() - started
        assert held >= quiet, f"nginx closed a quiet table's connection after {held:.1f} s"
        assert (await host.request({"type": "options", "coach": False}))["type"] == "ack"
        await host.close()
        return held

    run(go())


async def moves(players: list[Player], acked: list[tuple[int, str]], count: int) -> float:
    """The players play until ``count`` more moves are acknowledged, then stop where they are:
    each looks at the count when its turn comes, so at most one move more is made. Returns the
    monotonic time the count was reached. Stopping the players can take longer (twice under
    load a player waited out Client.receive's 30 s after the count's ack had arrived, most
    likely Python 3.11's wait_for losing a cancellation that came with a frame): that wait is
    the script's, not the server's."""
    wanted = len(acked) + count

    async def person(player: Player) -> None:
        while True:
            await player.client.wait_my_move()
            if len(acked) >= wanted or not await player.move():
                return

    playing = asyncio.gather(*(person(player) for player in players))
    try:
        while len(acked) < wanted:
            if playing.done():
                playing.result()
                raise AssertionError(f"the game ended first: {[p.client.frames[-2:] for p in players]}")
            await asyncio.sleep(0.01)
        return time.monotonic()
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)


def test_a_hung_process_is_failed_over_within_15_s(behind_nginx: tuple[Any, ...]) -> None:
    """SIGSTOP the process holding a room, as its players' pages see it: nginx closes their
    connections (no pings come through them); each reconnects at once, its handshake is
    failed over to the other process (nginx's handshake timeout, then the next upstream),
    comes back to its seat and moves; /healthz?room= names the other process. Each step is
    timed from the stop."""
    one, two, front = behind_nginx
    ws = front.url.replace("http://", "ws://") + "/ws"

    async def go() -> dict[str, float]:
        room, route, host, token = await _hosted(ws, 2, TWO)
        ben = await take_seat(route, room, 1, "Ben")
        assert ben.token is not None
        assert (await host.request({"type": "start", "seed": 3}))["type"] == "ack"
        acked: list[tuple[int, str]] = []
        await moves([Player(host, acked), Player(ben, acked)], acked, 4)

        served = httpx.get(f"{front.url}/healthz", params={"room": room}).json()["process"]
        holder, survivor = (one, two) if one.process.pid == int(served.split("-")[0]) else (two, one)
        wait = 2 * FAILED_OVER_WITHIN  # a guard against a hang, not the limit asserted
        took: dict[str, float] = {}
        holder.pause()
        stopped = time.monotonic()

        async def comes_back(old: Client, seat_token: str) -> Client:
            try:
                await asyncio.wait_for(old.socket.wait_closed(), wait)
            except TimeoutError:
                raise AssertionError(f"nginx held a page's connection to the hung process for "
                                     f"{time.monotonic() - stopped:.1f} s") from None
            took[f"seat {old.seat} closed by nginx"] = time.monotonic() - stopped
            try:
                again = Client(await websockets.connect(route, max_size=2**22, open_timeout=wait))
            except TimeoutError:
                raise AssertionError(f"nginx answered no handshake in {time.monotonic() - stopped:.1f} s "
                                     "of the room's process hanging") from None
            took[f"seat {old.seat} handshake"] = time.monotonic() - stopped
            answer = await again.request({"type": "enter", "room": room, "token": seat_token})
            assert answer["type"] == "ack", answer
            return again

        try:
            again = await asyncio.gather(comes_back(host, token), comes_back(ben, ben.token))

            async def health() -> httpx.Response:
                answer = await asyncio.to_thread(
                    httpx.get, f"{front.url}/healthz", params={"room": room}, timeout=wait)
                took["healthz"] = time.monotonic() - stopped
                return answer

            moved, answer = await asyncio.gather(
                moves([Player(client, acked) for client in again], acked, 1), health())
            took["moved"] = moved - stopped
            assert answer.json()["process"].split("-")[0] == str(survivor.process.pid), answer.text
        finally:
            holder.resume()
        for client in again:
            await client.close()
        return took

    took = run(go())
    print("seconds from the stop:", {what: round(seconds, 2) for what, seconds in took.items()})
    assert max(took.values()) < FAILED_OVER_WITHIN, took


async def _hosted(ws: str, players: int, rules: dict[str, Any]) -> tuple[str, str, Client, str]:
    """A room made through nginx (no room yet: any process makes it), and Ana, its host, back
    in it on the room's own route (``/ws?room=``, so on the process nginx picks for it), with
    her seat's token."""
    maker = await Client.connect(ws)
    await maker.request({"type": "create", "players": players, "name": "Ana", "rules": rules})
    while maker.room is None or maker.token is None:
        await maker.receive()
    room, token = maker.room, maker.token
    await maker.close()
    route = f"{ws}?room={room}"
    host = await Client.connect(route)
    assert (await host.request({"type": "enter", "room": room, "token": token}))["type"] == "ack"
    return room, route, host, token
