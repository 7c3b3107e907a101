"""Opening the store's database: an engine set up for a server, and its failures as one-line StorageErrors."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError, NoSuchModuleError, SQLAlchemyError

from okgin.errors import OkginError

DEFAULT_URL = "sqlite:///okgin.db"
SQLITE_BUSY_SECONDS = 2.0
"""How long a write waits for a lock held elsewhere before answering "busy" (SQLite)."""
IDLE_PING_SECONDS = 5.0
"""A pooled connection unused this long is pinged before it is handed out, and replaced if the
database dropped it (a restart, a failover, a firewall's idle timeout). Pinging every checkout
(``pool_pre_ping``) cost a round trip per query while a room is being played."""


class StorageError(OkginError):
    """The game store cannot be opened or written: the message says why, in one line."""


def open_engine(url: str) -> Engine:
    """The engine for ``url``, its connections set up for a server (or a clear StorageError)."""
    try:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        engine = create_engine(url, pool_size=8, max_overflow=8)
        event.listen(engine, "checkin", _checked_in)
        event.listen(engine, "checkout", _idle_pinger(engine.dialect))
        return engine
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise StorageError(f"cannot use {url!r} as the game store: {_first_line(error)}") from None


@contextlib.contextmanager
def one_statement(engine: Engine, doing: str) -> Iterator[Any]:
    """A pooled connection's driver connection, in autocommit, for a statement that is a
    transaction of its own (PostgreSQL: one round trip; SQLAlchemy's Connection adds a BEGIN
    before it and a COMMIT or a ROLLBACK after it, two more). A failure is a one-line
    StorageError saying ``doing``; a connection it broke is dropped from the pool."""
    with storage_errors(doing):
        pooled = engine.raw_connection()
    driver: Any = pooled.driver_connection
    try:
        driver.autocommit = True
        try:
            yield driver
        finally:
            if not driver.broken:
                driver.autocommit = False
    except engine.dialect.loaded_dbapi.Error as error:
        if driver.broken or driver.closed:
            pooled.invalidate()
        raise StorageError(f"{doing}: {_first_line(error)}") from None
    finally:
        pooled.close()


@contextlib.contextmanager
def storage_errors(doing: str) -> Iterator[None]:
    """Turn a database failure into a StorageError with one line saying what and why."""
    try:
        yield
    except SQLAlchemyError as error:
        raise StorageError(f"{doing}: {_reason(error)}") from None


def _reason(error: SQLAlchemyError) -> str:
    """The database's own reason, short: "database is locked", "file is not a database"."""
    original = error.orig if isinstance(error, DBAPIError) else None
    reason = _first_line(original) if original is not None else _first_line(error)
    if "locked" in reason or "could not obtain lock" in reason:
        return f"the store is busy ({reason}); try again"
    return reason


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0].strip() if lines else type(error).__name__


def compact_json(data: Any) -> str:
    """``data`` as compact JSON text (orjson: a tenth of ``json.dumps``'s time, the same JSON)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def _checked_in(_connection: Any, record: Any) -> None:
    record.info["idle_since"] = time.monotonic()


def _idle_pinger(dialect: Dialect) -> Callable[[Any, Any, Any], None]:
    def ping_if_idle(connection: Any, record: Any, _proxy: Any) -> None:
        """Ping a connection that has been idle a while; one that fails is replaced (the pool
        retries the checkout with a new connection on DisconnectionError)."""
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < IDLE_PING_SECONDS:
            return
        try:
            dialect.do_ping(connection)
        except dialect.loaded_dbapi.Error as error:
            raise DisconnectionError(f"dropped while idle: {_first_line(error)}") from error

    return ping_if_idle


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
