"""What a change to a room did, and the ways a change is refused for the room's sake."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from okgin.server.refusals import Code
from okgin.server.rooms.room import Room, RoomError
from okgin.server.rooms.stakes import stake_refusal
from okgin.server.rooms.turns import turn_deadline
from okgin.server.store.chips import Short
from okgin.server.store.room_store import GameWrite
from okgin.server.store.storage import StorageError

if TYPE_CHECKING:
    from okgin.server.rooms.games import Game
    from okgin.server.rooms.services import RoomServices

log = logging.getLogger("okgin.server")


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
    kept: tuple[int, ...] | None = None
    """A rematch dealt to fewer seats (``Room.close_up``): the old numbers of the seats kept, in
    their new order; the seats' players are renumbered with the room's save."""


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
        people=tuple(i for i, s in enumerate(room.seats) if s.kind == "person") if change.new_game else (),
    )


def save_change(services: RoomServices, room: Room, game: Game | None, change: Change) -> None:
    """Write ``change``: the room (compare-and-set: ``Conflict``), its game's new rows, the seats'
    players, all in one transaction. A game's stakes short is the room's refusal; a store that
    failed is ``NotSaved`` (one line in the log, not a traceback). The caller reloads after any
    failure: nothing was written."""
    if change.game:  # the room's rule: a person's new turn against the clock gets its deadline
        room.deadline = turn_deadline(room, game, time.time())
    write = game_write(room, game, change) if change.game and game is not None else None
    try:
        services.rooms.save(room, write, change.seated, change.kept)
    except Short as short:  # a game's stakes, all or none: none were taken
        raise stake_refusal(room.names[short.seat], short.stake, short.balance) from None
    except StorageError as error:  # a locked or lost database
        log.warning("room %s: %s", room.code, error)
        raise NotSaved("the game could not be saved, so nothing changed: try again") from None
    if write is not None and game is not None:
        game.saved(len(write.rows))
