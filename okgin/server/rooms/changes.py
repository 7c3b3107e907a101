"""What a change to a room did, and the ways a change is refused for the room's sake."""

from __future__ import annotations

from dataclasses import dataclass

from okgin.server.refusals import Code
from okgin.server.rooms.room import RoomError


@dataclass(slots=True)
class Change:
    """What a change did: the event shown to the table, and whether the game row is written."""

    event: str | None = None
    game: bool = False
    new_game: bool = False
    save: bool = True
    token: str | None = None
    """A seat token the change made: a change re-run after a conflict makes a new one."""
    payout: dict[int, int] | None = None
    """A staked game just over: each staking seat's chips, paid with this change's save."""


class Stale(RoomError):
    """A change made on a stale copy: someone else changed the room first (a computer
    player's decision about a game that has moved on, or a save that lost the race)."""

    code = Code.STALE


class NotSaved(RoomError):
    """The store failed (locked, lost): nothing was saved."""

    code = Code.NOT_SAVED


class RoomClosed(RoomError):
    """The room was removed after a long time without a move."""

    code = Code.ROOM_CLOSED
