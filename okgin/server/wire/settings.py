"""What `okgin serve` tells the socket and the pages: seeds allowed, the origins allowed, the grace of a
seat left away, the clock. Read by the endpoint (``admission``) and each connection (``sockets``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from okgin.server.wire.clock import Clock


@dataclass(frozen=True, slots=True)
class Settings:
    """What `okgin serve` was told: seeds allowed, origins allowed besides the page's own."""

    allow_seeds: bool = False
    origins: frozenset[str] = frozenset()
    away_grace: float = 60.0
    clock: Clock = field(default_factory=Clock)
    """What day it is for the daily deal (a test's clock file only with ``allow_seeds``)."""
