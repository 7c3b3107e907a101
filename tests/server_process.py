"""A real `okgin serve` on a free loopback port, for the server and browser tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

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
