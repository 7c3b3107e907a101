"""Messages in: the client's message types, the fields each may carry, and reading one.

Everything a client sends is checked here before any handler sees it: JSON with bounded
nesting and numbers, text that is Unicode, a known ``type``, no field the type does not take.
See docs/web.md for every message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from okgin.server.refusals import Code, ProtocolError
from okgin.server.rooms.room import LEVELS
from okgin.server.wire.jsonbound import JSONBoundError, loads

MAX_MESSAGE = 16_384
FIELDS: dict[str, tuple[str, ...]] = {
    # a game against the computer
    "new": ("opponents", "rules", "seed"),
    "join": ("game", "token"),
    "act": ("action",),
    "next": ("hand",),
    "hint": (),
    "options": ("coach",),
    # a room
    "create": ("name", "players", "rules", "timer"),
    "enter": ("room", "token"),
    "sit": ("seat", "name"),
    "computer": ("seat", "level"),
    "clear": ("seat",),
    "start": ("seed",),
    "rematch": ("seed",),
    "say": ("phrase",),
    "stake": ("stake", "split", "cutoff"),
    # the coach
    "advice": (),
    "review": ("hand",),
    # leaving a room for good
    "leave": (),
}
"""Each message type and the fields it takes besides ``type`` and ``id``; any other is refused."""
TYPES = tuple(FIELDS)
"""The client's messages: a game against the computer, a room's, the coach's (docs/web.md)."""
ID_PATTERN = "[A-Za-z0-9_-]{1,64}"
"""The shape of a game id or a room code (``secrets.token_urlsafe``): anything else names nothing."""
_ID = re.compile(ID_PATTERN)


@dataclass(frozen=True, slots=True)
class Message:
    """A client's message, read: ``type`` is one of ``TYPES`` (its fields: ``check_fields``)."""

    type: str
    id: int | None
    data: dict[str, Any]


def parse_message(text: str | bytes | None) -> Message:
    """Read one client message. Raises ProtocolError saying what was expected."""
    if not isinstance(text, str):
        raise ProtocolError("expected a JSON text message, got binary data", Code.MALFORMED)
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"message too long: {len(text)} characters, at most {MAX_MESSAGE}",
                            Code.MALFORMED)
    try:
        data = loads(text)
    except JSONBoundError as error:
        raise ProtocolError(str(error), Code.MALFORMED) from None
    if not isinstance(data, dict):
        raise ProtocolError('expected a JSON object such as {"type": "act", "action": "draw"}',
                            Code.MALFORMED)
    ident = data.get("id")
    if ident is not None and (not isinstance(ident, int) or isinstance(ident, bool)):
        raise ProtocolError("id must be a whole number")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:  # a list or an object is no type either
        raise ProtocolError(f"unknown message type {kind!r}; the types are " + ", ".join(TYPES),
                            Code.UNKNOWN_TYPE, ident)
    return Message(kind, ident, data)


def check_fields(message: Message) -> None:
    """Refuse a field the message's type does not take: a misspelt or misplaced one would
    otherwise be ignored. (Apart from ``parse_message``, so the refusal carries the id.)"""
    taken = FIELDS[message.type]
    for name in message.data:
        if name not in taken and name not in ("type", "id"):
            takes = ", ".join(taken) if taken else "nothing besides type and id"
            raise ProtocolError(f"{message.type!r} takes no {name!r}: it takes {takes}")


def text_field(message: Message, name: str) -> str:
    value = message.data.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ProtocolError(f"{message.type!r} needs {name!r}, a string")
    return value


def is_id(text: str) -> bool:
    """Is ``text`` shaped like a game id or a room code? (Anything else names nothing.)"""
    return _ID.fullmatch(text) is not None


def opponents_field(message: Message) -> list[str]:
    """The computer players' levels: one to three of easy, normal, hard."""
    value = message.data.get("opponents", ["normal"])
    if (
        not isinstance(value, list) or not 1 <= len(value) <= 3
        or not all(level in LEVELS for level in value)
    ):
        raise ProtocolError("opponents must be a list of one to three of: " + ", ".join(LEVELS))
    return list(value)


def int_field(message: Message, name: str, default: int | None = None) -> int:
    value = message.data.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(f"{message.type!r} needs {name!r}, a whole number")
    return value


def seed_field(message: Message) -> int | None:
    seed = message.data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ProtocolError("seed must be a whole number")
    return seed
