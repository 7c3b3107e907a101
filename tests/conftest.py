"""Shared fixtures: throwaway real PostgreSQL and Redis servers, started once per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from real_servers import MissingServer, Postgres, Redis


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    try:
        server = Postgres().start()
    except MissingServer as missing:
        pytest.fail(str(missing), pytrace=False)  # never a skip: CI must run these tests
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    try:
        server = Redis().start()
    except MissingServer as missing:
        pytest.fail(str(missing), pytrace=False)
    yield server
    server.stop()
