"""Shared fixtures: a store and the app on it, and throwaway real PostgreSQL and Redis servers
(started once per test session)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from longest_first import DurationsRecorder, known_seconds, longest_first
from real_servers import MissingServer, Postgres, Redis
from server_process import Serve, ServerProcess
from starlette.applications import Starlette

from okgin.server import create_app

# Our servers answer at once on a quiet machine, but a review or a statistics page worked out on
# a machine loaded by other work can take longer than httpx's 5 s: the tests' HTTP calls (every
# httpx function and client, whichever test makes them) wait up to a minute for an answer.
PATIENT = httpx.Timeout(60.0)
for call in (httpx.get, httpx.post, httpx.put, httpx.delete, httpx.request,
             httpx.Client.__init__, httpx.AsyncClient.__init__):
    assert call.__kwdefaults__ is not None and "timeout" in call.__kwdefaults__
    call.__kwdefaults__["timeout"] = PATIENT


# Each folder's tests carry its folder's marker, so `pytest -m "not system and not browser"`
# (make test-fast) leaves out the ones that start whole processes, real servers or Chromium.
FOLDER_MARKERS = {"system": pytest.mark.system, "browser": pytest.mark.browser}
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        folder = item.path.resolve().relative_to(TESTS).parts[0]
        if folder in FOLDER_MARKERS:
            item.add_marker(FOLDER_MARKERS[folder])
    items[:] = longest_first(items, known_seconds())


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--write-durations", metavar="PATH", type=Path,
                     help="write each test file's seconds in this run to PATH (tests/durations.json)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("write_durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(DurationsPlugin(config.getoption("write_durations")))


class DurationsPlugin:
    """Records the run's seconds per file in the process that receives every report."""

    def __init__(self, path: Path) -> None:
        self.path, self.recorder = path, DurationsRecorder()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.recorder.add(report)

    def pytest_sessionfinish(self) -> None:
        self.recorder.write(self.path)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A new SQLite store's path (the HTTP tests that call the app in process)."""
    return tmp_path / "games.db"


@pytest.fixture
def app(db: Path) -> Starlette:
    """The web app on that store, called in process (no server)."""
    return create_app(f"sqlite:///{db}")


@pytest.fixture(scope="module")
def serve(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """The module's servers: ``serve(allow_seeds=..., extra=(...))`` starts an `okgin serve`
    (SQLite) with those options the first time a test of the module asks, and gives the same
    one to the module's other tests; each is stopped after the module. A start is the slow part
    of most server tests, so a module starts each kind of server once."""
    started: dict[tuple[bool, tuple[str, ...]], ServerProcess] = {}

    def start(allow_seeds: bool = False, extra: tuple[str, ...] = ()) -> ServerProcess:
        if (allow_seeds, extra) not in started:
            where = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
            started[allow_seeds, extra] = ServerProcess(where / "games.db", allow_seeds=allow_seeds,
                                                        extra=extra).start()
        return started[allow_seeds, extra]

    yield start
    for process in started.values():
        process.stop()


@pytest.fixture(scope="module")
def server(serve: Serve) -> ServerProcess:
    """One `okgin serve` (SQLite, seeds allowed) shared by a test module's tests; a module
    that needs another kind asks ``serve`` for it in its own ``server``."""
    return serve(allow_seeds=True)


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


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new empty store on each database the server runs on (PostgreSQL started only when asked)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return str(request.getfixturevalue("postgres").fresh_database())


@pytest.fixture
def pair(tmp_path: Path, postgres: Postgres, redis_server: Redis) -> Iterator[tuple[ServerProcess, ...]]:
    """Two `okgin serve` processes sharing a fresh PostgreSQL database and the Redis broker, seeds
    allowed (tests/system/); each has the database's URL as ``db_url``, to read the store behind them."""
    url = postgres.fresh_database()
    shared = ("--db", url, "--broker", redis_server.url)  # the last --db wins over the SQLite one
    one = ServerProcess(tmp_path / "unused1.db", allow_seeds=True, extra=shared)
    two = ServerProcess(tmp_path / "unused2.db", allow_seeds=True, extra=shared)
    one.start()  # one after the other: the first creates the tables
    two.start()
    one.db_url = two.db_url = url  # type: ignore[attr-defined]
    yield one, two
    one.stop()
    two.stop()
