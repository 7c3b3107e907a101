"""Throwaway real PostgreSQL and Redis servers on free loopback ports, for tests and benchmarks.

Debian's `postgresql` and `redis-server` packages provide them (`make test` installs both).
PostgreSQL refuses to run as root, so as root its commands run as the `postgres` user
(setpriv execs, so the process we hold is postgres itself and signals reach it).
"""

from __future__ import annotations

import glob
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

INSTALL_HINT = "`make test` installs them (apt-get install postgresql redis-server)"


class MissingServer(RuntimeError):
    """A server's binaries are not installed."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for_port(port: int, process: subprocess.Popen[bytes], name: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited at start with code {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{name} did not listen on port {port} within {seconds:.0f} s")


def _stop(process: subprocess.Popen[bytes] | None, sig: int) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def postgres_bin() -> Path:
    """The newest installed PostgreSQL's bin folder (Debian keeps it off PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not found:
        raise MissingServer(f"PostgreSQL is not installed (no /usr/lib/postgresql/*/bin): {INSTALL_HINT}")
    return Path(found[-1]).parent


class Postgres:
    """A PostgreSQL cluster in a temp dir: trust auth on loopback, no fsync (it is thrown away)."""

    USER = "okgin"

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="okgin-pg-"))
        self.process: subprocess.Popen[bytes] | None = None
        self._as_postgres: list[str] = []
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise MissingServer(f"no `postgres` user to run PostgreSQL as: {INSTALL_HINT}") from None
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self._as_postgres = ["setpriv", f"--reuid={owner.pw_uid}", f"--regid={owner.pw_gid}",
                                 "--init-groups", "--"]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.USER}@127.0.0.1:{self.port}/{database}"

    def start(self) -> Postgres:
        data = self.dir / "data"
        initdb = [*self._as_postgres, str(self.bin / "initdb"), "-D", str(data), "-U", self.USER,
                  "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]
        done = subprocess.run(initdb, capture_output=True, cwd=self.dir)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.decode(errors='replace').strip()}")
        command = [*self._as_postgres, str(self.bin / "postgres"), "-D", str(data), "-p", str(self.port),
                   "-h", "127.0.0.1", "-k", str(self.dir), "-F", "-c", "max_connections=200"]
        log = open(self.dir / "postgres.log", "wb")  # noqa: SIM115 (the server keeps writing it)
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.dir)
        log.close()
        _wait_for_port(self.port, self.process, "postgres")
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self._dsn("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:  # still starting up ("the database system is starting up")
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _dsn(self, database: str) -> str:
        return f"host=127.0.0.1 port={self.port} user={self.USER} dbname={database}"

    def fresh_database(self) -> str:
        """A new empty database: its SQLAlchemy URL (each test gets its own)."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(self._dsn("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        _stop(self.process, signal.SIGINT)  # SIGINT: PostgreSQL's fast shutdown
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A redis-server on a free loopback port, with no persistence."""

    def __init__(self) -> None:
        found = shutil.which("redis-server")
        if found is None:
            raise MissingServer(f"redis-server is not installed: {INSTALL_HINT}")
        self.binary = found
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="okgin-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        """Start (or, after ``stop``, start again on the same port: an outage and recovery)."""
        self.dir.mkdir(exist_ok=True)
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", str(self.dir), "--daemonize", "no",
                   "--protected-mode", "yes", "--loglevel", "warning"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_port(self.port, self.process, "redis-server")
        return self

    def stop(self) -> None:
        _stop(self.process, signal.SIGTERM)
        shutil.rmtree(self.dir, ignore_errors=True)


class Nginx:
    """Debian's nginx on a free loopback port, running the shipped deploy/okgin.conf in front of
    the given okgin ports (the config's own upstream ports and listen port are replaced, each
    server keeping the shipped line's failure settings)."""

    CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "okgin.conf"

    def __init__(self, upstream_ports: list[int], address_limits: bool = True) -> None:
        found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
        if found is None:
            raise MissingServer("nginx is not installed: `make test` installs it (apt-get install nginx)")
        self.binary = found
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="okgin-nginx-"))
        self.dir.chmod(0o755)  # nginx's workers (user nobody, as root starts them) read from here
        self.upstream_ports = upstream_ports
        self.address_limits = address_limits
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def site(self) -> str:
        """The shipped config with this test's ports."""
        text = self.CONFIG.read_text()
        shipped = re.search(r"(?m)^    server 127\.0\.0\.1:\d+ (.*)\n", text)
        assert shipped is not None, "deploy/okgin.conf names no upstream server"
        servers = "".join(f"    server 127.0.0.1:{port} {shipped.group(1)}\n" for port in self.upstream_ports)
        text = re.sub(r"(?m)^    server 127\.0\.0\.1:\d+ .*\n", "", text)
        text = text.replace("    keepalive 32;", servers + "    keepalive 32;")
        if not self.address_limits:  # a benchmark's thousands of players all come from 127.0.0.1
            text = re.sub(r"(?m)^\s*limit_(conn|req) .*\n", "", text)
        return text.replace("listen 8000;", f"listen 127.0.0.1:{self.port};")

    def start(self) -> Nginx:
        (self.dir / "okgin.conf").write_text(self.site())
        temp = self.dir / "temp"
        temp.mkdir(mode=0o777)
        (self.dir / "nginx.conf").write_text(
            "worker_processes 1;\n"
            f"pid {self.dir}/nginx.pid;\n"
            f"error_log {self.dir}/error.log warn;\n"
            "worker_rlimit_nofile 20000;\n"
            "events { worker_connections 8192; }\n"
            "http {\n"
            f"  access_log off;\n"
            f"  client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy;\n"
            f"  fastcgi_temp_path {temp}/fastcgi; uwsgi_temp_path {temp}/uwsgi; scgi_temp_path {temp}/scgi;\n"
            f"  include {self.dir}/okgin.conf;\n"
            "}\n")
        command = [self.binary, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for_port(self.port, self.process, "nginx")
        return self

    def stop(self) -> None:
        _stop(self.process, signal.SIGQUIT)  # nginx's graceful stop
        shutil.rmtree(self.dir, ignore_errors=True)
