"""`okgin serve`: the app made from the command's options and served by uvicorn until the process
is stopped, the app told when it is (``Settings.stopping``)."""

from __future__ import annotations

import argparse
import gc
from types import FrameType

import uvicorn

from okgin.errors import OkginError
from okgin.server.app import create_app
from okgin.server.pool.choices import PoolSettings
from okgin.server.wire.keepalive import QuietPings
from okgin.server.wire.limits import NO_ADDRESS_LIMITS

WS_MAX_SIZE = 32_768
"""The transport's frame limit in bytes: the app reads at most 16,384 characters."""

WS_PING_SECONDS = 2.0
"""How long a WebSocket may be sent nothing before it is pinged (``wire.keepalive``). A proxy in
front (deploy/okgin.conf) closes a connection that brings nothing for 5 s, so that a hung
process's players reconnect to another one; the pings keep a quiet table's connection busy well
within that, and a table in play is kept so by its frames."""

SHUTDOWN_GRACE = 3
"""Seconds a stopped process (SIGTERM, a deploy's restart) waits for open requests to finish
before it cuts them. The API's streams, which never finish by themselves, end within a second
of the signal (``Settings.stopping``); this is the bound for anything else."""


YOUNG_OBJECTS_BEFORE_COLLECTING = 20_000
"""The collector's first threshold (Python's default is 700; the older generations' are 20, not
10). With the defaults, objects still in use at a young collection (a frame on its way) were
promoted and then traced again in full collections, each of which walks every room's objects:
at 500 rooms in the closed loop the collector took a tenth of the CPU, a full collection 0.14 s
(docs/performance.md). Reference counting frees almost every object anyway; the collector is
only for cycles."""


def settle_memory() -> None:
    """Once the app is made: what was made to start it (modules, tables, the app) is moved out of
    the collector's sight (``gc.freeze``), and the collector looks less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_BEFORE_COLLECTING, 20, 20)


def serve(args: argparse.Namespace) -> int:
    """`okgin serve`'s options (okgin/cli.py) → the app, served until stopped."""
    if args.clock_file and not args.allow_seeds:
        raise OkginError("--clock-file is for tests only: it needs --allow-seeds")
    if args.broker:  # an unreachable Redis stops here in one line, not in uvicorn's lifespan
        from okgin.server.rooms.redis_broker import check_broker

        check_broker(args.broker)
    # A store that cannot be opened stops here too, in one line.
    hosts = list(dict.fromkeys([args.host.strip("[]"), "localhost", *args.allowed_host]))
    app = create_app(
        args.db, broker_url=args.broker, allow_seeds=args.allow_seeds, origins=args.origin,
        idle_hours=args.idle_hours or None, limits=NO_ADDRESS_LIMITS if args.no_address_limits else None,
        away_seconds=args.away_seconds, hosts=hosts, secure_cookies=args.secure_cookies,
        pool=PoolSettings(offer_seconds=args.pool_offer_seconds), clock_file=args.clock_file,
    )
    settle_memory()
    where = app.state.store.url  # the URL with its password, if any, hidden
    print(f"okgin: playing at http://{args.host}:{args.port}  (games stored in {where})", flush=True)
    print(f"okgin: answering the host names {', '.join(hosts)} (more with --allowed-host NAME)", flush=True)
    config = uvicorn.Config(
        app, host=args.host, port=args.port, log_level="warning",
        ws_per_message_deflate=False,  # small frames on loopback: compression costs more than it saves
        ws=QuietPings, ws_max_size=WS_MAX_SIZE, ws_ping_interval=WS_PING_SECONDS,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
    )
    stopping = app.state.settings.stopping

    class Server(uvicorn.Server):
        """uvicorn's server, telling the app when it is asked to stop (``Settings.stopping``)."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stopping.ask()
            super().handle_exit(sig, frame)

    Server(config).run()
    return 0
