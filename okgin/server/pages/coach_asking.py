"""A page's question to the coach: worked out in the coach's line (``CoachLine``) as the
question of the request's player, or of its address without a session."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import HTTPConnection

from okgin.server.coach.line import CoachLine
from okgin.server.players.sessions import player_or_address

T = TypeVar("T")


async def ask_coach(request: HTTPConnection, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``'s answer from the coach's process. Raises CoachBusy (nothing worked out)
    when the line is full or holds this asker's share."""
    line: CoachLine = request.app.state.coach_line
    return await line.answer(player_or_address(request), work, *args)
