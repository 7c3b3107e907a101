"""The broker and the presence for ``--broker``: this process alone, or every process through Redis."""

from __future__ import annotations

from okgin.server.rooms.broker import Broker, LocalBroker
from okgin.server.rooms.presence import LocalPresence, Presence, RedisPresence

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def make_broker(url: str | None) -> Broker:
    """The broker for ``url``: None for this process alone, ``redis://…`` for several."""
    if not url:
        return LocalBroker()
    if url.startswith(REDIS_SCHEMES):
        from okgin.server.rooms.redis_broker import RedisBroker  # redis is imported only when used

        return RedisBroker(url)
    raise ValueError(f"unknown broker {url!r}: use redis://host:port")


def make_presence(url: str | None, process: str) -> Presence:
    """Who is at each table: kept in this process alone, or through the Redis at ``url``."""
    if url and url.startswith(REDIS_SCHEMES):
        return RedisPresence(url, process)
    return LocalPresence()
