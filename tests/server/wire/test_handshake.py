"""A WebSocket refused before its upgrade (its Host is not one of the server's names): the page
gets a plain HTTP 400 saying why, and the server's log gets no ERROR line for it, so nobody
can fill the log by knocking with a wrong Host."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from scripted_client import run
from server_process import ServerProcess

from okgin.server.wire.headers import SecurityHeaders


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("handshake") / "handshake.db").start()
    yield process
    process.stop()


def _upgrade(port: int, host: str) -> bytes:
    """A WebSocket upgrade to /ws sent as ``host``: the server's whole answer, until it closes."""
    request = (f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request.encode())
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_a_websocket_with_a_strange_host_is_refused_400_without_an_error_in_the_log(
    server: ServerProcess,
) -> None:
    answers = [_upgrade(server.port, "evil.example") for _ in range(3)]
    httpx.get(server.url + "/healthz")  # a request after them: their log lines are written by now
    for answer in answers:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400 "), answer
        assert body == (b"evil.example is not one of this server's host names"
                        b" (okgin serve --allowed-host NAME)\n")
    log = server.log()
    assert "ERROR" not in log and "Traceback" not in log, log
    accepted = _upgrade_status(server.port, f"127.0.0.1:{server.port}")
    assert accepted.startswith(b"HTTP/1.1 101 "), accepted


def _upgrade_status(port: int, host: str) -> bytes:
    """The status line of an upgrade sent as ``host`` (the connection is then closed by us)."""
    request = (f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request.encode())
        return connection.recv(65536).split(b"\r\n", 1)[0]


def test_without_the_denial_extension_the_refusal_is_a_close_before_accept() -> None:
    """A server without ASGI's ``websocket.http.response`` extension cannot send a response to
    a WebSocket: the refusal is then ``websocket.close`` before the accept (its 403), which every
    server takes, never a response it would have to reject (and log)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def never(_scope: Any, _receive: Any, _send: Any) -> None:
        raise AssertionError("a refused WebSocket reached the app")

    async def knock(extensions: dict[str, Any]) -> list[dict[str, Any]]:
        sent.clear()
        scope = {"type": "websocket", "path": "/ws", "headers": [(b"host", b"evil.example")],
                 "extensions": extensions}
        await SecurityHeaders(never)(scope, receive, send)
        return list(sent)

    plain = run(knock({}))
    assert [m["type"] for m in plain] == ["websocket.close"] and plain[0]["code"] == 1008
    assert plain[0]["reason"].startswith("evil.example is not one of this server's host names")
    denied = run(knock({"websocket.http.response": {}}))
    assert [m["type"] for m in denied] == ["websocket.http.response.start", "websocket.http.response.body"]
    assert denied[0]["status"] == 400
