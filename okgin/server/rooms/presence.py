"""Who is at a room's table, as seen by every process: seats held by a live connection.

Each process marks the seats its own connections hold, for ``TTL`` seconds, and marks them
again every ``REFRESH`` seconds while they stay. A process that dies stops marking, so its
seats fall out within ``TTL`` seconds and whichever process serves the room then marks them
away (`Hall.keep_presence`). ``LocalPresence`` serves one process; ``RedisPresence`` keeps
one sorted set per room in Redis (member ``seat/process``, score the time it expires).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Protocol

TTL = 10.0
"""Seconds a mark lasts: a dead process's players are away everywhere within TTL + REFRESH."""
REFRESH = 3.0
"""Seconds between two marks of the same seats (and two looks for seats nobody holds)."""
PREFIX = "okgin:presence:"


class Presence(Protocol):
    """Seats held by connections, per room, across processes."""

    async def hold(self, room: str, seats: Iterable[int]) -> None:
        """Mark ``seats`` of ``room`` as held by this process for the next TTL seconds."""

    async def release(self, room: str, seat: int) -> None:
        """This process no longer holds ``seat`` of ``room``."""

    async def held(self, room: str) -> set[int]:
        """The seats of ``room`` that some process holds now."""

    async def close(self) -> None: ...


class LocalPresence:
    """Presence within one process (no other process can hold a seat)."""

    def __init__(self) -> None:
        self._until: dict[tuple[str, int], float] = {}

    async def hold(self, room: str, seats: Iterable[int]) -> None:
        until = time.time() + TTL
        for seat in seats:
            self._until[room, seat] = until

    async def release(self, room: str, seat: int) -> None:
        self._until.pop((room, seat), None)

    async def held(self, room: str) -> set[int]:
        now = time.time()
        return {seat for (code, seat), until in self._until.items() if code == room and until > now}

    async def close(self) -> None:
        self._until.clear()


class RedisPresence:
    """Presence shared by every process through one Redis server."""

    def __init__(self, url: str, process: str) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._process = process

    async def hold(self, room: str, seats: Iterable[int]) -> None:
        until = time.time() + TTL
        members = {f"{seat}/{self._process}": until for seat in seats}
        if members:
            key = PREFIX + room
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.zadd(key, members)
                pipe.zremrangebyscore(key, "-inf", time.time())  # the dead processes' marks
                pipe.expire(key, int(TTL * 6))
                await pipe.execute()

    async def release(self, room: str, seat: int) -> None:
        await self._redis.zrem(PREFIX + room, f"{seat}/{self._process}")

    async def held(self, room: str) -> set[int]:
        members = await self._redis.zrangebyscore(PREFIX + room, time.time(), "+inf")
        return {int(_text(member).split("/", 1)[0]) for member in members}  # type: ignore[arg-type]

    async def close(self) -> None:
        await self._redis.aclose()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
