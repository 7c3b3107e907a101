"""Error codes on the wire: which error gives which ``code`` (``refusals.Code``), and the error frame.

A page branches on the code, never on the words (docs/web.md lists them). An error that
knows its own code carries it (a ``WireError``, or a room error such as ``rooms.changes.Stale`` with a
``code`` of its class); the others are told by their class.
"""

from __future__ import annotations

from typing import Any

from okgin.errors import IllegalActionError, NotationError, RulesError
from okgin.server.refusals import Code, ProtocolError, WireError
from okgin.server.rooms.room import RoomError
from okgin.server.rooms.stakes import StakeError
from okgin.server.store.chips import ChipsError
from okgin.server.store.storage import StorageError
from okgin.server.wire.limits import RateLimited

_BY_CLASS: tuple[tuple[type[Exception], Code], ...] = (
    (RateLimited, Code.RATE_LIMITED),
    (StorageError, Code.NOT_SAVED),
    (IllegalActionError, Code.ILLEGAL),
    (NotationError, Code.BAD_FIELD),
    (RulesError, Code.BAD_FIELD),
    (StakeError, Code.BAD_FIELD),
    (RoomError, Code.REFUSED),
    (ChipsError, Code.REFUSED),
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


def reason_of(error: Exception) -> str:
    """The reason a refused message is counted under (``okgin_refusals``)."""
    if isinstance(error, RateLimited):
        return "rate_limited"
    if isinstance(error, StorageError):
        return "storage"
    if isinstance(error, ProtocolError):
        return "malformed"
    return "refused"


def error_json(message: str, code: Code, ident: int | None = None) -> dict[str, Any]:
    """An error frame: its stable ``code`` for the page, its sentence for the player."""
    return {"type": "error", "id": ident, "code": str(code), "message": message}


__all__ = ["Code", "WireError", "code_of", "error_json", "reason_of"]
