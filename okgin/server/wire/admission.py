"""Letting a new connection in over its address's budget: only a player coming back.

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

from okgin.server.rooms.live import Hall
from okgin.server.store.storage import StorageError
from okgin.server.wire.limits import ConnectionLimits, Limiter, RateLimited
from okgin.server.wire.messages import Message, ProtocolError, is_id, parse_message

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


async def _seat(hall: Hall, message: Message) -> str | None:
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
