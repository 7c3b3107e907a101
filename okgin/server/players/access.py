"""Who may see a stored game: its players, and everyone once they made it public (else nobody,
not even whether it exists)."""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import HTTPConnection

from okgin.server.players.identity import Players
from okgin.server.players.sessions import player_of
from okgin.server.players.sharing import Sharing


async def seat_of(connection: HTTPConnection, game: str) -> int | None:
    """The seat the request's player sat at in ``game``, or None."""
    players: Players = connection.app.state.players
    return await anyio.to_thread.run_sync(players.seat_in, player_of(connection), game)


async def shown_from(connection: HTTPConnection, game: str, asked: int | None = None) -> int | None:
    """The seat ``game`` is shown from to this request, or None: then it answers 404.

    Its player sees it from their own seat (or, once the game is public, from ``asked``);
    anyone else only a public game, from ``asked`` or seat 0."""
    seat = await seat_of(connection, game)
    if seat is not None and asked is None:
        return seat
    players: Players = connection.app.state.players
    public = await anyio.to_thread.run_sync(Sharing(players.engine).is_public, game)
    if not public:
        return seat
    return 0 if asked is None else asked
