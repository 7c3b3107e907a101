"""Who may see a stored game: its players, and nobody else (not even whether it exists)."""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import HTTPConnection

from okgin.server.players.identity import Players
from okgin.server.players.sessions import player_of


async def seat_of(connection: HTTPConnection, game: str) -> int | None:
    """The seat the request's player sat at in ``game``, or None: then the game answers 404."""
    players: Players = connection.app.state.players
    return await anyio.to_thread.run_sync(players.seat_in, player_of(connection), game)
