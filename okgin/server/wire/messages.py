"""Messages in: one frozen dataclass for each of the client's message types, and reading one.

Everything a client sends is checked here before any handler sees it: JSON with bounded
nesting and numbers, text that is Unicode, a known ``type``, no field the type does not take,
and each field of the type it must be (a refusal says which and what was expected). A field
the room itself checks (a name, a timer, a level, a stake) is passed on as the JSON value it
was (``Json``), and the room refuses what it cannot take. See docs/web.md for every message.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from okgin.rules import Rules
from okgin.server.refusals import Code, ProtocolError
from okgin.server.rooms.room import LEVELS, PHRASES, RoomError
from okgin.server.wire.jsonbound import JSONBoundError, loads

MAX_MESSAGE = 16_384
ID_PATTERN = "[A-Za-z0-9_-]{1,64}"
"""The shape of a game id or a room code (``secrets.token_urlsafe``): anything else names nothing."""
_ID = re.compile(ID_PATTERN)
Json = object
"""A JSON value as sent, for a field the room checks (and refuses in its own words)."""


def is_id(text: str) -> bool:
    """Is ``text`` shaped like a game id or a room code? (Anything else names nothing.)"""
    return _ID.fullmatch(text) is not None


class Fields:
    """Reading one message's fields: each reader refuses a value of the wrong type, naming it."""

    def __init__(self, kind: str, data: Mapping[str, Any]) -> None:
        self.kind = kind
        self.data = data

    def text(self, name: str) -> str:
        value = self.data.get(name)
        if not isinstance(value, str) or not value.strip():
            raise ProtocolError(f"{self.kind!r} needs {name!r}, a string")
        return value

    def whole(self, name: str) -> int:
        value = self.data.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProtocolError(f"{self.kind!r} needs {name!r}, a whole number")
        return value

    def maybe_whole(self, name: str) -> int | None:
        """A whole number, or None when the field is not there (null is no number)."""
        return self.whole(name) if name in self.data else None

    def seed(self) -> int | None:
        seed = self.data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ProtocolError("seed must be a whole number")
        return seed

    def flag(self, name: str) -> bool:
        """true or false, false when the field is not there."""
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            raise ProtocolError(f"{self.kind!r}'s {name!r} is true or false")
        return value

    def token(self) -> str | None:
        """A seat token: absent, or a string (anything else is a token that fits no seat)."""
        token = self.data.get("token")
        return token if token is None or isinstance(token, str) else ""

    def rules(self) -> Rules:
        return Rules.from_json(self.data.get("rules", "oklahoma"))

    def opponents(self) -> tuple[str, ...]:
        """The computer players' levels: one to three of easy, normal, hard, expert."""
        value = self.data.get("opponents", ["normal"])
        if (
            not isinstance(value, list) or not 1 <= len(value) <= 3
            or not all(isinstance(level, str) and level in LEVELS for level in value)
        ):
            raise ProtocolError("opponents must be a list of one to three of: " + ", ".join(LEVELS))
        return tuple(value)


@dataclass(frozen=True, slots=True)
class New:
    """A game against the computer."""
    TYPE: ClassVar[str] = "new"
    opponents: tuple[str, ...]
    rules: Rules
    seed: int | None
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> New:
        return cls(f.opponents(), f.rules(), f.seed())


@dataclass(frozen=True, slots=True)
class Join:
    """A game by its id: with its seat's token to play, without to watch."""
    TYPE: ClassVar[str] = "join"
    game: str
    token: str | None
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Join:
        return cls(f.text("game"), f.token())


@dataclass(frozen=True, slots=True)
class Act:
    TYPE: ClassVar[str] = "act"
    action: str
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Act:
        return cls(f.text("action"))


@dataclass(frozen=True, slots=True)
class Next:
    """The next hand; ``hand``: the number of the hand the page saw end (the room checks it)."""
    TYPE: ClassVar[str] = "next"
    hand: Json
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Next:
        return cls(f.data.get("hand"))


@dataclass(frozen=True, slots=True)
class Hint:
    TYPE: ClassVar[str] = "hint"
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Hint:
        return cls()


@dataclass(frozen=True, slots=True)
class Options:
    TYPE: ClassVar[str] = "options"
    coach: bool
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Options:
        return cls(bool(f.data.get("coach", False)))


@dataclass(frozen=True, slots=True)
class Create:
    """A room for friends: ``players`` None for the rules' own number."""
    TYPE: ClassVar[str] = "create"
    name: Json
    players: int | None
    rules: Rules
    timer: Json
    coach: bool = False
    """The host allows the coach at this table (its games are then not rated)."""
    listed: bool = False
    """An open table, listed for anyone to join (else by its link only)."""
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Create:
        return cls(f.data.get("name"), f.maybe_whole("players"), f.rules(), f.data.get("timer"),
                   f.flag("coach"), f.flag("listed"))


@dataclass(frozen=True, slots=True)
class Enter:
    """A room by its link's code: with a seat's token to play, without to watch."""
    TYPE: ClassVar[str] = "enter"
    room: str
    token: str | None
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Enter:
        return cls(f.text("room"), f.token())


@dataclass(frozen=True, slots=True)
class Sit:
    TYPE: ClassVar[str] = "sit"
    seat: int
    name: Json
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Sit:
        return cls(f.whole("seat"), f.data.get("name"))


@dataclass(frozen=True, slots=True)
class Computer:
    TYPE: ClassVar[str] = "computer"
    seat: int
    level: Json
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Computer:
        return cls(f.whole("seat"), f.data.get("level", "normal"))


@dataclass(frozen=True, slots=True)
class Clear:
    TYPE: ClassVar[str] = "clear"
    seat: int
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Clear:
        return cls(f.whole("seat"))


@dataclass(frozen=True, slots=True)
class Start:
    TYPE: ClassVar[str] = "start"
    seed: int | None
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Start:
        return cls(f.seed())


@dataclass(frozen=True, slots=True)
class Rematch:
    TYPE: ClassVar[str] = "rematch"
    seed: int | None
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Rematch:
        return cls(f.seed())


@dataclass(frozen=True, slots=True)
class Say:
    TYPE: ClassVar[str] = "say"
    phrase: str
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Say:
        phrase = f.data.get("phrase")
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise RoomError("say one of: " + ", ".join(PHRASES))
        return cls(phrase)


@dataclass(frozen=True, slots=True)
class Stake:
    """The host's stake and prize rule (``rooms.stakes.TableStakes`` checks them)."""
    TYPE: ClassVar[str] = "stake"
    stake: Json
    split: Json
    cutoff: Json
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Stake:
        return cls(f.data.get("stake"), f.data.get("split", "scaled"), f.data.get("cutoff", 50))


@dataclass(frozen=True, slots=True)
class Advice:
    TYPE: ClassVar[str] = "advice"
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Advice:
        return cls()


LAST_HAND = object()
"""A review's ``hand`` when the message names none: the last finished hand."""


@dataclass(frozen=True, slots=True)
class Review:
    """The coach's review of a finished hand (``hand``: ``LAST_HAND`` unless named; the coach
    checks a named one)."""
    TYPE: ClassVar[str] = "review"
    hand: Json
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Review:
        return cls(f.data.get("hand", LAST_HAND))


@dataclass(frozen=True, slots=True)
class Leave:
    """Leaving a room's table for good."""
    TYPE: ClassVar[str] = "leave"
    id: int | None = None

    @classmethod
    def read(cls, f: Fields) -> Leave:
        return cls()


Message = (New | Join | Act | Next | Hint | Options | Create | Enter | Sit | Computer | Clear | Start
           | Rematch | Say | Stake | Advice | Review | Leave)
MESSAGES: tuple[type[Message], ...] = (
    New, Join, Act, Next, Hint, Options,  # a game against the computer
    Create, Enter, Sit, Computer, Clear, Start, Rematch, Say, Stake,  # a room
    Advice, Review,  # the coach
    Leave,  # leaving a room for good
)
"""The client's messages, in the order of docs/web.md's tables."""
_BY_TYPE: dict[str, type[Message]] = {kind.TYPE: kind for kind in MESSAGES}
FIELDS: dict[str, tuple[str, ...]] = {
    kind.TYPE: tuple(field.name for field in dataclasses.fields(kind) if field.name != "id")
    for kind in MESSAGES
}
"""Each message type and the fields it takes besides ``type`` and ``id`` (its dataclass's)."""
TYPES = tuple(FIELDS)


def parse_message(text: str | bytes | None) -> Parsed:
    """Read one client message's type and id (its fields: ``Parsed.fields``). Raises
    ProtocolError saying what was expected."""
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
    if not isinstance(kind, str) or kind not in _BY_TYPE:  # a list or an object is no type either
        raise ProtocolError(f"unknown message type {kind!r}; the types are " + ", ".join(TYPES),
                            Code.UNKNOWN_TYPE, ident)
    return Parsed(kind, ident, data)


@dataclass(frozen=True, slots=True)
class Parsed:
    """A message whose type and id are read, its fields not yet (``fields``): so a refusal of
    a field, or of a replayed id, answers with the id."""

    type: str
    id: int | None
    data: Mapping[str, Any]

    def fields(self) -> Message:
        """The typed message. Raises ProtocolError for a field it does not take or of the wrong
        type (or the room's error for a phrase it does not know), naming it."""
        taken = FIELDS[self.type]
        for name in self.data:
            if name not in taken and name not in ("type", "id"):
                takes = ", ".join(taken) if taken else "nothing besides type and id"
                raise ProtocolError(f"{self.type!r} takes no {name!r}: it takes {takes}")
        message = _BY_TYPE[self.type].read(Fields(self.type, self.data))
        return dataclasses.replace(message, id=self.id)

