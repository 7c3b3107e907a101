"""A bad game store or broker seen from outside: `okgin serve` on a corrupt database or an
unreachable Redis stops with one line, its start line hides a password, and a locked database
answers the player a clear error and changes nothing."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from real_servers import Postgres
from scripted_client import Client, choose, run
from server_process import ServerProcess, free_port

from okgin.server import create_app


def test_serve_on_a_corrupt_database_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "okgin.db"
    path.write_bytes(b"\x00garbage, not SQLite\xff" * 300)
    done = subprocess.run(
        [sys.executable, "-m", "okgin.cli", "serve", "--port", str(free_port()), "--db", f"sqlite:///{path}"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    expected = f"okgin serve: cannot open the game store sqlite:///{path}: file is not a database\n"
    assert done.stderr == expected


def test_serve_on_an_unreachable_postgresql_prints_one_line_and_exits_2() -> None:
    url = f"postgresql+psycopg://okgin@127.0.0.1:{free_port()}/okgin"
    done = subprocess.run(
        [sys.executable, "-m", "okgin.cli", "serve", "--port", str(free_port()), "--db", url],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"okgin serve: cannot open the game store {url}: connection failed")


@pytest.mark.slow
def test_a_locked_database_answers_a_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.db", allow_seeds=True).start()

    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
        client = await Client.connect(server.ws_url)
        await client.open_game({"type": "new", "opponents": ["easy"], "seed": 11})
        before = await client.wait_my_move()
        message = choose(before)
        assert message is not None
        holder = sqlite3.connect(server.db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another writer holds the database
        try:
            refused = await client.request(message)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        watcher = await Client.connect(server.ws_url)
        after = await watcher.open_game({"type": "join", "game": client.game, "token": client.token})
        accepted = await client.request(message)  # the lock is gone: the same move now goes through
        await client.close()
        await watcher.close()
        return before, refused, after, accepted

    try:
        before, refused, after, accepted = run(go())
    finally:
        server.stop()
    assert refused["type"] == "error"
    assert refused["message"] == "the game could not be saved, so nothing changed: try again"
    assert after["view"]["history"] == before["view"]["history"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert accepted["type"] == "ack"


def test_serve_with_an_unreachable_broker_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    done = subprocess.run(
        [sys.executable, "-m", "okgin.cli", "serve", "--port", str(free_port()),
         "--db", f"sqlite:///{tmp_path / 'games.db'}", "--broker", url],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"okgin serve: cannot reach the broker {url}: ")


def test_the_start_line_hides_the_database_password(postgres: Postgres) -> None:
    url = postgres.fresh_database().replace("okgin@", "okgin:hunter2@")  # trust auth: any password
    process = subprocess.Popen(
        [sys.executable, "-m", "okgin.cli", "serve", "--port", str(free_port()), "--db", url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
    finally:
        process.terminate()
        process.wait(10)
    assert "games stored in postgresql+psycopg://okgin:***@127.0.0.1:" in line and "hunter2" not in line


def test_a_page_whose_store_fails_answers_503_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "games.db"
    app = create_app(f"sqlite:///{path}")
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE games")  # what a page reads is gone: the store cannot answer

    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            return [await client.get("/history"), await client.get("/how-to-play?game=abc")]

    with caplog.at_level("WARNING", logger="okgin.server"):
        answers = run(go())
    for answer in answers:
        assert answer.status_code == 503
        assert answer.text.startswith("could not read the game") and answer.text.count("\n") == 1
    assert [r.exc_info for r in caplog.records] == [None, None]
    assert all("no such table: games" in r.getMessage() for r in caplog.records)
