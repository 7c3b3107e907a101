"""Which seat a page's player holds (their rows, written with the room's own save), their name
the first time they sit, the one check that a seat can pay a table's stake, and who may open a
finished game by its id.

The socket (``wire.sockets``) asks here and knows nothing of these rows; the store's work runs
in a worker thread (``anyio.to_thread``), never on the event loop. The stake check itself
is the rooms' (``rooms.stakes.check_stake``), one check with one wording for a seat taken, a
stake set and a start.
"""

from __future__ import annotations

from dataclasses import dataclass

import anyio.to_thread

from okgin.server.players.identity import Players
from okgin.server.players.sharing import Sharing
from okgin.server.rooms.stakes import check_stake
from okgin.server.store.chips import Wallets


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats of one page's player (``player`` None: a page without a session, which owns
    a seat by its token alone and has no rows)."""

    players: Players
    wallets: Wallets
    player: str | None
    name: str | None

    async def held_seat(self, room: str, game: str | None) -> int | None:
        """The seat this player took in ``room`` (from any device), or else in ``game`` (a game
        against the computer, opened by its id); None if neither."""
        seat = await anyio.to_thread.run_sync(self.players.seat_in_room, self.player, room)
        if seat is None and game is not None:
            seat = await anyio.to_thread.run_sync(self.players.seat_in, self.player, game)
        return seat

    async def may_open(self, game: str, finished: bool, seated: bool) -> bool:
        """May this page open ``game`` by its id? A game in play, yes (to watch it); a finished
        one only from a seat it played (``seated``: by its token, or this player's row) or once
        it is public: exactly as its record is shown (``access.shown_from``)."""
        if not finished or seated:
            return True
        if await anyio.to_thread.run_sync(self.players.seat_in, self.player, game) is not None:
            return True
        return await anyio.to_thread.run_sync(Sharing(self.players.engine).is_public, game)

    async def check_stake(self, stake: int, name: str) -> None:
        """``check_stake`` for this player, about to sit as ``name``."""
        if stake:
            await anyio.to_thread.run_sync(check_stake, self.wallets, self.player, name, stake)

    async def named(self, name: object) -> None:
        """This player sat at a table as ``name``: their display name, if they had none. (The
        seat itself is theirs in the room's own save: ``rooms.changes.Change.seated``.)"""
        if self.player is not None and self.name is None and isinstance(name, str):
            await anyio.to_thread.run_sync(self.players.name_once, self.player, name)
