"""Refusals: the stable error codes every error frame carries, and the errors that name one.

The bottom of the server (it imports nothing of the server): the wire, the rooms and the coach
all refuse with these, and ``wire.codes`` tells which error gives which code. docs/web.md
lists the codes.
"""

from __future__ import annotations

from enum import StrEnum

from okgin.errors import OkginError


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


class ProtocolError(WireError):
    """A message that is not one the server understands; the message says what was expected."""

    def __init__(self, message: str, code: Code = Code.BAD_FIELD, ident: int | None = None) -> None:
        super().__init__(message, code)
        self.ident = ident
        """The message's id when it had a valid one, so the refusal answers it."""
