"""A computer player whose move the store refuses for a moment (SQLite busy: another writer
holds the lock past the wait) tries again: the game does not stop at the computer's turn.

Found by the test of fifty people behind one address (tests/server/wire/test_limits.py), which waited
three minutes for a computer's move on a loaded machine: the computer player gave up at its
first "the store is busy" and nothing woke it again."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from scripted_client import Client, choose, run
from server_process import ServerProcess

from okgin.server.store.db import SQLITE_BUSY_SECONDS


def test_a_computer_player_tries_again_after_the_store_was_busy(tmp_path: Path) -> None:
    db = tmp_path / "busy.db"
    server = ServerProcess(db).start()
    try:
        async def go() -> dict[str, Any]:
            client = await Client.connect(server.ws_url)
            state = await client.open_game({"type": "new", "opponents": ["hard"]})
            while state["view"]["to_act"] == state["view"]["seat"]:  # until the computer's first turn
                message = choose(state)
                assert message is not None
                answer = await client.request(message, 60)
                assert answer["type"] == "ack", answer
                state = client.state or {}
            # `hard` thinks in a process pool started for its first decision (a second or so):
            # the store is locked before that move is saved, for longer than a save waits.
            locker = sqlite3.connect(db, timeout=30, isolation_level=None)
            locker.execute("BEGIN IMMEDIATE")
            await asyncio.sleep(SQLITE_BUSY_SECONDS + 2)
            locker.execute("COMMIT")
            locker.close()
            await client.wait_my_move(60)  # the computer's move came: the person's turn again
            await client.close()
            return client.state or {}
        state = run(go())
    finally:
        server.stop()
    assert "busy" in server.log()  # the computer's save did meet the locked store
    assert state["view"]["result"] is not None or state["view"]["to_act"] == state["view"]["seat"]
