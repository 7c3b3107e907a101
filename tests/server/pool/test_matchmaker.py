"""The matchmaker's own loop (okgin/server/pool/matchmaker.py, ``Matchmaker.run``): an empty pool
is looked at every idle tick, not every tick, and a seek made on the process wakes its look at
once, so an idle server does not spend two looks a second on nobody."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import anyio.to_thread
from scripted_client import run

from okgin.server.pool.choices import PoolSettings
from okgin.server.pool.matchmaker import Matchmaker
from okgin.server.pool.seekers import SEATED
from okgin.server.pool.store import SqlPool
from okgin.server.rooms.room import Room
from okgin.server.store.room_store import RoomTable
from okgin.server.store.storage import Store


class CountedMatchmaker(Matchmaker):
    """The shipped matchmaker, its looks counted."""

    looks = 0

    def pair(self) -> list[str]:
        self.looks += 1
        return super().pair()


async def until(condition: object, seconds: float) -> bool:
    """Whether ``condition()`` came true within ``seconds`` (looked at every 20 ms)."""
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def test_an_empty_pool_is_looked_at_idly_and_a_seek_here_wakes_the_look(tmp_path: Path) -> None:
    """With a tick of 50 ms and an idle tick of a minute: after its first look at the empty pool
    the loop looks no more (20 looks a second it would be at the tick); two seeks made in worker
    threads, as the server makes them, wake it and are seated at once, not a minute later; while
    they wait it looks every tick, and once a look has found them seated it is idle again."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    pool = SqlPool(store.engine)
    matchmaker = CountedMatchmaker(pool, RoomTable(store, Room.from_data), lambda _player, _seats: 1500,
                                   PoolSettings(tick=0.05, idle_tick=60.0))

    async def scenario() -> tuple[int, bool, int, int]:
        loop = asyncio.create_task(matchmaker.run())
        assert await until(lambda: matchmaker.looks == 1, 10.0), "the first look never came"
        await asyncio.sleep(1.0)
        idle_looks = matchmaker.looks
        ann = await anyio.to_thread.run_sync(matchmaker.join, "ann", "Ann", "oklahoma", 2)
        bob = await anyio.to_thread.run_sync(matchmaker.join, "bob", "Bob", "oklahoma", 2)

        def both_seated() -> bool:
            return all((s := pool.get(seeker.id)) is not None and s.state == SEATED for seeker in (ann, bob))

        seated = await until(both_seated, 10.0)
        await until(lambda: not matchmaker.anyone_waiting, 10.0)  # the look after, at the tick
        after_seating = matchmaker.looks
        await asyncio.sleep(1.0)
        loop.cancel()
        return idle_looks, seated, after_seating, matchmaker.looks

    try:
        idle_looks, seated, after_seating, last = run(scenario())
    finally:
        pool.close()
        store.close()
    assert idle_looks == 1
    assert seated, "the seeks did not wake the look: nobody was seated within 10 s"
    assert last == after_seating, "the loop kept looking every tick at a pool with nobody waiting"
