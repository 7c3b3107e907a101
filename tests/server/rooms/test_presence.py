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


@pytest.mark.parametrize("backend", ["local", "redis"])
def test_every_room_is_marked_and_read_at_once_as_one_by_one(backend: str, redis_server: Redis) -> None:
    """The hall's refresh marks and reads all its rooms in one call each: the same seats as
    marking and reading each room alone, a room nobody marked holding none."""
    async def go() -> tuple[dict[str, set[int]], dict[str, set[int]], dict[str, set[int]]]:
        def made() -> presence.Presence:
            return LocalPresence() if backend == "local" else RedisPresence(redis_server.url, "one")
        rooms, others = ([uuid.uuid4().hex[:6] for _ in range(4)] for _ in range(2))
        seats = [[0, 1], [2], []]
        together, alone = made(), made()
        await together.hold_all(dict(zip(rooms, seats, strict=False)))
        for room, held in zip(others, seats, strict=False):
            await alone.hold(room, held)
        at_once = await together.held_all(rooms)
        one_by_one = {room: await alone.held(other) for room, other in zip(rooms, others, strict=True)}
        await together.release(rooms[0], 1)
        after = await together.held_all(rooms[:2])
        await together.close()
        await alone.close()
        return at_once, one_by_one, after

    at_once, one_by_one, after = run(go())
    assert list(at_once.values()) == [{0, 1}, {2}, set(), set()]
    assert at_once == one_by_one
    assert list(after.values()) == [{0}, {2}]
