"""The connection limits know a player from a flood: players behind one address (an office,
a school, a phone carrier's NAT) coming back with their seat tokens are all served, while
anonymous connections from that address keep the per-address budget."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import websockets
from scripted_client import Client, run
from server_process import ServerProcess

from okgin.server.wire.limits import Limiter, Limits, RateLimited

ROOMS = 25  # two seats each: 50 players


async def _seat_everyone(url: str) -> list[tuple[str, int, str]]:
    """25 rooms of two, every seat a person: (room, seat, token) for 50 players. Three hosts
    make the rooms (a connection may make 10 at once), one guest sits in each in turn."""
    hosts = [await Client.connect(url) for _ in range(3)]
    guest = await Client.connect(url)
    seated = []
    for number in range(ROOMS):
        host = hosts[number % 3]
        answer = await host.request({"type": "create", "players": 2, "name": f"Host {number}"})
        assert answer["type"] == "ack", answer
        seated.append((host.room or "", 0, host.token or ""))
        assert (await guest.request({"type": "enter", "room": host.room}))["type"] == "ack"
        answer = await guest.request({"type": "sit", "seat": 1, "name": f"Guest {number}"})
        assert answer["type"] == "ack", answer
        seated.append((host.room or "", 1, guest.token or ""))
    for client in (*hosts, guest):
        await client.close()
    return seated


async def _come_back(url: str, room: str, token: str) -> int | None:
    """One player's page after the restart: a new connection, entering with its seat token."""
    client = await Client.connect(url)
    try:
        answer = await client.request({"type": "enter", "room": room, "token": token})
        return client.seat if answer["type"] == "ack" else None
    finally:
        await client.close()


async def _flood(url: str, count: int, room: str) -> list[str]:
    """``count`` connections at once, half asking for a game, half entering ``room`` with a
    forged seat token: how each ended ("served", "spectator", or why it was closed)."""
    async def one(number: int) -> str:
        forged = number % 2 == 1
        message = {"type": "enter", "room": room, "token": f"forged-{number}"} if forged else {"type": "new"}
        try:
            async with websockets.connect(url) as socket:
                await socket.send(json.dumps(message))
                answer = json.loads(await asyncio.wait_for(socket.recv(), 30))
                while not forged and answer["type"] != "state":
                    answer = json.loads(await asyncio.wait_for(socket.recv(), 30))
                return "served" if not forged else answer.get("code", answer["type"])
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.reason if closed.rcvd else "closed"
    return list(await asyncio.gather(*(one(number) for number in range(count))))


def test_fifty_players_behind_one_address_come_back_and_a_flood_is_closed(tmp_path: Path) -> None:
    db = tmp_path / "limits.db"
    setup = ServerProcess(db, extra=("--no-address-limits",)).start()
    try:
        seated = run(_seat_everyone(setup.ws_url))
    finally:
        setup.stop()
    server = ServerProcess(db, port=setup.port).start()  # the restart: every page reconnects at once

    async def go() -> tuple[list[int | None], list[str]]:
        players = asyncio.gather(*(_come_back(server.ws_url, room, token) for room, _, token in seated))
        flood = _flood(server.ws_url, 40, seated[0][0])
        return await asyncio.gather(players, flood)

    try:
        back, flood = run(go())
    finally:
        server.stop()
    assert len(seated) == 50
    assert back == [seat for _, seat, _ in seated], "a player with a seat token was refused"
    refused = [reason for reason in flood if reason not in ("served", "bad_token")]
    assert refused, flood  # within the budget a forged token is answered bad_token; past it, closed
    assert set(refused) == {"too many connections from your address: wait a few seconds"}, flood


def test_players_behind_one_address_ask_the_coach_on_their_seats_budgets() -> None:
    """The address's coach budget (here 2, refilled almost never) is spent by anonymous pages;
    a page that came back with a seat token still asks, on its seat's budget, and so does the
    next player's seat; a seat's own budget runs out like an address's."""
    limiter = Limiter(Limits(coach=0.001, coach_burst=100, address_coach=0.001, address_coach_burst=2))
    anonymous = limiter.for_connection("10.0.0.1")
    anonymous.coach()
    anonymous.coach()
    with pytest.raises(RateLimited, match="from your address"):
        limiter.for_connection("10.0.0.1").coach()
    ann, bob = limiter.for_connection("10.0.0.1"), limiter.for_connection("10.0.0.1")
    ann.player("room:0")
    bob.player("room:1")
    ann.coach()
    ann.coach()
    bob.coach()
    with pytest.raises(RateLimited, match="for your seat"):
        ann.coach()
