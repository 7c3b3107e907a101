"""The hostile audit's holes, each closed: a game id never leads to its room, text that is not
Unicode is refused at the edge, Origin and Host are checked in full, fields a message does not
take are refused, and a bad id over HTTP is 400 or 404 on every database."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from real_servers import Postgres
from scripted_client import Client, new_guest, open_room, run
from server_process import Serve, ServerProcess

from okgin.server.wire.headers import origin_allowed

SHORT = {"preset": "oklahoma", "target": 25}


@pytest.fixture(scope="module")
def server(serve: Serve) -> Iterator[ServerProcess]:
    """One server for the module (each test opens games and rooms of its own); after them all,
    its log holds no traceback."""
    process = serve(allow_seeds=True)
    yield process
    log = process.log()
    assert "Traceback" not in log, log


def test_a_game_id_never_leads_to_the_room_or_its_next_game(server: ServerProcess) -> None:
    """A finished game's id is in its players' /history: a stranger who learns it is told no such
    game until its player makes it public; then joining by it watches that game only, is never
    told the room's code, and is not carried into the rematch."""
    ann = new_guest(server.url)

    async def go() -> tuple[str, str, str, dict[str, Any], list[str], Client]:
        host = await open_room(server.ws_url, 2, "Ann", SHORT, cookie=ann)
        assert (await host.request({"type": "computer", "seat": 1, "level": "easy"}))["type"] == "ack"
        assert (await host.request({"type": "start", "seed": 4}))["type"] == "ack"
        await host.play()
        first = host.game or ""
        history = await asyncio.to_thread(httpx.get, server.url + "/history", cookies={"okgin_session": ann})
        assert first in history.text
        stranger = await Client.connect(server.ws_url)
        refused = await stranger.request({"type": "join", "game": first})
        assert refused["type"] == "error" and refused["code"] == "no_game"  # not public: as if none
        csrf = re.search(r'name="csrf" value="([^"]+)"', history.text)
        assert csrf is not None
        said = await asyncio.to_thread(
            httpx.post, f"{server.url}/games/{first}/public", data={"csrf": csrf[1], "public": "yes"},
            cookies={"okgin_session": ann}, headers={"Origin": server.url})
        assert said.status_code in (200, 303), said.text
        shown = await stranger.open_game({"type": "join", "game": first})
        assert shown["game"] == first and shown["final"] is not None
        assert (await host.request({"type": "rematch"}))["type"] == "ack"
        while host.game == first:  # the new game's room frame may come before the ack or after
            await host.receive()
        second = host.game or ""
        # Whatever the rematch sent the stranger is queued before this answer.
        answer = await stranger.request({"type": "options"})
        for client in (host, stranger):
            await client.close()
        return host.room or "", first, second, answer, stranger.frames, stranger

    code, first, second, answer, frames, stranger = run(go())
    assert answer["type"] == "ack" and second != first
    assert stranger.room is None
    assert not [frame for frame in frames if code in frame], "the room's code reached a stranger"
    assert not [frame for frame in frames if second in frame], "the stranger was carried into the rematch"


NOT_UNICODE = [
    '{"type": "enter", "room": "\\ud800"}',
    '{"type": "join", "game": "abc\\udfff"}',
    '{"type": "create", "players": 2, "name": "\\ud800"}',
    '{"type": "new", "rules": {"preset": "oklahoma", "\\udc00": 1}}',
]


def test_text_that_is_not_unicode_is_refused_at_the_edge(server: ServerProcess) -> None:
    """A lone surrogate cannot be stored or sent: each is answered with what was wrong, no
    traceback in the log (the fixture reads it), and the connection still works."""

    async def go() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        client = await Client.connect(server.ws_url)
        answers = []
        for frame in NOT_UNICODE:
            await client.socket.send(frame)
            answers.append(await client.receive())
        still = await client.open_game({"type": "new"})
        await client.close()
        return answers, still

    answers, still = run(go())
    for answer, frame in zip(answers, NOT_UNICODE, strict=True):
        assert answer["type"] == "error", frame
        assert answer["message"].startswith("text that is not Unicode: a lone surrogate"), answer
    assert still["type"] == "state"
    record = {"rules": "oklahoma", "players": ["\ud800", "B"], "hands": []}
    body = json.dumps(record).encode()  # ensure_ascii: the surrogate travels as \ud800
    upload = httpx.post(server.url + "/api/replay", content=body)
    assert upload.status_code == 400 and "lone surrogate" in upload.json()["error"]


async def _attempt(
    url: str, origin: str | None, host: str | None = None, headers: dict[str, str] | None = None,
) -> tuple[int | None, str]:
    """Open the WebSocket from ``origin`` (with ``host`` as the Host header); how it ended."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    target = url if host is None else f"ws://{host}/ws"
    try:
        async with websockets.connect(target, origin=origin, host="127.0.0.1",  # type: ignore[arg-type]
                                      port=port, additional_headers=headers) as socket:
            await socket.send(json.dumps({"type": "new"}))
            while json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] != "state":
                pass
            return None, "open"
    except websockets.ConnectionClosed as closed:
        return (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (None, "")
    except websockets.InvalidStatus as refused:
        return refused.response.status_code, refused.response.body.decode(errors="replace").strip()


def test_origin_is_compared_in_full_and_hosts_are_listed(tmp_path: Path) -> None:
    """The Origin's scheme, host and port must be the page's own, and the Host one of
    --allowed-host (default the listen address and localhost): a DNS-rebinding page is refused."""
    server = ServerProcess(tmp_path / "hosts.db", extra=("--allowed-host", "friends.example")).start()
    try:
        _check_origins_and_hosts(server)
    finally:
        server.stop()
    assert "Traceback" not in server.log(), server.log()


def _check_origins_and_hosts(server: ServerProcess) -> None:
    port = server.port
    own = f"http://127.0.0.1:{port}"
    assert run(_attempt(server.ws_url, own)) == (None, "open")
    assert run(_attempt(server.ws_url, None)) == (None, "open")  # a program, not a page
    assert run(_attempt(server.ws_url, f"http://localhost:{port}", f"localhost:{port}")) == (None, "open")
    friends = f"friends.example:{port}"
    assert run(_attempt(server.ws_url, f"http://{friends}", friends)) == (None, "open")
    code, reason = run(_attempt(server.ws_url, f"https://127.0.0.1:{port}"))
    assert (code, reason) == (1008, f"cross-site origin https://127.0.0.1:{port} is not allowed")
    code, _ = run(_attempt(server.ws_url, f"http://127.0.0.1:{port + 1}"))
    assert code == 1008
    tls = {"X-Forwarded-Proto": "https"}  # a proxy on this machine that ends TLS: the page is https
    assert run(_attempt(server.ws_url, f"https://127.0.0.1:{port}", headers=tls)) == (None, "open")
    code, _ = run(_attempt(server.ws_url, own, headers=tls))
    assert code == 1008
    rebound = f"evil.example:{port}"
    code, reason = run(_attempt(server.ws_url, f"http://{rebound}", rebound))
    assert code == 400 and "evil.example" in reason
    page = httpx.get(server.url + "/", headers={"Host": rebound})
    assert page.status_code == 400 and "evil.example is not one of this server's host names" in page.text
    assert httpx.get(server.url + "/", headers={"Host": friends}).status_code == 200
    assert httpx.get(server.url + "/healthz", headers={"Host": rebound}).status_code == 200  # for a proxy


@pytest.mark.parametrize(("origin", "scheme", "host", "allowed"), [
    ("http://example.org", "ws", "example.org:80", True),  # default ports filled in
    ("https://example.org", "wss", "example.org", True),
    ("https://example.org:443", "wss", "EXAMPLE.org", True),
    ("https://example.org", "ws", "example.org", False),  # the page is http: an https page is another site
    ("http://example.org:8000", "ws", "example.org:8001", False),
    ("http://example.org", "ws", "example.org.evil:80", False),
    ("http://example.org/path", "ws", "example.org", False),
    ("null", "ws", "example.org", False),
])
def test_the_origin_check_compares_scheme_host_and_port(
    origin: str, scheme: str, host: str, allowed: bool,
) -> None:
    assert origin_allowed(origin, scheme, host) is allowed
    listed = origin != "null" and "/path" not in origin  # --origin: any well-formed origin
    assert origin_allowed(origin, "ws", "elsewhere:1", [origin]) is listed


def test_fields_a_message_does_not_take_are_refused(server: ServerProcess) -> None:
    """`create` takes no seed: it is refused, not acknowledged and ignored; so is any unknown field."""

    async def go() -> list[dict[str, Any]]:
        client = await Client.connect(server.ws_url)
        answers = [await client.request(message) for message in (
            {"type": "create", "players": 2, "name": "Ann", "seed": 5},
            {"type": "new", "opponent": "hard"},
            {"type": "act", "action": "draw", "seat": 1},
        )]
        answers.append(await client.request({"type": "create", "players": 2, "name": "Ann"}))
        await client.close()
        return answers

    seeded, misspelt, extra, plain = run(go())
    assert seeded["type"] == "error" and seeded["code"] == "bad_field"
    assert seeded["message"] == ("'create' takes no 'seed': it takes name, players, rules, timer, coach, "
                                 "listed")
    assert misspelt["message"] == "'new' takes no 'opponent': it takes opponents, rules, seed"
    assert extra["message"] == "'act' takes no 'seat': it takes action"
    assert plain["type"] == "ack"


BAD_IDS = ["%00", "a%00b", "x" * 300, "%F0%9F%83%8F"]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
@pytest.mark.slow
def test_bad_game_ids_over_http_are_400_or_404_on_every_database(
    tmp_path: Path, request: pytest.FixtureRequest, database: str,
) -> None:
    extra: tuple[str, ...] = ()
    if database == "postgresql":
        postgres: Postgres = request.getfixturevalue("postgres")
        extra = ("--db", postgres.fresh_database())
    process = ServerProcess(tmp_path / "ids.db", extra=extra).start()
    try:
        statuses = {}
        for bad in BAD_IDS:
            for path in (f"/games/{bad}/record", f"/games/{bad}/replay", f"/api/games/{bad}/replay",
                         f"/games/{bad}/review", f"/how-to-play?game={bad}"):
                statuses[path] = httpx.get(process.url + path).status_code
    finally:
        process.stop()
    assert all(status in (400, 404) for status in statuses.values()), statuses
    assert "Traceback" not in process.log() and "503" not in process.log(), process.log()
