"""/healthz and /metrics on a real server: health for a proxy, figures for a monitor."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from scripted_client import Client, run
from server_process import ServerProcess


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "games.db", allow_seeds=True).start()
    yield process
    process.stop()


def figure(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name} is not in /metrics"
    return float(found.group(1))


def test_healthz_names_the_process_that_answers(server: ServerProcess) -> None:
    answer = httpx.get(f"{server.url}/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "process": answer.json()["process"]}
    assert answer.json()["process"].split("-")[0] == str(server.process.pid)  # type: ignore[union-attr]


def test_metrics_count_moves_connections_rooms_and_refusals(server: ServerProcess) -> None:
    async def go() -> tuple[str, str]:
        client = await Client.connect(server.ws_url)
        await client.open_game({"type": "new", "opponents": ["easy"], "seed": 4})
        for _ in range(3):
            await client.step()
        await client.request({"type": "act", "action": "discard ZZ"})  # refused: not a card
        during = httpx.get(f"{server.url}/metrics").text
        await client.close()
        return during, httpx.get(f"{server.url}/metrics").text

    during, after = run(go())
    assert figure(during, "okgin_actions_total") == 3
    assert figure(during, "okgin_action_seconds_count") == 3
    assert figure(during, "okgin_connections") == 1
    assert figure(during, "okgin_rooms") == 1
    assert figure(during, 'okgin_refusals_total{reason="refused"}') == 1
    assert figure(after, "okgin_connections") == 0


def test_a_cross_site_page_is_counted_as_refused(server: ServerProcess) -> None:
    async def go() -> None:
        async with websockets.connect(server.ws_url, origin="http://evil.example") as socket:  # type: ignore[arg-type]
            with pytest.raises(websockets.ConnectionClosed):
                await socket.recv()

    run(go())
    assert figure(httpx.get(f"{server.url}/metrics").text, 'okgin_refusals_total{reason="origin"}') == 1
