"""The broker: how a room's events reach every connection watching it, in any process.

``LocalBroker`` serves one process; ``okgin.server.rooms.redis_broker.RedisBroker`` has the same
methods over Redis pub/sub, for several processes. A message is a small dict such as
``{"room": code, "version": 7, "event": "0 draw"}``: never cards, so a broker sees no secret.
RedisBroker also hands its subscribers ``{"check": True}``, ``{"resync": True}`` and
``{"sync": True}`` (see redis_broker.py for what each asks of a room).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from okgin.errors import OkginError

log = logging.getLogger("okgin.server")

Callback = Callable[[dict[str, Any]], Awaitable[None]]


class BrokerError(OkginError):
    """The broker cannot be reached or used: the message says why, in one line."""


class Broker(Protocol):
    """Publish and subscribe by channel name."""

    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...
    def subscribe(self, channel: str, callback: Callback) -> None: ...
    def unsubscribe(self, channel: str, callback: Callback) -> None: ...
    async def start(self) -> None: ...
    async def close(self) -> None: ...


class Subscribers:
    """The subscriber lists both brokers keep, and delivery to them in order.

    One subscriber's failure is logged and does not stop the others hearing: a refusal from
    the store (OkginError) in one line, anything else (a bug) with its traceback.
    """

    def __init__(self) -> None:
        self._subscribers: dict[str, list[Callback]] = {}

    def subscribe(self, channel: str, callback: Callback) -> None:
        self._subscribers.setdefault(channel, []).append(callback)

    def unsubscribe(self, channel: str, callback: Callback) -> None:
        callbacks = self._subscribers.get(channel, [])
        if callback in callbacks:
            callbacks.remove(callback)
        if not callbacks:
            self._subscribers.pop(channel, None)

    async def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for callback in list(self._subscribers.get(channel, ())):
            try:
                await callback(message)
            except OkginError as error:  # e.g. the store is locked: one line, not a traceback
                log.warning("%s: %s", channel, error)
            except Exception:
                log.exception("a subscriber of %s failed", channel)


class LocalBroker(Subscribers):
    """Delivers in this process, to each subscriber in turn, in the order published."""

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self._deliver(channel, message)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._subscribers.clear()
        await asyncio.sleep(0)
