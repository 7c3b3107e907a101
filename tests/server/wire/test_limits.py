"""The connection limits know a player from a flood: players behind one address (an office,
a school, a phone carrier's NAT) coming back with their seat tokens are all served, while
anonymous connections from that address keep the per-address budget."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from prometheus_client import generate_latest
from scripted_client import Client, new_guest, run
from server_process import ServerProcess

from okgin.server import create_app
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


@pytest.mark.slow
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


def test_players_behind_one_address_each_have_their_own_budgets() -> None:
    """The address's budgets (here 2 coach questions and 2 new games, refilled almost never)
    are spent by anonymous pages, a session with no seat among them; a page whose player took a
    seat still asks and starts games, on its player's budgets, and so does the next player; a
    player's own budget runs out like an address's, and is shared by that player's pages."""
    limiter = Limiter(Limits(coach=0.001, coach_burst=3, address_coach=0.001, address_coach_burst=2,
                             games=0.001, game_burst=3, address_games=0.001, address_game_burst=2))
    anonymous, guest = limiter.for_connection("10.0.0.1"), limiter.for_connection("10.0.0.1", "guest")
    anonymous.coach()
    anonymous.new_game()
    guest.coach()
    guest.new_game()
    for asks in (limiter.for_connection("10.0.0.1").coach, limiter.for_connection("10.0.0.1", "g2").new_game):
        with pytest.raises(RateLimited, match="from your address"):
            asks()
    ann, bob, ann_again = (limiter.for_connection("10.0.0.1", p) for p in ("ann", "bob", "ann"))
    ann.player("player ann")
    bob.player("seat room:1")
    ann_again.player("player ann")
    for _ in range(2):
        ann.coach()
        ann.new_game()
    bob.coach()
    bob.new_game()
    ann_again.coach()
    ann_again.new_game()
    with pytest.raises(RateLimited, match=r"at most 0\.001 a second"):
        ann_again.coach()  # its own connection has more, its player has none
    with pytest.raises(RateLimited, match="too many new games: wait"):
        ann_again.new_game()


def test_a_flooder_that_makes_itself_many_players_is_held_by_its_addresss_ceiling() -> None:
    """Each new player (a guest, a seat) has a connection's budgets, and one address can make
    players only so fast; still, what all of an address's players may do together has a ceiling
    (here 3 of each, far above what people at a person's pace need by default)."""
    limiter = Limiter(Limits(address_player_coach=0.001, address_player_coach_burst=3,
                             address_player_games=0.001, address_player_game_burst=3,
                             address_player_messages=0.001, address_player_message_burst=3))
    made = [limiter.for_connection("10.0.0.1", f"guest {n}") for n in range(4)]
    for n, connection in enumerate(made):
        connection.player(f"player guest {n}")
    for connection in made[:3]:
        connection.coach()
        connection.new_game()
        assert connection.message() is None
    with pytest.raises(RateLimited, match="coach questions from your address"):
        made[3].coach()
    with pytest.raises(RateLimited, match="new games from your address"):
        made[3].new_game()
    assert str(made[3].message()) == "too many messages from your address: slow down"
    elsewhere = limiter.for_connection("10.0.0.2", "guest 9")
    elsewhere.player("player guest 9")
    elsewhere.coach()


def test_pages_with_sessions_open_at_once_within_their_addresss_budget_for_people() -> None:
    """A class opening the page at once: each session's connection spends the session's
    budget and the address's budget for people (here 3); past it, a page is anonymous, on the
    address's connection budget (here 1), and then refused."""
    limiter = Limiter(Limits(address_connections=0.001, address_connection_burst=1,
                             address_session_connections=0.001, address_session_connection_burst=3))
    for person in ("a", "b", "c"):
        limiter.for_connection("10.0.0.1", person)
    limiter.for_connection("10.0.0.1", "d")  # the address's own connection
    with pytest.raises(RateLimited, match="too many connections from your address"):
        limiter.for_connection("10.0.0.1", "e")
    limiter.for_connection("10.0.0.2", "f")  # another address is not this one


def test_an_address_makes_guests_only_so_fast_and_then_gets_pages_without_one(tmp_path: Path) -> None:
    """Every page opened without a session makes a guest: a flooder loading the page in a loop
    would make itself players without end. Past its address's budget (here 3) the page is
    served, but without a session; another address still gets one."""
    db = tmp_path / "games.db"
    app = create_app(f"sqlite:///{db}", limits=Limits(address_guests=0.001, address_guest_burst=3))

    async def load(address: str, path: str = "/") -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(address, 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
            return await web.get(path)

    async def go() -> list[httpx.Response]:
        pages = [await load(address) for address in ["10.0.0.1"] * 5 + ["10.0.0.2"]]
        return [*pages, await load("127.0.0.1", "/metrics")]

    *pages, metrics = run(go())
    assert [page.status_code for page in pages] == [200] * 6
    assert ["set-cookie" in page.headers for page in pages] == [True] * 3 + [False] * 2 + [True]
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM players").fetchall() == [(4,)]
    assert 'okgin_refusals_total{reason="guests"} 2.0' in metrics.text


PLAYERS = 50
"""People behind one address (an office, a school, a phone carrier's NAT), each in its own browser."""
PATIENCE = 180.0
"""Seconds a page waits for an answer: 50 games and their coach at once on a loaded 2-core machine
can be slow, and slow is not what this test is about (refused is)."""


async def _person(url: str, cookie: str, everyone: asyncio.Barrier) -> list[str]:
    """One person's page: a game against the computer with the coach on (a question on each
    turn, then the move), then a new game at the same moment as everyone else. Every refusal
    it meets, in words."""
    refused: list[str] = []
    client = await Client.connect(url, cookie)
    try:
        await everyone.wait()  # every page opens its game at once
        await client.open_game({"type": "new", "opponents": ["easy"]}, PATIENCE)
        for _ in range(2):
            await everyone.wait()  # and asks its coach question on its turn at once
            await client.wait_my_move(PATIENCE)
            advice = await client.request({"type": "advice"}, PATIENCE)
            if advice["type"] == "error":
                refused.append(f"advice: {advice['message']}")
            await asyncio.sleep(0.3)  # a person reads the advice, then moves
            await client.step(PATIENCE)
        await everyone.wait()  # and they all start a new game at once
        again = await client.request({"type": "new", "opponents": ["easy"]}, PATIENCE)
        if again["type"] == "error":
            refused.append(f"new: {again['message']}")
    except websockets.ConnectionClosed as closed:
        refused.append(f"closed: {closed.rcvd.reason if closed.rcvd else ''}")
        await everyone.abort()  # the others stop waiting for this page
    except asyncio.BrokenBarrierError:
        refused.append("stopped: another page was closed or failed")
    except Exception:
        await everyone.abort()  # never leave the others waiting: the test fails, saying why
        raise
    finally:
        await client.close()
    return refused


@pytest.mark.slow
def test_fifty_people_behind_one_address_play_with_the_coach_at_once(tmp_path: Path) -> None:
    """Each person is a session of its own that sits at its own game: limited as a player, not
    as its address, so none of them is ever refused, though every page opens, asks the coach
    and starts a new game at the same moment (the address's budgets are 10 connections at once,
    20 coach questions and 60 new games)."""
    server = ServerProcess(tmp_path / "people.db").start()
    try:
        cookies = [new_guest(server.url) for _ in range(PLAYERS)]
        assert len(set(cookies)) == PLAYERS

        async def go() -> list[list[str]]:
            everyone = asyncio.Barrier(PLAYERS)
            return list(await asyncio.gather(*(_person(server.ws_url, c, everyone) for c in cookies)))

        refusals = run(go())
    finally:
        server.stop()
    met = Counter(reason for person in refusals for reason in person)
    assert not met, f"people behind a shared address were refused: {dict(met)}"


class _StalledPage:
    """A page on the ASGI app itself whose transport stops taking frames after ``taken``: what
    a server's socket does when its client never reads (its write buffer full, every send
    waits). ``resume`` lets the frames through again."""

    def __init__(self, taken: int) -> None:
        self.taken = taken
        self.sent: list[dict[str, Any]] = []
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.flowing = asyncio.Event()
        self.inbox.put_nowait({"type": "websocket.connect"})

    def say(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send(self, message: dict[str, Any]) -> None:
        if len(self.sent) > self.taken:
            await self.flowing.wait()
        self.sent.append(message)

    def frames(self, kind: str) -> list[dict[str, Any]]:
        return [json.loads(m["text"]) for m in self.sent if m["type"] == "websocket.send"
                and json.loads(m["text"])["type"] == kind]


async def _wait(condition: Any, what: str) -> None:
    """Wait for ``condition()`` (checked as the event loop turns), for up to a minute."""
    for _ in range(6000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def test_a_page_too_many_frames_behind_is_closed_and_its_seat_marked_away(tmp_path: Path) -> None:
    """The outbox holds at most Limits.outbox_frames; one more and the page is closed (1008,
    saying why), its seat away as if it had gone; what it was sent before is not lost."""
    app = create_app(f"sqlite:///{tmp_path / 'behind.db'}", limits=Limits(outbox_frames=8))

    async def go() -> tuple[_StalledPage, Any]:
        async with app.router.lifespan_context(app):
            page = _StalledPage(taken=4)
            scope = {"type": "websocket", "path": "/ws", "headers": [(b"host", b"127.0.0.1")],
                     "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "scheme": "ws",
                     "query_string": b"", "subprotocols": [], "extensions": {}}
            serving = asyncio.create_task(app(scope, page.receive, page.send))
            page.say({"type": "create", "players": 2, "name": "Ann", "id": 1})
            await _wait(lambda: page.frames("joined"), "the room made")
            code = page.frames("joined")[0]["room"]
            for ident in range(2, 40):  # each answered (an ack) and shown again (a room frame)
                page.say({"type": "options", "coach": ident % 2 == 0, "id": ident})
            live = await app.state.hall.get(code)
            await _wait(lambda: live.room.seats[0].away_since is not None, "the seat marked away")
            page.flowing.set()
            await asyncio.wait_for(serving, 60)
            return page, live.room.seats[0]

    page, seat = run(go())
    assert b'okgin_refusals_total{reason="behind"} 1.0' in generate_latest(app.state.metrics.registry)
    assert page.sent[-1] == {"type": "websocket.close", "code": 1008,
                             "reason": "more than 8 frames behind: closed"}
    assert seat.kind == "person" and seat.away_since is not None
    assert len(page.sent) < 40  # the frames beyond the bound were never held
