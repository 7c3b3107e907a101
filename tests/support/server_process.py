"""A real `okgin serve` on a free loopback port, for the server and browser tests."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


KEEPALIVE_EXPIRY = 1.0
"""Seconds a test's HTTP client keeps an idle connection for reuse: well under uvicorn's 5 s
keep-alive timeout. With httpx's default (also 5 s) a request sent on a connection idle for about
5 s could meet the server closing it ("Server disconnected without sending a response"), more
often the busier the machine."""


def web_client(base_url: str, **options: Any) -> httpx.Client:
    """An httpx client for a real server that never reuses a connection the server may be closing."""
    return httpx.Client(base_url=base_url, limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY), **options)


HUNG = 300
"""Seconds a started process may stay alive without answering before the start is called hung."""


def _answers(port: int) -> bool:
    """Whether an HTTP server on ``port`` answers GET /healthz (whatever the status)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
        connection.getresponse().read()
        return True
    except OSError:
        return False
    finally:
        connection.close()


class ServerProcess:
    """`okgin serve` in a child process, storing games in a SQLite file.

    ``allow_seeds`` starts it with --allow-seeds, so a test may choose the deal; ``extra``
    adds other options (e.g. ``("--origin", "https://example.com")``).
    """

    def __init__(self, db: Path, port: int | None = None, allow_seeds: bool = False,
                 extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.port = port or free_port()
        self.allow_seeds = allow_seeds
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = db.with_name(db.name + ".log")
        """The server's standard error, in a file: a pipe nobody reads would block a chatty server."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProcess:
        command = [sys.executable, "-m", "okgin.cli", "serve", "--port", str(self.port),
                   "--db", f"sqlite:///{self.db}", *(["--allow-seeds"] if self.allow_seeds else []),
                   *self.extra]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
        self.wait_until_answering()
        return self

    def wait_until_answering(self) -> None:
        """Wait until /healthz answers (any status: the server is up and reading requests).

        No fixed deadline decides that a slow start on a loaded machine failed: the wait ends
        as soon as the server answers, or at once with its standard error when the process
        exits. Only a process that stays alive and silent for ``HUNG`` seconds is given up on.
        """
        assert self.process is not None
        started = time.monotonic()
        while self.process.poll() is None:
            if _answers(self.port):
                return
            if time.monotonic() - started > HUNG:
                raise RuntimeError(f"server alive but not answering /healthz after {HUNG} s: {self.log()}")
            time.sleep(0.05)
        raise RuntimeError(f"server exited ({self.process.returncode}): {self.log()}")

    def log(self) -> str:
        """What the server has written to standard error so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no chance to clean up, as in a crash."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def pause(self) -> None:
        """SIGSTOP: the process hangs (its sockets stay open, nothing answers), as in a stall."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT: a paused process carries on (harmless on one that is running)."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


Serve = Callable[..., ServerProcess]
"""The ``serve`` fixture (tests/conftest.py): a module's server with these options, started once."""
