"""Presence: seats held by connections, per room, as every process sees them."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from real_servers import Redis
from scripted_client import run

from okgin.server.rooms import presence
from okgin.server.rooms.presence import LocalPresence, RedisPresence


def test_a_seat_is_held_while_any_process_holds_it(redis_server: Redis) -> None:
    async def go() -> list[set[int]]:
        room = uuid.uuid4().hex[:6]
        one, two = RedisPresence(redis_server.url, "one"), RedisPresence(redis_server.url, "two")
        seen = []
        await one.hold(room, [0, 1])
        await two.hold(room, [1])  # the same player in a second tab, on another process
        seen.append(await two.held(room))
        await one.release(room, 1)
        seen.append(await one.held(room))  # still held by the other process's tab
        await two.release(room, 1)
        seen.append(await two.held(room))
        seen.append(await one.held("another"))
        await one.close()
        await two.close()
        return seen

    assert run(go()) == [{0, 1}, {0, 1}, {0}, set()]


@pytest.mark.parametrize("backend", ["local", "redis"])
def test_a_mark_runs_out_when_it_is_not_renewed(
    backend: str, redis_server: Redis, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(presence, "TTL", 0.2)  # a process that died stops renewing its marks

    async def go() -> tuple[set[int], set[int], set[int]]:
        room = uuid.uuid4().hex[:6]
        dead = RedisPresence(redis_server.url, "dead") if backend == "redis" else LocalPresence()
        await dead.hold(room, [2])
        before = await dead.held(room)
        after = await expired(dead, room)
        await dead.hold(room, [0])
        again = await dead.held(room)
        await dead.close()
        return before, after, again

    assert run(go()) == ({2}, set(), {0})


async def expired(presence_: LocalPresence | RedisPresence, room: str) -> set[int]:
    """The room's marks once they have lapsed: asked again until none is left, for at most
    fifty times the TTL (a mark renewed by nobody must lapse; one that never does fails)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + 50 * presence.TTL
    held = await presence_.held(room)
    while held and loop.time() < until:
        await asyncio.sleep(presence.TTL / 4)
        held = await presence_.held(room)
    return held
