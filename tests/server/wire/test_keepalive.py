"""The WebSockets' keepalive (``okgin.server.wire.keepalive``), on a real server: a quiet
connection is pinged every 2 s, so that a proxy in front (5 s read timeout) keeps it; one that is
sent frames more often than that is not pinged at all, since the frames keep it just as well."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import pytest
from scripted_client import run
from server_process import ServerProcess
from websockets.asyncio.client import ClientConnection, connect
from websockets.frames import Frame, Opcode
from websockets.protocol import Event

from okgin.server.serve import WS_PING_SECONDS

WINDOW = 3.3 * WS_PING_SECONDS
"""How long each connection is watched: a quiet one is pinged at 2, 4 and 6 s."""


class CountingPings(ClientConnection):
    """A client connection that counts the pings it is sent (and answers them as any does)."""

    pings = 0

    def process_event(self, event: Event) -> None:
        if isinstance(event, Frame) and event.opcode is Opcode.PING:
            self.pings += 1
        super().process_event(event)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("keepalive") / "keepalive.db").start()
    yield process
    process.stop()


async def _quiet(url: str) -> int:
    async with connect(url, create_connection=CountingPings, ping_interval=None) as socket:
        await asyncio.sleep(WINDOW)
        assert isinstance(socket, CountingPings)
        return socket.pings


async def _busy(url: str) -> tuple[int, int]:
    """Pings, and answers, while asking something every half second (a move with no game open:
    an error frame, which changes nothing)."""
    answers = 0
    async with connect(url, create_connection=CountingPings, ping_interval=None) as socket:
        assert isinstance(socket, CountingPings)
        deadline = time.monotonic() + WINDOW
        while time.monotonic() < deadline:
            await socket.send(json.dumps({"type": "act", "action": "draw"}))
            answer = json.loads(await asyncio.wait_for(socket.recv(), 10))
            assert answer["type"] == "error", answer
            answers += 1
            await asyncio.sleep(WS_PING_SECONDS / 4)
        return socket.pings, answers


def test_a_quiet_connection_is_pinged_and_a_busy_one_is_not(server: ServerProcess) -> None:
    async def both() -> tuple[int, tuple[int, int]]:
        quiet, busy = await asyncio.gather(_quiet(server.ws_url), _busy(server.ws_url))
        return quiet, busy

    quiet, (busy, answers) = run(both())
    assert quiet >= 2, f"a quiet connection was pinged {quiet} times in {WINDOW:.1f} s"
    assert answers >= 4, answers  # the busy connection was busy (about 12 answers on a quiet machine)
    # Before the keepalive waited for quiet, the busy one was pinged as often as the quiet one.
    # One ping is allowed: a machine stalled for 2 s between two answers may need it.
    assert busy <= 1, f"a connection sent a frame every 0.5 s was also pinged {busy} times"
