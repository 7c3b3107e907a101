"""The coach's answers on the WebSocket (hint, advice, review), worked out in a worker thread.

An analysis takes tens of milliseconds and a review up to a second: never on the event loop.
The view is a frozen copy and a finished hand no longer changes, so a thread may read them.
It takes the match, the names and the asking connection's own seat, so any game or room can
use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio.to_thread

from okgin.match import Match
from okgin.server.coach_json import advice_message, hint_message, review_message
from okgin.server.protocol import Message, ProtocolError


async def coach_answer(match: Match, names: Sequence[str], seat: int, message: Message) -> dict[str, Any]:
    """The answer to a ``hint``, ``advice`` or ``review`` message for ``seat`` of ``match``."""
    names = list(names)
    if message.type == "review":
        number = _hand_number(match, message)
        hand = match.hands[number - 1]
        return await anyio.to_thread.run_sync(review_message, hand, seat, number, names, message.id)
    view = match.view(seat)
    build = hint_message if message.type == "hint" else advice_message
    return await anyio.to_thread.run_sync(build, view, names, message.id)


def _hand_number(match: Match, message: Message) -> int:
    """The hand to review: ``hand`` if given, else the latest finished one."""
    finished = [n for n, hand in enumerate(match.hands, start=1) if hand.over]
    if not finished:
        raise ProtocolError("no hand is over yet: a review is of a finished hand")
    number = message.data.get("hand", finished[-1])
    if not isinstance(number, int) or isinstance(number, bool) or number not in finished:
        raise ProtocolError(f"hand must be the number of a finished hand: 1 to {finished[-1]}")
    return number
