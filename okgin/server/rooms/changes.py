"""What a change to a room did, and the ways a change is refused for the room's sake."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from okgin.server.refusals import Code
from okgin.server.rooms.room import Room, RoomError
from okgin.server.store.room_store import GameWrite

if TYPE_CHECKING:
    from okgin.server.rooms.games import Game


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
    dealt: Game | None = None
    """A game the change dealt (begun or a rematch): the room's game from now on."""
    seated: dict[int, str] | None = None
    """Seats the change gave to players (seat: player id), written with the room's save."""


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


def game_write(room: Room, game: Game, change: Change) -> GameWrite:
    """What ``change`` writes of ``game``: its new log rows; its row and stakes when it is new,
    its result and payout when it is over."""
    final = game.match.final
    staked = room.staked
    return GameWrite(
        game.id, game.version, game.unsaved(), room.levels(),
        head=game.head(room.names) if change.new_game else None,
        winner=final.winner if final else None, scores=final.scores if final else None,
        stakes=(room.stakes.stake, tuple(staked)) if change.new_game and staked else None,
        payout=change.payout,
    )
