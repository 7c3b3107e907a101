"""RedisBroker: room events between several `okgin serve` processes over Redis pub/sub.

The same methods and subscriber lists as ``LocalBroker`` (``Subscribers`` in broker.py). A
message published here is delivered at once to this process's subscribers, in publish order,
before ``publish`` returns (as LocalBroker does), and through Redis to every other process,
where each channel's messages are delivered in order and channels do not wait for one
another. Each process listens to one pattern (every okgin channel) on one connection, so a
subscription is active the moment it is made: nothing published after ``subscribe`` returns
can be missed while a SUBSCRIBE round trip is under way. After Redis comes back from an
outage, each subscriber gets ``{"resync": True}``: events may have been missed, so reload
from the store.
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

from okgin.errors import OkginError
from okgin.server.rooms.broker import Subscribers

log = logging.getLogger("okgin.server")

PREFIX = "okgin:"
RETRY_SECONDS = (0.1, 0.2, 0.5, 1.0, 2.0)
RESYNC: dict[str, Any] = {"resync": True}


class BrokerError(OkginError):
    """The broker cannot be reached or used: the message says why, in one line."""


class RedisBroker(Subscribers):
    """Publish and subscribe by channel name, across processes, through one Redis server."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.origin = secrets.token_hex(8)  # tags our own messages, which Redis echoes back to us
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
        payload = orjson.dumps({"origin": self.origin, "message": message})
        try:
            await self._redis.publish(PREFIX + channel, payload)
        except (RedisError, OSError) as error:
            # The change is already in the store; the others reload on the resync that follows
            # the outage. Failing the caller here would report "failed" for a saved change.
            log.warning("could not publish on %s: %s", channel, error)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        for task in list(self._tails.values()):
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
                delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                log.warning("lost the broker (%s); retrying in %.1f s", error, delay)
                await asyncio.sleep(delay)

    async def _read(self) -> None:
        async with self._redis.pubsub(ignore_subscribe_messages=True) as pubsub:
            await pubsub.psubscribe(PREFIX + "*")
            await pubsub.get_message(timeout=5)  # the psubscribe confirmation: we now hear all
            self._listening.set()
            if self._connects:  # a reconnect, after an outage: events may have been missed meanwhile
                for channel in list(self._subscribers):
                    self._queue(channel, RESYNC)
            self._connects += 1
            async for raw in pubsub.listen():
                await self._received(raw)

    async def _received(self, raw: dict[str, Any]) -> None:
        if raw.get("type") != "pmessage":
            return
        channel = _text(raw["channel"])[len(PREFIX):]
        if channel not in self._subscribers:
            return  # a room this process does not serve: every process hears every room's events
        try:
            envelope = orjson.loads(raw["data"])
            message, origin = envelope["message"], envelope["origin"]
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed broker message on %s", channel)
            return
        if origin != self.origin and isinstance(message, dict):
            self._queue(channel, message)

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
