"""The hostile audit's holes, each closed: text that is not Unicode is refused at the edge, and
fields a message does not take are refused."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, run
from server_process import ServerProcess


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "audit.db", allow_seeds=True).start()
    yield process
    process.stop()
    log = process.log()
    assert "Traceback" not in log, log


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
