"""The wire: one handler for each message type, every error frame with a documented code, and
an error that always means nothing changed."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import sqlite3
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scripted_client import Client, open_room, run, take_seat
from server_process import ServerProcess

from okgin.server.refusals import ProtocolError
from okgin.server.wire import handlers, messages, sockets
from okgin.server.wire.codes import Code

DOCS = Path(__file__).resolve().parents[3] / "docs" / "server" / "protocol.md"


def test_each_message_type_has_its_dataclass_its_handler_and_its_documented_fields() -> None:
    """The handlers' table has exactly the types of the dataclasses, each handler takes its
    type's dataclass, and docs/web.md shows each type as the client sends it, with fields it takes."""
    kinds = [kind.TYPE for kind in messages.MESSAGES]
    assert len(set(kinds)) == len(kinds) and list(handlers.HANDLERS) == kinds
    text = DOCS.read_text(encoding="utf-8")
    for kind in messages.MESSAGES:
        handler, _ = handlers.HANDLERS[kind.TYPE]
        assert inspect.iscoroutinefunction(handler), kind
        taken = typing.get_type_hints(handler, localns={"Connection": sockets.Connection})["message"]
        assert kind in (typing.get_args(taken) or (taken,)), (kind, taken)
        fields = {f.name for f in dataclasses.fields(kind)} - {"id"}
        assert set(messages.FIELDS[kind.TYPE]) == fields
        examples = re.findall(r'`(\{"type": "' + kind.TYPE + r'"[^`]*\})`', text)
        named = [set(re.findall(r'"([a-z_]+)":', example)) - {"type", "id"} for example in examples]
        assert any(names <= fields for names in named), (kind.TYPE, examples)  # (an answer may share a type)


def test_every_code_is_documented_in_the_codes_table() -> None:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("### Error codes")
    table = text[start:text.index("\n#", start + 1)]
    listed = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)
    assert sorted(listed) == sorted(code.value for code in Code)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "wire.db").start()
    yield process
    process.stop()
    assert "Traceback" not in process.log(), process.log()


def _stored(db: Path) -> list[Any]:
    with sqlite3.connect(db) as connection:
        rooms = connection.execute("SELECT code, version, data FROM rooms ORDER BY code").fetchall()
        games = connection.execute("SELECT id, head, status, version FROM games ORDER BY id").fetchall()
        log = connection.execute("SELECT game, seq, entry FROM game_log ORDER BY game, seq").fetchall()
    return [rooms, games, log]


def test_an_error_always_means_nothing_changed(server: ServerProcess) -> None:
    """Every kind of refusal, in a room with a game on: each answer carries its documented
    code, and the stored rooms and games are exactly as they were."""

    async def go() -> tuple[list[tuple[str, dict[str, Any]]], list[Any], list[Any]]:
        host = await open_room(server.ws_url, 2, "Ann")
        guest = await take_seat(server.ws_url, host.room or "", 1, "Bob")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        while host.state is None or guest.state is None:
            await (host if host.state is None else guest).receive()
        waiting = host if host.state["view"]["to_act"] != 0 else guest
        stranger, watcher = await Client.connect(server.ws_url), await Client.connect(server.ws_url)
        assert (await watcher.request({"type": "enter", "room": host.room}))["type"] == "ack"
        before = _stored(server.db)
        answers = []
        for who, message in (
            (stranger, "not json"),
            (stranger, {"type": "fly"}),
            (stranger, {"type": "act", "action": "draw"}),
            (stranger, {"type": "enter", "room": "no-such-room"}),
            (stranger, {"type": "join", "game": "no-such-game"}),
            (stranger, {"type": "enter", "room": host.room, "token": "forged"}),
            (watcher, {"type": "act", "action": "draw"}),
            (watcher, {"type": "sit", "seat": 1, "name": "Eve"}),
            (waiting, {"type": "act", "action": "draw"}),
            (waiting, {"type": "act", "action": "discard ZZ"}),
            (host, {"type": "start", "seed": 1}),
            (host, {"type": "clear", "seat": 1}),
            (host, {"type": "computer", "seat": 1, "level": "genius"}),
            (host, {"type": "say", "phrase": "hello"}),
            (guest, {"type": "rematch", "colour": "red"}),
            (guest, {"type": "rematch"}),  # an offer while the game is being played
            (watcher, {"type": "rematch"}),  # an offer from nobody seated
        ):
            if isinstance(message, str):
                await who.socket.send(message)
                answer = await who.receive()
            else:
                answer = await who.request(message)
            answers.append((json.dumps(message), answer))
        after = _stored(server.db)
        for client in (host, guest, stranger, watcher):
            await client.close()
        return answers, before, after

    answers, before, after = run(go())
    assert after == before
    codes = [answer.get("code") for _, answer in answers]
    assert all(answer["type"] == "error" for _, answer in answers), answers
    assert codes == [
        "malformed", "unknown_type", "not_open", "no_room", "no_game", "bad_token", "watching",
        "refused", "illegal", "bad_field", "bad_field", "refused", "refused", "refused", "bad_field",
        "refused", "refused",
    ], answers
    assert "the game is not over yet" in answers[-2][1]["message"], answers[-2]
    assert "only the players" in answers[-1][1]["message"], answers[-1]


@pytest.mark.parametrize("kind", [["act"], {}, {"act": 1}, 3, None, True])
def test_a_type_that_is_not_a_string_is_refused_clearly(kind: Any) -> None:
    with pytest.raises(ProtocolError) as refused:
        messages.parse_message(json.dumps({"type": kind, "id": 4}))
    assert refused.value.code == Code.UNKNOWN_TYPE and refused.value.ident == 4
    assert str(refused.value).startswith(f"unknown message type {kind!r}; the types are new, join")
