"""RedisBroker: room events between several `okgin serve` processes over Redis pub/sub.

The same methods and subscriber lists as ``LocalBroker`` (``Subscribers`` in broker.py). A
message published here is delivered at once to this process's subscribers, in publish order,
before ``publish`` returns (as LocalBroker does), and through Redis to every other process,
where each channel's messages are delivered in order and channels do not wait for one
another. Each process subscribes (on one connection) to the channels of the rooms it serves
only, so no process reads the events of rooms it does not serve. A SUBSCRIBE takes a round
trip, so once Redis confirms it the channel's subscribers get ``{"check": True}``: an event
published meanwhile may have been missed, so compare with the store's version. After Redis
comes back from an outage, each subscriber gets ``{"resync": True}``: events may have been
missed, so reload from the store.

A room served by one process alone (the usual case behind a proxy that routes a room to one
process) costs Redis nothing per event: when a PUBLISH reaches nobody but ourselves, the
channel is marked alone and later events are not sent. A process that subscribes says hello
on the channel once Redis confirms it; whoever hears the hello publishes again from then on
and asks its subscribers for a ``{"sync": True}`` answer (a room publishes its version), which
covers any event left unsent between the newcomer's check and the hello.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from okgin.server.rooms.broker import BrokerError, Callback, Subscribers

log = logging.getLogger("okgin.server")

PREFIX = "okgin:"
RETRY_SECONDS = (0.1, 0.2, 0.5, 1.0, 2.0)
RESYNC: dict[str, Any] = {"resync": True}
CHECK: dict[str, Any] = {"check": True}
SYNC: dict[str, Any] = {"sync": True}
HELLO = b'{"hello":true}'
TAG = 16  # a payload is the publishing broker's origin (16 hex digits), then the message's JSON


class RedisBroker(Subscribers):
    """Publish and subscribe by channel name, across processes, through one Redis server."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.origin = secrets.token_hex(8)  # tags our own messages, which Redis echoes back to us
        self._tag = self.origin.encode()  # each payload's first 16 bytes: our echo is dropped unparsed
        # A publish retries over a fresh connection: after an outage the pooled one is dead.
        retry = Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=3)
        self._redis: aioredis.Redis = aioredis.from_url(
            url, health_check_interval=10, retry=retry,
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
        self._connects = 0
        self._tails: dict[str, asyncio.Task[None]] = {}  # each channel's last delivery under way
        self._reader: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._pubsub: Any = None  # the listening connection's PubSub, while connected
        self._orders: asyncio.Queue[tuple[bool, str]] = asyncio.Queue()  # (subscribe?, channel), in order
        self._own = PREFIX + "process:" + self.origin  # always subscribed: listen() needs one channel
        self._confirmed: set[str] = set()  # channels Redis has confirmed we listen to
        self._alone: set[str] = set()  # channels where our last PUBLISH reached only ourselves
        self._news = 0  # hellos heard, confirmations, unsubscribes, outages: each can end "alone"
        self._hellos: set[asyncio.Task[None]] = set()

    def subscribe(self, channel: str, callback: Callback) -> None:
        first = channel not in self._subscribers
        super().subscribe(channel, callback)
        if first:
            self._orders.put_nowait((True, channel))

    def unsubscribe(self, channel: str, callback: Callback) -> None:
        super().unsubscribe(channel, callback)
        if channel not in self._subscribers:
            self._orders.put_nowait((False, channel))
            self._confirmed.discard(channel)
            self._alone.discard(channel)
            self._news += 1

    async def start(self) -> None:
        """Connect and start listening; BrokerError when Redis cannot be reached."""
        try:
            await self._redis.ping()
        except (RedisError, OSError) as error:
            raise BrokerError(f"cannot reach the broker {self.url}: {error}") from None
        self._reader = asyncio.get_running_loop().create_task(self._listen())
        await asyncio.wait_for(self._listening.wait(), 10)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Deliver to our subscribers now, then to the other processes through Redis."""
        await self._deliver(channel, message)
        if channel not in self._alone:  # alone: no other process listens, nothing to send
            await self._send(channel, orjson.dumps(message))

    async def _send(self, channel: str, body: bytes) -> None:
        """PUBLISH ``body``; when it reached only ourselves and nothing new was heard meanwhile,
        the channel is alone (a hello heard, a confirmation or an outage may have come between
        Redis counting the receivers and our reading the count: then it is not)."""
        news = self._news
        try:
            receivers = await self._redis.publish(PREFIX + channel, self._tag + body)
        except (RedisError, OSError) as error:
            # The change is already in the store; the others reload on the resync that follows
            # the outage. Failing the caller here would report "failed" for a saved change.
            log.warning("could not publish on %s: %s", channel, error)
            return
        if receivers == 1 and news == self._news and channel in self._confirmed:
            self._alone.add(channel)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        for task in [*self._tails.values(), *self._hellos]:
            task.cancel()
        self._subscribers.clear()
        await self._redis.aclose()

    # -- the listening side ----------------------------------------------------------------

    async def _listen(self) -> None:
        """Read every okgin channel; on a dropped connection, reconnect and ask for a resync."""
        failures = 0
        while True:
            try:
                await self._read()
            except (RedisError, OSError) as error:
                failures = 0 if self._listening.is_set() else failures + 1
                self._listening.clear()
                self._confirmed.clear()  # not listening: others' hellos go unheard, so publish
                self._alone.clear()
                self._news += 1
                delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                log.warning("lost the broker (%s); retrying in %.1f s", error, delay)
                await asyncio.sleep(delay)

    async def _read(self) -> None:
        async with self._redis.pubsub() as pubsub:
            while not self._orders.empty():  # what was asked before: all subscribed below
                self._orders.get_nowait()
            await pubsub.subscribe(self._own)
            await pubsub.get_message(timeout=5)  # its confirmation: the connection works
            channels = [PREFIX + channel for channel in self._subscribers]
            if channels:
                await pubsub.subscribe(*channels)
            self._listening.set()
            if self._connects:  # a reconnect, after an outage: events may have been missed meanwhile
                for channel in list(self._subscribers):
                    self._queue(channel, RESYNC)
            self._connects += 1
            writer = asyncio.get_running_loop().create_task(self._write(pubsub))
            try:
                async for raw in pubsub.listen():
                    await self._received(raw)
            finally:
                writer.cancel()

    async def _write(self, pubsub: Any) -> None:
        """Send the SUBSCRIBE and UNSUBSCRIBE asked for, one at a time, in the order asked."""
        while True:
            on, channel = await self._orders.get()
            if on:
                await pubsub.subscribe(PREFIX + channel)
            else:
                await pubsub.unsubscribe(PREFIX + channel)

    async def _received(self, raw: dict[str, Any]) -> None:
        kind = raw.get("type")
        if kind == "subscribe":  # now heard: an event published before this may have been missed
            channel = _text(raw["channel"])[len(PREFIX):]
            if channel in self._subscribers:
                self._confirmed.add(channel)
                self._news += 1
                self._queue(channel, CHECK)
                self._say_hello(channel)
            return
        if kind != "message":
            return
        channel = _text(raw["channel"])[len(PREFIX):]
        if channel not in self._subscribers:
            return  # unsubscribed meanwhile
        data = raw["data"]
        if data[:TAG] == self._tag:
            return  # our own, echoed: our subscribers heard it when it was published
        if data[TAG:] == HELLO:  # another process listens now: publish, and answer its check
            self._alone.discard(channel)
            self._news += 1
            self._queue(channel, SYNC)
            return
        try:
            message = orjson.loads(data[TAG:])
        except (ValueError, TypeError):
            message = None
        if not isinstance(message, dict) or len(data) <= TAG:
            log.warning("ignored a malformed broker message on %s", channel)
            return
        self._queue(channel, message)

    def _say_hello(self, channel: str) -> None:
        """Tell the channel's other processes we listen (without holding up the reading)."""
        task = asyncio.get_running_loop().create_task(self._send(channel, HELLO))
        self._hellos.add(task)
        task.add_done_callback(self._hellos.discard)

    def _queue(self, channel: str, message: dict[str, Any]) -> None:
        """Deliver after the channel's previous message, without waiting here: one room's slow
        subscriber (a reload from the store) must not hold up every other room's events."""
        previous = self._tails.get(channel)
        task = asyncio.get_running_loop().create_task(self._after(previous, channel, message))
        self._tails[channel] = task
        task.add_done_callback(lambda done: self._finished(channel, done))

    def _finished(self, channel: str, task: asyncio.Task[None]) -> None:
        if self._tails.get(channel) is task:
            del self._tails[channel]

    async def _after(
        self, previous: asyncio.Task[None] | None, channel: str, message: dict[str, Any],
    ) -> None:
        if previous is not None:
            await asyncio.wait([previous])  # its outcome is its own; only its end matters here
        await self._deliver(channel, message)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def check_broker(url: str) -> None:
    """Fail fast, before serving, when ``url`` names no reachable Redis (one-line BrokerError)."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
    except ValueError as error:
        raise BrokerError(f"cannot use {url!r} as the broker: {error}") from None
    try:
        client.ping()
    except (RedisError, OSError) as error:
        raise BrokerError(f"cannot reach the broker {url}: {error}") from None
    finally:
        client.close()
