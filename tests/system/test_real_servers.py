"""The throwaway servers the scale-out tests stand on: both really answer, each database is new."""

from __future__ import annotations

import socket

import psycopg
from real_servers import Postgres, Redis


def test_postgres_answers_and_each_fresh_database_is_empty(postgres: Postgres) -> None:
    first, second = postgres.fresh_database(), postgres.fresh_database()
    assert first != second
    dsn = first.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as connection:
        (version,) = connection.execute("SHOW server_version").fetchone() or ("",)
        tables = connection.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
    assert version and tables == (0,)


def test_redis_answers_ping(redis_server: Redis) -> None:
    with socket.create_connection(("127.0.0.1", redis_server.port), timeout=5) as connection:
        connection.sendall(b"PING\r\n")
        assert connection.recv(16) == b"+PONG\r\n"
