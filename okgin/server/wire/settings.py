"""What `okgin serve` tells the socket: seeds allowed, the origins allowed, the grace of a
seat left away. Read by the endpoint (``admission``) and each connection (``sockets``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    """What `okgin serve` was told: seeds allowed, origins allowed besides the page's own."""

    allow_seeds: bool = False
    origins: frozenset[str] = frozenset()
    away_grace: float = 60.0
