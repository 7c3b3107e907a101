"""What `okgin serve` tells the socket and the pages: seeds allowed, the origins allowed, the grace of a
seat left away, the clock, and whether the process was asked to stop. Read by the endpoint
(``admission``), each connection (``sockets``) and the API's streams."""

from __future__ import annotations

from dataclasses import dataclass, field

from okgin.server.wire.clock import Clock


class Stopping:
    """Whether the process was asked to stop (SIGTERM, Ctrl-C: `okgin serve` says so): responses
    that never end by themselves, the API's streams, end at their next look (within a second)
    rather than hold the process until its grace runs out."""

    __slots__ = ("asked",)

    def __init__(self) -> None:
        self.asked = False

    def ask(self) -> None:
        """Called from the signal handler: one assignment, safe there."""
        self.asked = True


@dataclass(frozen=True, slots=True)
class Settings:
    """What `okgin serve` was told: seeds allowed, origins allowed besides the page's own."""

    allow_seeds: bool = False
    origins: frozenset[str] = frozenset()
    away_grace: float = 60.0
    clock: Clock = field(default_factory=Clock)
    """What day it is for the daily deal (a test's clock file only with ``allow_seeds``)."""
    stopping: Stopping = field(default_factory=Stopping)
