"""Who is at a room's table, as seen by every process: seats held by a live connection.

Each process marks the seats its own connections hold, for ``TTL`` seconds, and marks them
again every ``REFRESH`` seconds while they stay. A process that dies stops marking, so its
seats fall out within ``TTL`` seconds and whichever process serves the room then marks them
away (`Hall.keep_presence`). ``LocalPresence`` serves one process; ``RedisPresence`` keeps
one sorted set per room in Redis (member ``seat/process``, score the time it expires).
The refresh marks and reads every room a process serves at once (``hold_all``, ``held_all``:
one Redis round trip each, not two a room), so its cost does not grow with the rooms' number.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

TTL = 10.0
"""Seconds a mark lasts: a dead process's players are away everywhere within TTL + REFRESH."""
REFRESH = 3.0
"""Seconds between two marks of the same seats (and two looks for seats nobody holds)."""
PREFIX = "okgin:presence:"
TIDY_EVERY = 5
"""A refresh of every room (``hold_all``) also removes run-out marks and renews each key's expiry
once in this many (every 15 s: the keys live 60 s): between, it only renews its own marks."""


class Presence(Protocol):
    """Seats held by connections, per room, across processes."""

    async def hold(self, room: str, seats: Iterable[int]) -> None:
        """Mark ``seats`` of ``room`` as held by this process for the next TTL seconds."""

    async def release(self, room: str, seat: int) -> None:
        """This process no longer holds ``seat`` of ``room``."""

    async def held(self, room: str) -> set[int]:
        """The seats of ``room`` that some process holds now."""

    async def hold_all(self, marks: Mapping[str, Sequence[int]]) -> None:
        """``hold`` for each room of ``marks`` at once."""

    async def held_all(self, rooms: Sequence[str]) -> dict[str, set[int]]:
        """``held`` for each of ``rooms`` at once."""

    async def close(self) -> None: ...


class LocalPresence:
    """Presence within one process (no other process can hold a seat)."""

    def __init__(self) -> None:
        self._until: dict[str, dict[int, float]] = {}

    async def hold(self, room: str, seats: Iterable[int]) -> None:
        await self.hold_all({room: list(seats)})

    async def release(self, room: str, seat: int) -> None:
        marks = self._until.get(room, {})
        marks.pop(seat, None)
        if not marks:
            self._until.pop(room, None)

    async def held(self, room: str) -> set[int]:
        return (await self.held_all([room]))[room]

    async def hold_all(self, marks: Mapping[str, Sequence[int]]) -> None:
        until = time.time() + TTL
        for room, seats in marks.items():
            if seats:
                self._until.setdefault(room, {}).update(dict.fromkeys(seats, until))

    async def held_all(self, rooms: Sequence[str]) -> dict[str, set[int]]:
        now = time.time()
        return {room: {seat for seat, until in self._until.get(room, {}).items() if until > now}
                for room in rooms}

    async def close(self) -> None:
        self._until.clear()


class RedisPresence:
    """Presence shared by every process through one Redis server."""

    def __init__(self, url: str, process: str) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._process = process
        self._rounds = 0

    async def hold(self, room: str, seats: Iterable[int]) -> None:
        await self._hold(({room: list(seats)}), tidy=True)

    async def hold_all(self, marks: Mapping[str, Sequence[int]]) -> None:
        self._rounds += 1
        await self._hold(marks, tidy=self._rounds % TIDY_EVERY == 1)

    async def _hold(self, marks: Mapping[str, Sequence[int]], tidy: bool) -> None:
        """Mark ``marks``' seats; ``tidy``: also drop run-out marks and renew each key's expiry
        (reads skip run-out marks whatever: this only keeps Redis small)."""
        now = time.time()
        async with self._redis.pipeline(transaction=False) as pipe:
            for room, seats in marks.items():
                if not seats:
                    continue
                key = PREFIX + room
                pipe.zadd(key, {f"{seat}/{self._process}": now + TTL for seat in seats})
                if tidy:
                    pipe.zremrangebyscore(key, "-inf", now)  # the dead processes' marks
                    pipe.expire(key, int(TTL * 6))
            if len(pipe):
                await pipe.execute()

    async def release(self, room: str, seat: int) -> None:
        await self._redis.zrem(PREFIX + room, f"{seat}/{self._process}")

    async def held(self, room: str) -> set[int]:
        return (await self.held_all([room]))[room]

    async def held_all(self, rooms: Sequence[str]) -> dict[str, set[int]]:
        if not rooms:
            return {}
        now = time.time()
        async with self._redis.pipeline(transaction=False) as pipe:
            for room in rooms:
                pipe.zrangebyscore(PREFIX + room, now, "+inf")
            answers = await pipe.execute()
        return {room: {int(_text(member).split("/", 1)[0]) for member in members}
                for room, members in zip(rooms, answers, strict=True)}

    async def close(self) -> None:
        await self._redis.aclose()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
