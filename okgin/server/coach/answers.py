"""The coach's answers on the WebSocket (hint, advice, review), worked out in a worker thread.

An analysis takes tens of milliseconds and a review up to a second: never on the event loop and
never holding the room's lock; reviews one at a time in the coach's process (``CoachLine``). ``coach_work``
reads the match (call it under the room's lock) and returns the slow part, which only touches a
frozen view or a finished hand.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from okgin.match import Match
from okgin.server.coach.advice_json import advice_message, hint_message, review_message
from okgin.server.coach.line import CoachLine
from okgin.server.refusals import Code, ProtocolError

Work = Callable[[], dict[str, Any]]


def coach_work(
    line: CoachLine, asker: str, match: Match, names: Sequence[str], seat: int, kind: str,
    ident: int | None, data: Mapping[str, Any],
) -> Work:
    """The answer to a ``hint``, ``advice`` or ``review`` message (``kind``, its id and its
    fields) for ``seat``, to run in a thread; a review in ``line`` as ``asker``'s (it raises
    CoachBusy when that is full or holds the asker's share).

    Raises ProtocolError at once for a review of a hand that is not over."""
    names = list(names)
    if kind == "review":
        number = _hand_number(match, data)
        # Pickled here, under the room's lock: the match moves on once the lock is let go.
        return functools.partial(line.run, asker, _review_of, pickle.dumps(match), seat, number, names, ident)
    build = hint_message if kind == "hint" else advice_message
    return functools.partial(build, match.view(seat), names, ident)


def _review_of(match: bytes, seat: int, number: int, names: list[str], ident: int | None) -> dict[str, Any]:
    """In the coach's process: ``review_message`` of the pickled ``match``."""
    return review_message(pickle.loads(match), seat, number, names, ident)


def _hand_number(match: Match, data: Mapping[str, Any]) -> int:
    """The hand to review: ``hand`` if given, else the latest finished one."""
    finished = [n for n, hand in enumerate(match.hands, start=1) if hand.over]
    if not finished:
        raise ProtocolError("no hand is over yet: a review is of a finished hand", Code.REFUSED)
    number = data.get("hand", finished[-1])
    if not isinstance(number, int) or isinstance(number, bool) or number not in finished:
        raise ProtocolError(f"hand must be the number of a finished hand: 1 to {finished[-1]}")
    return number
