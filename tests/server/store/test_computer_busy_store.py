"""A computer player whose move the store refuses for a moment (SQLite busy: another writer
holds the lock past the wait) tries again: the game does not stop at the computer's turn.

Found by the test of fifty people behind one address (tests/server/wire/test_limits.py), which waited
three minutes for a computer's move on a loaded machine: the computer player gave up at its
first "the store is busy" and nothing woke it again."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from scripted_client import Client, choose, my_move, run
from server_process import ServerProcess


@pytest.mark.slow
def test_a_computer_player_tries_again_after_the_store_was_busy(tmp_path: Path) -> None:
    db = tmp_path / "busy.db"
    server = ServerProcess(db).start()
    try:
        async def go() -> dict[str, Any]:
            client = await Client.connect(server.ws_url)
            await client.open_game({"type": "new", "opponents": ["hard"]})
            for _ in range(200):  # a computer's turn whose save the lock comes before
                state = await client.wait_my_move(60)
                message = choose(state)
                assert message is not None, "the game ended before the lock met a computer's save"
                if message["type"] == "next":
                    await client.request(message, 60)
                    continue
                logged = _log_rows(db, client.game or "")
                answer = await client.request(message, 60)
                assert answer["type"] == "ack", answer
                if my_move(client.state or {}):
                    continue  # still the person's turn (a draw), or the hand ended: no computer move
                # The store locked, then asked whether the computer's move is saved already: the
                # person's move is one row; if none came after it, the computer's save is still to
                # come and must meet the lock (held longer than a save waits). Otherwise it was
                # quicker than this test: try the next turn.
                locker = sqlite3.connect(db, timeout=30, isolation_level=None)
                locker.execute("BEGIN IMMEDIATE")
                if _log_rows(db, client.game or "", locker) > logged + 1:
                    locker.execute("COMMIT")
                    locker.close()
                    continue
                # Held until the computer's save has met it and said so, however long the computer
                # thinks first (`hard` searches its close moves: on a loaded machine its move came
                # after a lock held a fixed 4 s, the store's busy wait and 2 s, and nothing met it).
                deadline = time.monotonic() + 120
                while "busy" not in server.log():
                    assert time.monotonic() < deadline, "the computer's save never met the locked store"
                    await asyncio.sleep(0.2)
                locker.execute("COMMIT")
                locker.close()
                await client.wait_my_move(60)  # the computer's move came: the person's turn again
                await client.close()
                return client.state or {}
            raise AssertionError("the computer saved before the lock at every turn of 200")
        state = run(go())
    finally:
        server.stop()
    assert "busy" in server.log()  # the computer's save did meet the locked store
    assert state["view"]["result"] is not None or state["view"]["to_act"] == state["view"]["seat"]


def _log_rows(db: Path, game: str, connection: sqlite3.Connection | None = None) -> int:
    """How many log rows game ``game`` has in the store (read on ``connection`` if given)."""
    reader = connection or sqlite3.connect(db)
    try:
        row = reader.execute("SELECT count(*) FROM game_log WHERE game = ?", (game,)).fetchone()
    finally:
        if connection is None:
            reader.close()
    return int(row[0])
