"""RedisBroker against a real redis-server: events cross between two brokers (as between two
processes) in order, our own subscribers hear first and once, an outage ends in a resync, and
a room served by one process alone costs Redis nothing until another process listens."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from real_servers import Redis, free_port
from scripted_client import run

from okgin.server.rooms.broker import BrokerError
from okgin.server.rooms.redis_broker import CHECK, RESYNC, SYNC, RedisBroker, check_broker


class Heard:
    """A subscriber that keeps what it hears."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.checks = 0
        self.syncs = 0
        self.arrived = asyncio.Event()

    async def __call__(self, message: dict[str, Any]) -> None:
        if message == CHECK:  # "now subscribed": see test_a_subscription_is_checked_once_heard
            self.checks += 1
            return
        if message == SYNC:  # another process listens now: see test_a_room_served_alone_…
            self.syncs += 1
            return
        self.messages.append(message)
        self.arrived.set()

    async def wait_for(self, count: int, seconds: float = 10) -> list[dict[str, Any]]:
        async def enough() -> None:
            while len(self.messages) < count:
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(enough(), seconds)
        return self.messages

    async def subscribed(self, seconds: float = 10) -> None:
        """Until Redis confirms the subscription (a SUBSCRIBE is a round trip: before it,
        another process's events are not heard, and the CHECK says to look at the store)."""
        async def confirmed() -> None:
            while not self.checks:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(confirmed(), seconds)


def test_events_cross_between_two_brokers_in_order(redis_server: Redis) -> None:
    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        one, two = RedisBroker(redis_server.url), RedisBroker(redis_server.url)
        await one.start()
        await two.start()
        here, there, elsewhere = Heard(), Heard(), Heard()
        one.subscribe("room:a", here)
        two.subscribe("room:a", there)
        two.subscribe("room:b", elsewhere)
        await there.subscribed()
        for version in range(1, 101):
            await one.publish("room:a", {"room": "a", "version": version})
            assert len(here.messages) == version  # our own subscribers hear before publish returns
        heard_there = await there.wait_for(100)
        await asyncio.sleep(0.2)  # time for any echo or stray delivery to show up
        await one.close()
        await two.close()
        return here.messages, heard_there, elsewhere.messages

    here, there, elsewhere = run(go())
    assert [m["version"] for m in here] == list(range(1, 101))  # once each: the echo is dropped
    assert [m["version"] for m in there] == list(range(1, 101))
    assert elsewhere == []


def test_unsubscribed_and_failing_callbacks(redis_server: Redis) -> None:
    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        one, two = RedisBroker(redis_server.url), RedisBroker(redis_server.url)
        await one.start()
        await two.start()
        gone, kept = Heard(), Heard()

        async def broken(_message: dict[str, Any]) -> None:
            raise RuntimeError("a subscriber's own bug")

        two.subscribe("room:c", broken)
        two.subscribe("room:c", gone)
        two.subscribe("room:c", kept)
        await kept.subscribed()
        await one.publish("room:c", {"n": 1})
        await kept.wait_for(1)
        two.unsubscribe("room:c", gone)
        await one.publish("room:c", {"n": 2})
        await kept.wait_for(2)
        await one.close()
        await two.close()
        return gone.messages, kept.messages

    gone, kept = run(go())
    assert gone == [{"n": 1}] and kept == [{"n": 1}, {"n": 2}]


def test_an_unreachable_broker_is_one_clear_error() -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    with pytest.raises(BrokerError, match="^" + re.escape(f"cannot reach the broker {url}: ")):
        check_broker(url)

    async def go() -> None:
        await RedisBroker(url).start()

    with pytest.raises(BrokerError, match=r"^cannot reach the broker"):
        run(go())


def test_after_a_redis_outage_subscribers_resync_and_events_flow_again() -> None:
    server = Redis().start()
    try:
        async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            one, two = RedisBroker(server.url), RedisBroker(server.url)
            await one.start()
            await two.start()
            heard = Heard()
            two.subscribe("room:d", heard)
            await heard.subscribed()
            await one.publish("room:d", {"n": 1})
            await heard.wait_for(1)
            await asyncio.to_thread(server.stop)  # Redis goes away...
            await one.publish("room:d", {"n": "lost"})  # ...a publish then only logs
            await asyncio.to_thread(server.start)  # ...and comes back on the same port
            await heard.wait_for(2, seconds=20)
            await asyncio.sleep(0.5)  # `one` reconnects its publishing connection on demand
            await one.publish("room:d", {"n": 3})
            messages = await heard.wait_for(3, seconds=20)
            await one.close()
            await two.close()
            return messages, heard.messages

        messages, _ = run(go())
    finally:
        server.stop()
    assert messages == [{"n": 1}, RESYNC, {"n": 3}]


def test_a_slow_room_does_not_hold_up_another_and_keeps_its_order(redis_server: Redis) -> None:
    async def go() -> tuple[list[dict[str, Any]], list[int], float]:
        one, two = RedisBroker(redis_server.url), RedisBroker(redis_server.url)
        await one.start()
        await two.start()
        slow_heard: list[int] = []

        async def slow(message: dict[str, Any]) -> None:
            if message == CHECK:
                return
            await asyncio.sleep(0.2)  # a reload from a busy store
            slow_heard.append(message["n"])

        fast = Heard()
        two.subscribe("room:slow", slow)
        two.subscribe("room:fast", fast)
        await fast.subscribed()  # and so room:slow, asked for first
        started = asyncio.get_running_loop().time()
        for n in range(5):
            await one.publish("room:slow", {"n": n})
        await one.publish("room:fast", {"n": "quick"})
        heard = await fast.wait_for(1)
        waited = asyncio.get_running_loop().time() - started
        while len(slow_heard) < 5:
            await asyncio.sleep(0.05)
        await one.close()
        await two.close()
        return heard, slow_heard, waited

    heard, slow_heard, waited = run(go())
    assert heard == [{"n": "quick"}] and waited < 0.5  # not after the slow room's 5 x 0.2 s
    assert slow_heard == [0, 1, 2, 3, 4]


def test_a_process_subscribes_to_its_rooms_only_and_checks_once_heard(redis_server: Redis) -> None:
    async def go() -> tuple[Heard, Heard, int]:
        one, two = RedisBroker(redis_server.url), RedisBroker(redis_server.url)
        await one.start()
        await two.start()
        first, later = Heard(), Heard()
        two.subscribe("room:e", first)
        await first.subscribed()
        two.unsubscribe("room:e", first)
        await one.publish("room:e", {"n": 1})  # nobody there hears it
        two.subscribe("room:e", later)
        await later.subscribed()
        await one.publish("room:e", {"n": 2})
        await later.wait_for(1)
        heard_by = await one._redis.publish("okgin:room:nobody", b"x")  # no pattern hears every room
        await one.close()
        await two.close()
        return first, later, heard_by

    first, later, heard_by = run(go())
    assert first.messages == [] and first.checks == 1
    assert later.messages == [{"n": 2}] and later.checks == 1
    assert heard_by == 0


def _publishes(redis_server: Redis) -> int:
    """PUBLISH commands Redis has run so far (its INFO commandstats)."""
    import redis

    client = redis.Redis.from_url(redis_server.url)
    try:
        stats = client.info("commandstats").get("cmdstat_publish", {"calls": 0})
        return int(stats["calls"])
    finally:
        client.close()


class Room:
    """A room as LiveRoom keeps one: a version in a store both processes read, published on
    each change; on a sync it publishes its version, on a check it reads the store."""

    def __init__(self, broker: RedisBroker, store: dict[str, int]) -> None:
        self.broker, self.store = broker, store
        self.known = 0  # the newest version this process has heard of or read
        self.direct = 0  # versions heard as events (not read from the store)

    async def __call__(self, message: dict[str, Any]) -> None:
        if message == SYNC:
            await self.broker.publish("room:f", {"version": self.store["version"]})
        elif message == CHECK:
            self.known = max(self.known, self.store["version"])
        else:
            self.known = max(self.known, message["version"])
            self.direct += 1

    async def change(self) -> None:
        self.store["version"] += 1
        await self.broker.publish("room:f", {"version": self.store["version"]})


def test_a_room_served_alone_costs_no_publish_and_a_newcomer_misses_nothing(redis_server: Redis) -> None:
    async def go() -> tuple[int, int, int, int, int]:
        one, two = RedisBroker(redis_server.url), RedisBroker(redis_server.url)
        await one.start()
        await two.start()
        store = {"version": 0}
        here, there = Room(one, store), Room(two, store)
        one.subscribe("room:f", here)
        while "room:f" not in one._confirmed:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # its hello answered by nobody: the room is alone
        before = _publishes(redis_server)
        for _ in range(100):
            await here.change()
        alone_cost = _publishes(redis_server) - before  # at most the first, which finds it alone
        # Another process comes while the changes go on, and they stop the moment we hear its
        # hello: whatever it missed between its check and that moment only the sync brings.
        two.subscribe("room:f", there)
        while "room:f" in one._alone:
            await here.change()
            await asyncio.sleep(0)
        final = store["version"]
        for _ in range(500):
            if there.known == final:
                break
            await asyncio.sleep(0.01)
        known = there.known
        direct = there.direct
        for _ in range(100):  # from now on every change is sent
            await here.change()
        for _ in range(500):
            if there.direct >= direct + 100:
                break
            await asyncio.sleep(0.01)
        direct = there.direct - direct
        two.unsubscribe("room:f", there)  # gone again: the room goes back to publishing nothing
        await asyncio.sleep(0.2)
        await here.change()
        await here.change()
        before = _publishes(redis_server)
        for _ in range(50):
            await here.change()
        alone_again = _publishes(redis_server) - before
        await one.close()
        await two.close()
        return alone_cost, known, final, direct, alone_again

    alone_cost, known, final, direct, alone_again = run(go())
    assert alone_cost <= 1
    assert known == final > 100  # nothing missed (changes were made while it came)
    assert direct == 100  # heard as events once its hello was heard
    assert alone_again == 0
