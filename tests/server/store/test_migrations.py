"""The store's migrations: a SQLite file and a PostgreSQL database made by the main of 1 Dec 2026
(tests/fixtures, made by tests/support/make_schema_fixture.py) are refused by the server until
`okgin db upgrade`, then keep every game, room and statistics row, and every one is playable."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from real_servers import Postgres
from scripted_client import Client, choose, run, wait_for
from server_process import ServerProcess, free_port
from sqlalchemy import create_engine, text

from okgin.server.coach import statistics
from okgin.server.rooms.room import Room
from okgin.server.store.migrate import HEAD, OldSchema, alembic_config, head, upgrade
from okgin.server.store.room_store import RoomTable
from okgin.server.store.storage import Store

FIXTURES = Path(__file__).parents[2] / "fixtures"
NAME = "store-2026-12-01"
MANIFEST: dict[str, dict[str, Any]] = json.loads((FIXTURES / f"{NAME}.json").read_text())


def old_store(kind: str, tmp_path: Path, request: pytest.FixtureRequest | None = None) -> str:
    """A copy of the fixture's store of ``kind``: its URL (on the session's PostgreSQL, for that kind)."""
    if kind == "sqlite":
        path = tmp_path / "old.db"
        shutil.copy(FIXTURES / f"{NAME}.db", path)
        return f"sqlite:///{path}"
    assert request is not None, "a PostgreSQL store needs the test's request for the postgres fixture"
    postgres: Postgres = request.getfixturevalue("postgres")
    url = postgres.fresh_database()
    subprocess.run([str(postgres.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                    str(postgres.port), "-U", postgres.USER, "-d", url.rsplit("/", 1)[1],
                    "-f", str(FIXTURES / f"{NAME}.sql")], check=True, capture_output=True)
    return url


def old_records(url: str) -> dict[str, dict[str, Any]]:
    engine = create_engine(url)
    with engine.connect() as db:
        rows = db.execute(text("SELECT id, record FROM games")).all()
    engine.dispose()
    return {game: json.loads(record) for game, record in rows}


@pytest.fixture(params=["sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_an_old_store_is_refused_then_upgraded_in_place_with_everything_kept(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest,
) -> None:
    url = old_store(kind, tmp_path, request)
    before = old_records(url)
    made = MANIFEST[kind]
    assert len(before) == 5 and {entry["game"] for entry in made.values()} - {None} == set(before)
    with pytest.raises(OldSchema) as refused:
        Store(url)
    assert str(refused.value).endswith("in an older schema (before 0001): run `okgin db upgrade --db "
                                       f"{url}` first")
    assert old_records(url) == before  # refused: nothing changed
    assert upgrade(url) == (None, head())
    assert upgrade(url) == (head(), head())  # a second upgrade has nothing to do
    store = Store(url)
    for game, record in before.items():
        loaded = store.load(game)
        assert loaded is not None and loaded.record == record
        assert loaded.version == sum(1 + len(hand["actions"]) for hand in record["hands"])
    assert {game.id for game in store.finished()} == {made["solo_finished"]["game"],
                                                       made["room_game_over"]["game"]}
    assert {row.game for row in statistics.read(store.engine)} == {made["solo_finished"]["game"]}
    store.close()


async def _play_each(server: ServerProcess, made: dict[str, dict[str, Any]]) -> dict[str, str]:
    """One legal step in every game and room of the fixture; what each step's answer was."""
    answers: dict[str, str] = {}
    for name, entry in made.items():
        client = await Client.connect(server.ws_url)
        token = entry["tokens"]["0"]
        if entry["game"] is None:  # the lobby: the host seats a computer player and starts
            for message in ({"type": "enter", "room": entry["room"], "token": token},
                            {"type": "computer", "seat": 2, "level": "easy"}, {"type": "start"}):
                answers[name] = (await client.request(message))["type"]
                assert answers[name] == "ack", (name, message, client.frames[-1])
            if client.state is None:  # the new game's state (it may come before the ack)
                await wait_for(client, lambda m: m["type"] == "state")
        else:
            if name == "room_mid_hand":  # the seat whose turn it is (or a computer's: wait for ours)
                await client.close()
                client = await _seat_to_move(server, entry)
            else:
                await client.open_game({"type": "join", "game": entry["game"], "token": token})
            state = await client.wait_my_move()
            message = choose(state) or {"type": "rematch"}
            answers[name] = (await client.request(message))["type"]
            if message["type"] == "rematch":  # a game over: every person seated says yes to it
                answers[name] = await _every_yes(server, entry, answers[name])
        await client.close()
    return answers


async def _every_yes(server: ServerProcess, entry: dict[str, Any], first: str) -> str:
    """The other seats' yes to a rematch seat 0 offered: the worst answer of them all."""
    answer = first
    for seat, token in entry["tokens"].items():
        if seat == "0":
            continue
        other = await Client.connect(server.ws_url)
        await other.open_game({"type": "join", "game": entry["game"], "token": token})
        said = (await other.request({"type": "rematch"}))["type"]
        answer = answer if said == "ack" else said
        await other.close()
    return answer


async def _seat_to_move(server: ServerProcess, entry: dict[str, Any]) -> Client:
    clients = []
    for token in entry["tokens"].values():
        client = await Client.connect(server.ws_url)
        await client.open_game({"type": "join", "game": entry["game"], "token": token})
        clients.append(client)
    while True:
        for client in clients:
            state = client.state
            assert state is not None
            if state["view"]["to_act"] == client.seat:
                for other in clients:
                    if other is not client:
                        await other.close()
                return client
        await clients[0].receive()


def test_every_game_and_room_is_playable_after_the_upgrade(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest,
) -> None:
    url = old_store(kind, tmp_path, request)
    before = old_records(url)
    upgrade(url)
    # Sweeping off: the fixture's rooms were last touched when it was made (1 Dec 2026), so a
    # day later the sweep of rooms idle 24 h would remove them before they could be played.
    server = ServerProcess(tmp_path / "unused.db", extra=("--db", url, "--idle-hours", "0")).start()
    try:
        answers = run(_play_each(server, MANIFEST[kind]))
    finally:
        server.stop()
    assert answers == dict.fromkeys(MANIFEST[kind], "ack")
    store = Store(url)
    rooms = RoomTable(store, Room.from_data)
    for name, entry in MANIFEST[kind].items():
        room = rooms.load(entry["room"])
        assert room is not None and room.game is not None
        game = store.load(room.game)
        assert game is not None
        if room.game == entry["game"]:  # played on: one more row than the old record's (at least)
            old = before[room.game]["hands"]
            assert game.version > sum(1 + len(hand["actions"]) for hand in old), name
        else:  # started (the lobby) or a rematch begun (a game over): a new game, dealt
            assert name in ("room_lobby", "solo_finished", "room_game_over") and game.version >= 1, name
    store.close()


def test_the_server_knows_the_head_revision_alembic_reads() -> None:
    """The server checks a store against ``HEAD`` without importing Alembic: they must agree."""
    assert head() == HEAD


@pytest.mark.slow
def test_db_upgrade_and_serve_on_an_old_store_say_what_to_do_in_one_line(tmp_path: Path) -> None:
    url = old_store("sqlite", tmp_path)
    serve = [sys.executable, "-m", "okgin.cli", "serve", "--port", str(free_port()), "--db", url]
    refused = subprocess.run(serve, capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (f"okgin serve: the game store {url} is in an older schema (before 0001): "
                              f"run `okgin db upgrade --db {url}` first\n")
    upgrade_command = [sys.executable, "-m", "okgin.cli", "db", "upgrade", "--db", url]
    done = subprocess.run(upgrade_command, capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == f"okgin db upgrade: the game store went from schema before 0001 to {HEAD}\n"
    again = subprocess.run(upgrade_command, capture_output=True, text=True, timeout=60, check=True)
    assert again.stdout == f"okgin db upgrade: the game store is at schema {HEAD} already\n"


def test_a_downgrade_to_before_the_action_log_gives_back_every_record(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest,
) -> None:
    url = old_store(kind, tmp_path, request)
    before = old_records(url)
    upgrade(url)
    engine = create_engine(url)
    with engine.begin() as db:
        command.downgrade(alembic_config(db), "0001")
    engine.dispose()
    assert old_records(url) == before
    assert upgrade(url) == ("0001", HEAD)
