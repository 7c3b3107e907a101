"""A scripted player over the WebSocket protocol, for the server tests, the load benchmark
and the crash test: it plays seat 0 with a plain strategy and keeps every frame it gets."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import httpx
import websockets

T = TypeVar("T")
CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")
CARD_POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end in a thread of its own, so it never meets another event loop
    (Playwright's sync API keeps one running in the main thread during the browser tests)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def choose(state: dict[str, Any]) -> dict[str, Any] | None:
    """The next message to send for this page's seat, or None when the game is over."""
    view = state["view"]
    if state["final"] is not None:
        return None
    if view["result"] is not None:
        return {"type": "next", "hand": state["hand_number"]}
    legal = view["legal"]
    if not legal:
        raise AssertionError("asked to move when not our turn")
    knocks = view["knock_options"]
    if knocks:
        card = min(knocks, key=lambda c: (knocks[c], c))
        return {"type": "act", "action": f"knock {card}"}
    if "big-gin" in legal:
        return {"type": "act", "action": "big-gin"}
    if "draw" in legal:
        return {"type": "act", "action": "draw"}
    if "pass" in legal:
        return {"type": "act", "action": "pass"}
    loose = [c for c in view["arrangement"]["unmatched"] if f"discard {c}" in legal]
    pool = loose or [a.split()[1] for a in legal if a.startswith("discard ")]
    card = max(pool, key=lambda c: (CARD_POINTS[c[0]], c))
    return {"type": "act", "action": f"discard {card}"}


def my_move(state: dict[str, Any]) -> bool:
    view = state["view"]
    return state["final"] is not None or view["result"] is not None or (
        view["seat"] is not None and view["to_act"] == view["seat"])


class Client:
    """One connection: ``request`` sends a message and waits for its answer."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.frames: list[str] = []
        self.state: dict[str, Any] | None = None
        self.game: str | None = None
        self.room: str | None = None
        self.token: str | None = None
        self.seat: int | None = 0
        self.room_state: dict[str, Any] | None = None
        self.said: list[dict[str, Any]] = []
        self.latencies: list[float] = []
        self._next_id = 1

    @classmethod
    async def connect(cls, url: str, cookie: str | None = None) -> Client:
        """A connection, as the browser whose session cookie is ``cookie`` (None: a program)."""
        headers = {"Cookie": f"okgin_session={cookie}"} if cookie else None
        return cls(await websockets.connect(url, max_size=2**22, additional_headers=headers))

    async def close(self) -> None:
        await self.socket.close()

    async def receive(self, timeout: float = 30.0) -> dict[str, Any]:
        text = await asyncio.wait_for(self.socket.recv(), timeout)
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "joined":
            self.game, self.room, self.seat = message["game"], message["room"], message["seat"]
            self.token = message.get("token", self.token)
        elif message["type"] == "room":
            self.room_state = message
            self.game = message["game"] or self.game
        elif message["type"] == "said":
            self.said.append(message)
        return message

    async def request(self, message: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Send ``message`` with a fresh id; return its ack, error or hint (states are kept).
        A scripted client outpaces any person: past the rate limit it waits and sends again."""
        for _ in range(50):
            answer = await self._request_once(message, timeout)
            if answer["type"] != "error" or not answer["message"].startswith("too many messages:"):
                return answer
            await asyncio.sleep(0.1)
        return answer

    async def _request_once(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        ident = self._next_id
        self._next_id += 1
        started = time.perf_counter()
        await self.socket.send(json.dumps({**message, "id": ident}))
        while True:
            answer = await self.receive(timeout)
            if answer.get("id") == ident and answer["type"] in ("ack", "error", "hint", "advice", "review"):
                if answer["type"] == "ack":
                    self.latencies.append(time.perf_counter() - started)
                return answer

    async def open_game(self, message: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Send a new or join message and return the first state."""
        await self.socket.send(json.dumps(message))
        while True:
            answer = await self.receive(timeout)
            if answer["type"] == "error":
                raise AssertionError(answer["message"])
            if answer["type"] == "state":
                return answer

    async def wait_my_move(self, timeout: float = 30.0) -> dict[str, Any]:
        """Wait until the person may move (or the hand or game is over)."""
        while self.state is None or not my_move(self.state):
            await self.receive(timeout)
        return self.state

    async def step(self, timeout: float = 30.0) -> bool:
        """Make one move; False when the game is over."""
        state = await self.wait_my_move(timeout)
        message = choose(state)
        if message is None:
            return False
        answer = await self.request(message, timeout)
        if answer["type"] == "error":
            raise AssertionError(f"{message}: {answer['message']}")
        return True

    async def play(self, max_moves: int = 5000) -> dict[str, Any]:
        for _ in range(max_moves):
            if not await self.step():
                assert self.state is not None
                return self.state
        raise AssertionError("the game did not end")


def assert_fair(frames: list[str]) -> None:
    """No state frame holds a card the seat could not see: its hand, or cards shown face up."""
    seen: set[str] = set()
    for text in frames:
        message = json.loads(text)
        if message["type"] != "state":
            continue
        view = message["view"]
        if view["result"] is not None:
            seen = set()  # the hand is over: everything is revealed, the next hand starts afresh
            continue
        seen |= set(view["hand"]) | set(view["discards"]) | {view["upcard"]}
        seen |= {card for taken in view["picked"] for card in taken}
        seen |= {a.split()[2] for a in view["history"] if " discard " in a}
        leaked = set(CARD.findall(text)) - seen
        assert not leaked, f"frame shows {sorted(leaked)}: {text[:200]}"


async def open_room(url: str, players: int, name: str = "Ann", rules: Any = "oklahoma",
                    timer: int | None = None, cookie: str | None = None, coach: bool | None = None,
                    listed: bool | None = None) -> Client:
    """A host: a new room of ``players`` seats, the host at seat 0 (``coach``: allowed or not,
    ``listed``: an open table or not, None to leave the field out)."""
    host = await Client.connect(url, cookie)
    made: dict[str, Any] = {"type": "create", "players": players, "name": name, "rules": rules,
                            "timer": timer}
    chosen = {"coach": coach, "listed": listed}
    answer = await host.request({**made, **{k: v for k, v in chosen.items() if v is not None}})
    assert answer["type"] == "ack", answer
    return host


async def take_seat(url: str, room: str, seat: int, name: str, cookie: str | None = None) -> Client:
    """A guest who opens the invite link and takes ``seat``."""
    guest = await Client.connect(url, cookie)
    answer = await guest.request({"type": "enter", "room": room})
    assert answer["type"] == "ack", answer
    answer = await guest.request({"type": "sit", "seat": seat, "name": name})
    assert answer["type"] == "ack", answer
    return guest


async def person_plays(ws_url: str, cookie: str, room: str) -> Client:
    """A person (by their session's cookie) opens the table they are seated at and plays the
    game out by ``choose``; their client, closed, holding the last state."""
    client = await Client.connect(ws_url, cookie)
    answer = await client.request({"type": "enter", "room": room})
    assert answer["type"] == "ack", answer
    await client.play()
    await client.close()
    return client


async def wait_for(client: Client, test: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Receive until a message passes ``test``; return it."""
    while True:
        message = await client.receive(timeout)
        if test(message):
            return message


async def until(test: Any, what: str, timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds (looked at every 20 ms), for something that sends no frame
    to wait on (a hall's state, a room's watchers); fail saying ``what`` did not happen."""
    give_up = time.monotonic() + timeout
    while not test():
        if time.monotonic() > give_up:
            raise AssertionError(f"{what} within {timeout} s")
        await asyncio.sleep(0.02)


def new_guest(base_url: str) -> str:
    """A browser's first visit to the game page: the session cookie the server gave it."""
    return str(httpx.get(base_url + "/").cookies["okgin_session"])
