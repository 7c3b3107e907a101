"""The hostile audit's holes, each closed: a game id never leads to its room, text that is not
Unicode is refused at the edge, and fields a message does not take are refused."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, open_room, run
from server_process import ServerProcess

SHORT = {"preset": "oklahoma", "target": 25}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "audit.db", allow_seeds=True).start()
    yield process
    process.stop()
    log = process.log()
    assert "Traceback" not in log, log


def test_a_game_id_never_leads_to_the_room_or_its_next_game(server: ServerProcess) -> None:
    """/history lists every finished game's id: a stranger who joins by it watches that game
    only, is never told the room's code, and is not carried into the rematch."""

    async def go() -> tuple[str, str, str, dict[str, Any], list[str], Client]:
        host = await open_room(server.ws_url, 2, "Ann", SHORT)
        assert (await host.request({"type": "computer", "seat": 1, "level": "easy"}))["type"] == "ack"
        assert (await host.request({"type": "start", "seed": 4}))["type"] == "ack"
        await host.play()
        first = host.game or ""
        history = await asyncio.to_thread(httpx.get, server.url + "/history")
        assert first in history.text
        stranger = await Client.connect(server.ws_url)
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
    assert seeded["message"] == "'create' takes no 'seed': it takes name, players, rules, timer"
    assert misspelt["message"] == "'new' takes no 'opponent': it takes opponents, rules, seed"
    assert extra["message"] == "'act' takes no 'seat': it takes action"
    assert plain["type"] == "ack"
