"""Letting a new connection in (``game_socket``, the endpoint): its Origin, its address's
budget, and over that budget only a player coming back.

Many players may share one address (an office, a school, a phone carrier's NAT), and after a
restart they all reconnect at once. A connection over its address's budget is read once:
if that first message enters a room or joins a game with a valid seat token, it is let in
on its seat's budget; anything else is closed unanswered. Each token that fails costs its
address, so an address cannot make the server look up tokens without end.
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket

from okgin.server.players.sessions import session_of
from okgin.server.refusals import ProtocolError
from okgin.server.rooms.hall import Hall
from okgin.server.store.storage import StorageError
from okgin.server.wire.handlers import HANDLERS
from okgin.server.wire.headers import origin_allowed
from okgin.server.wire.limits import ConnectionLimits, Limiter, RateLimited
from okgin.server.wire.messages import Parsed, is_id, parse_message
from okgin.server.wire.settings import Settings
from okgin.server.wire.sockets import Connection

FIRST_MESSAGE_SECONDS = 10.0
"""How long a connection over its address's budget may take to present its seat token."""



async def returning_player(
    websocket: WebSocket, hall: Hall, limiter: Limiter, address: str, refused: RateLimited,
) -> tuple[ConnectionLimits, str]:
    """The limits of a player coming back, and its first message (still to be handled).

    Raises ``refused`` (the address's own refusal) when the first message presents no valid
    seat token, or RateLimited when that seat reconnects too often."""
    if not limiter.may_check_token(address):
        raise refused
    try:
        received = await asyncio.wait_for(websocket.receive(), FIRST_MESSAGE_SECONDS)
    except TimeoutError:
        raise refused from None
    text = received.get("text")
    try:
        message = parse_message(text)
    except ProtocolError:
        raise refused from None
    if not isinstance(message.data.get("token"), str):
        raise refused
    seat = await _seat(hall, message)
    if seat is None:
        limiter.token_failed(address)
        raise refused
    assert isinstance(text, str)
    return limiter.for_player(address, seat), text


async def _seat(hall: Hall, message: Parsed) -> str | None:
    """"<room>:<seat>" of the valid seat token ``message`` presents (an enter or a join), or None."""
    name = {"enter": "room", "join": "game"}.get(message.type)
    ident = message.data.get(name) if name else None
    if not isinstance(ident, str) or not is_id(ident):
        return None
    live = None
    with contextlib.suppress(StorageError):
        live = await (hall.get(ident) if name == "room" else hall.by_game(ident))
    seat = live.room.seat_for(message.data["token"]) if live is not None else None
    return None if live is None or seat is None else f"{live.room.code}:{seat}"


async def game_socket(websocket: WebSocket) -> None:
    """The /ws endpoint: a page from a cross-site Origin is closed, an address over its budget
    is let in only as a player coming back, and every other page is served (``Connection``)."""
    state = websocket.app.state
    settings: Settings = state.settings
    origin = websocket.headers.get("origin")
    await websocket.accept()
    if not origin_allowed(origin, websocket.scope.get("scheme", "ws"), websocket.headers.get("host"),
                          settings.origins):
        state.metrics.refused("origin")
        await websocket.close(1008, f"cross-site origin {origin[:60] if origin else ''} is not allowed")
        return
    limiter: Limiter = state.limiter
    address = websocket.client.host if websocket.client else "unknown"
    session = session_of(websocket)
    first: str | None = None
    try:
        limits = limiter.for_connection(address, None if session is None else session.player)
    except RateLimited as error:  # only a player coming back with its seat token is read on
        try:
            limits, first = await returning_player(websocket, state.hall, limiter, address, error)
        except RateLimited as refused:
            state.metrics.refused("connections")
            with contextlib.suppress(Exception):
                await websocket.close(1008, str(refused))
            return
    await Connection(websocket, state.hall, limits, settings, HANDLERS).run(first)
