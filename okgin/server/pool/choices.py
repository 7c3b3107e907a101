"""What Play online offers: the rules and seats a seeker may choose, and the server's settings
for its tables and waits (every figure published in docs/play-online.md)."""

from __future__ import annotations

from dataclasses import dataclass

from okgin.errors import OkginError

CHOICES: tuple[tuple[str, int], ...] = (
    ("oklahoma-big-gin", 2), ("oklahoma", 2), ("gin", 2),
    ("oklahoma-multiplayer", 3), ("oklahoma-multiplayer", 4),
    ("oklahoma-reshuffle", 3), ("oklahoma-reshuffle", 4),
)
"""(preset, seats): two players for the web game's Oklahoma with Big Gin, classic Oklahoma and
gin; three or four for the multi-player presets (the page names each in the presets' words)."""


class ChoiceError(OkginError):
    """A seek for rules or seats the pool does not offer: the message says what it offers."""


def checked(preset: object, seats: object) -> tuple[str, int]:
    """The choice as (preset, seats); ChoiceError, naming the choices, for anything else."""
    for name, count in CHOICES:
        if preset == name and seats == count and not isinstance(seats, bool):
            return name, count
    offered = "; ".join(f"{name} with {count}" for name, count in CHOICES)
    raise ChoiceError(f"Play online offers: {offered}")


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """How the pool pairs and seats (``okgin serve --pool-offer-seconds`` sets the offer)."""

    offer_seconds: float = 20.0
    """Seconds waited before the page offers a computer player instead (never taken unasked)."""
    timer: int = 60
    """The turn timer of a table Play online seats (seconds per move)."""
    tick: float = 0.5
    """Seconds between two looks at the pool by each process while anyone waits in it."""
    idle_tick: float = 2.0
    """Seconds between two looks while nobody waits: a seek made on a process wakes its look at
    once (each process pairs the whole pool), so an empty pool costs a look every 2 s, not 2 a second."""
    lease: float = 10.0
    """Seconds a seeker stays in the pool after its page's last look (the page looks every second)."""
    claim_seconds: float = 5.0
    """Seconds a process has to make the room of the seekers it claimed; after that any process
    seats them (if the room was made) or puts them back to wait."""
    keep_seconds: float = 120.0
    """Seconds a seated or lapsed seeker is kept, so its page can still read where it sits."""
    level: str = "normal"
    """The computer player offered."""
