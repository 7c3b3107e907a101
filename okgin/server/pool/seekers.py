"""A seeker: one player waiting in the pool for a table of one choice of rules and seats.

Plain data, the same in the database (``pool_seekers``) and in Redis (one JSON value per
seeker). ``state`` moves only forward: waiting, then claimed by one process's pairing (its
``claim`` is the room it is making), then seated at that room; a claim that outlives
``claim_until`` (its process died) goes back to waiting, or on to seated if its room exists.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass
from typing import Any

WAITING = "waiting"
CLAIMED = "claimed"
SEATED = "seated"


@dataclass(frozen=True, slots=True)
class Seeker:
    """A player in the pool (``rating``: their shown rating in the family of ``seats``; ``bot``:
    a bot account seeking through the API; ``bots``: a person who allows bot opponents)."""

    id: str
    player: str
    name: str
    preset: str
    seats: int
    rating: int
    joined: float
    lease: float
    state: str = WAITING
    claim: str | None = None
    claim_until: float | None = None
    room: str | None = None
    seat: int | None = None
    changed: float = 0.0
    bot: bool = False
    bots: bool = False

    @classmethod
    def new(cls, player: str, name: str, preset: str, seats: int, rating: int, now: float,
            lease: float, bot: bool = False, bots: bool = False, id: str | None = None) -> Seeker:
        return cls(id or secrets.token_urlsafe(12), player, name, preset, seats, rating, now, now + lease,
                   changed=now, bot=bot, bots=bots)

    def waited(self, now: float) -> float:
        """Seconds in the pool so far."""
        return max(0.0, now - self.joined)

    def live(self, now: float) -> bool:
        """Is the seeker's page still there (its lease not run out)?"""
        return self.lease > now

    def to_data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Seeker:
        fields = {name: data.get(name) for name in cls.__dataclass_fields__}
        return cls(**{name: value for name, value in fields.items() if value is not None})
