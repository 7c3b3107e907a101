"""Computer players at a real server's table: the searching levels think in its process pool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scripted_client import Client, assert_fair, run
from server_process import ServerProcess

from okgin.server.rooms.room import LEVELS
from okgin.server.rooms.thinking import SEARCHING


def test_every_level_that_searches_is_one_a_table_offers() -> None:
    assert set(SEARCHING) == {"hard", "expert"}
    assert all(level in LEVELS for level in SEARCHING)
    assert LEVELS[-1] == "expert"  # weakest first: the strongest last


@pytest.mark.slow
def test_a_person_plays_a_hand_against_expert(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "expert.db").start()
    try:
        async def go() -> tuple[dict[str, Any], list[str]]:
            client = await Client.connect(server.ws_url)
            await client.open_game({"type": "new", "opponents": ["expert"]})
            for _ in range(200):
                if not await client.step(60):
                    break
                state = client.state or {}
                if state["view"]["result"] is not None:
                    break
            await client.close()
            return client.state or {}, client.frames
        state, frames = run(go())
    finally:
        server.stop()
    assert state["levels"] == ["expert"]
    assert state["view"]["result"] is not None  # the hand was played to its end
    assert_fair(frames)
