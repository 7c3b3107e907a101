"""Open tables across two `okgin serve` processes on one real PostgreSQL and one real Redis: a
table opened on one process is listed by the other, leaves both lists when a player seated
through the other fills it, and is listed as playing by both once its host starts it there."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
from scripted_client import open_room, run, take_seat
from server_process import ServerProcess

SHORT = {"preset": "oklahoma", "target": 60}



def _lists_until(server: ServerProcess, test: Callable[[str], bool], what: str) -> str:
    deadline = time.monotonic() + 20
    while not test(text := httpx.get(server.url + "/tables/live").text):
        assert time.monotonic() < deadline, f"{what}: {text}"
        time.sleep(0.1)
    return text


def test_both_processes_list_an_open_table_until_it_fills_then_as_playing(
    pair: tuple[ServerProcess, ServerProcess],
) -> None:
    one, two = pair

    async def go() -> None:
        host = await open_room(one.ws_url, 2, "Ana", SHORT, listed=True)
        room = str(host.room)
        shown = f'data-code="{room}"'
        for server in (one, two):
            text = await asyncio.to_thread(_lists_until, server, lambda t: shown in t, "listed")
            assert "Ana's table for 2" in text and "1 of 2 seats free" in text
        guest = await take_seat(two.ws_url, room, 1, "Ben")
        for server in (one, two):
            await asyncio.to_thread(_lists_until, server, lambda t: "No open table is waiting" in t, "filled")
        assert (await host.request({"type": "start", "seed": 3}))["type"] == "ack"
        for server in (one, two):
            text = await asyncio.to_thread(_lists_until, server, lambda t: "id=playing " in t, "playing")
            assert f'href="/r/{room}"' in text and "Ana (1500) and Ben (1500)" in text
        for client in (host, guest):
            await client.close()

    run(go())
