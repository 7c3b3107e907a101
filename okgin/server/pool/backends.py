"""The pool's store for ``--broker``: in Redis when a broker is configured, else in the game
store's database (either way every process serving the site shares it)."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from okgin.server.pool.store import PoolStore, SqlPool
from okgin.server.rooms.backends import REDIS_SCHEMES


def make_pool_store(broker_url: str | None, engine: Engine) -> PoolStore:
    if broker_url and broker_url.startswith(REDIS_SCHEMES):
        from okgin.server.pool.redis_pool import RedisPool

        return RedisPool(broker_url)
    return SqlPool(engine)
