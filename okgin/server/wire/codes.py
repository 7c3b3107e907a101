"""Error codes: the stable ``code`` every error frame carries beside its sentence.

A page branches on the code, never on the words (docs/web.md lists them). An error that
knows its own code carries it (a ``WireError``, or a room error such as ``live.Stale`` with a
``code`` of its class); the others are told by their class.
"""

from __future__ import annotations

from enum import StrEnum

from okgin.errors import IllegalActionError, NotationError, OkginError, RulesError
from okgin.server.rooms.room import RoomError
from okgin.server.store.storage import StorageError
from okgin.server.wire.limits import RateLimited


class Code(StrEnum):
    MALFORMED = "malformed"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"
    ID_USED = "id_used"
    NOT_OPEN = "not_open"
    NO_GAME = "no_game"
    NO_ROOM = "no_room"
    BAD_TOKEN = "bad_token"
    WATCHING = "watching"
    ILLEGAL = "illegal"
    REFUSED = "refused"
    STALE = "stale"
    ROOM_CLOSED = "room_closed"
    NOT_SAVED = "not_saved"
    RATE_LIMITED = "rate_limited"
    INTERNAL = "internal"


class WireError(OkginError):
    """A refusal that names its own code; the message says what was wrong."""

    def __init__(self, message: str, code: Code) -> None:
        super().__init__(message)
        self.code = code


_BY_CLASS: tuple[tuple[type[Exception], Code], ...] = (
    (RateLimited, Code.RATE_LIMITED),
    (StorageError, Code.NOT_SAVED),
    (IllegalActionError, Code.ILLEGAL),
    (NotationError, Code.BAD_FIELD),
    (RulesError, Code.BAD_FIELD),
    (RoomError, Code.REFUSED),
)


def code_of(error: Exception) -> Code:
    """The code of the error frame that answers ``error`` (``internal`` for a server fault)."""
    own = getattr(error, "code", None)
    if isinstance(own, Code):
        return own
    for kind, code in _BY_CLASS:
        if isinstance(error, kind):
            return code
    return Code.INTERNAL
