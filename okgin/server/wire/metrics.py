"""What the server counts for /metrics, in Prometheus's text format (prometheus-client).

One registry per app (not the library's global one), so that every app a test builds counts
on its own: actions acknowledged and how long each took, connections open, rooms served by
this process, and refusals by reason (an error frame's code, or why a connection was closed).
Every answer names its process (``okgin_process_info{process=...}``, the name /healthz gives),
so a scrape through a proxy that may pick either process says which one it read.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import Response

from okgin.server.rooms.live import PROCESS

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds from a move's arrival to its acknowledgement: a move is a few milliseconds."""


class Metrics:
    """The server's counters, gauges and the action latency histogram."""

    def __init__(self, rooms: Callable[[], int]) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter("okgin_actions", "Moves acknowledged (act and next)",
                               registry=self.registry)
        self.latency = Histogram("okgin_action_seconds", "Seconds from a move's arrival to its answer",
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.connections = Gauge("okgin_connections", "WebSocket connections open",
                                 registry=self.registry)
        self.refusals = Counter("okgin_refusals", "Messages and connections refused, by reason",
                                ["reason"], registry=self.registry)
        rooms_gauge = Gauge("okgin_rooms", "Rooms held in this process's memory", registry=self.registry)
        rooms_gauge.set_function(lambda: float(rooms()))
        process = Info("okgin_process", "The process that answered (its /healthz name)",
                       registry=self.registry)
        process.info({"process": PROCESS})

    def acted(self, seconds: float) -> None:
        self.actions.inc()
        self.latency.observe(seconds)

    def refused(self, reason: str) -> None:
        self.refusals.labels(reason=reason).inc()


async def metrics_page(request: Request) -> Response:
    """/metrics: every figure above, for Prometheus to scrape."""
    metrics: Metrics = request.app.state.metrics
    return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)
