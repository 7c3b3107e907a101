"""Challenges to bot accounts: a person asks a bot for a game (a preset and a target), the bot
accepts or declines through the API (docs/api.md). A pending challenge runs out after
``CHALLENGE_LIFE`` seconds; each step is compare-and-set on its status, so a challenge is
accepted once, whatever answers arrive together. Calls block: run them in a thread.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine

from okgin.errors import OkginError
from okgin.rules import PRESETS, Rules
from okgin.server.store.db import storage_errors
from okgin.server.store.schema import challenges

CHALLENGE_LIFE = 600.0
"""Seconds a challenge waits for the bot's answer."""
TARGETS = (5, 1000)
"""The least and the greatest match target a challenge may ask for."""
TWO_SEATS = tuple(name for name, rules in PRESETS.items() if rules.players == 2)
"""The presets a challenge may ask for: a person against one bot."""
MAX_PENDING = 5
"""Pending challenges one person may have out at once."""


class ChallengeError(ValueError):
    """A challenge refused; ``status`` for the page or the API (400 bad, 404 none, 409 too late)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Challenge:
    id: str
    challenger: str
    bot: str
    rules: Rules
    status: str
    """pending, accepted, declined, or expired (pending past ``CHALLENGE_LIFE``)."""
    room: str | None
    created: float

    def to_json(self, challenger_name: str) -> dict[str, Any]:
        """As the bot's event stream writes it (never a player id)."""
        return {"id": self.id, "status": self.status, "challenger": challenger_name,
                "rules": self.rules.to_json(), "target": self.rules.target, "seats": 2,
                "expires": self.created + CHALLENGE_LIFE}


def read_rules(preset: object, target: object) -> Rules:
    """A challenge's rules from the form's preset and target. Raises ChallengeError."""
    if preset not in TWO_SEATS:
        raise ChallengeError("the rules are one of: " + ", ".join(TWO_SEATS))
    text = str(target).strip() if target is not None else ""
    if not text.isdecimal() or not TARGETS[0] <= int(text) <= TARGETS[1]:
        raise ChallengeError(f"the target is a whole number from {TARGETS[0]} to {TARGETS[1]}")
    try:
        return Rules.from_json({"preset": preset, "target": int(text)})
    except OkginError as error:
        raise ChallengeError(str(error)) from None


class Challenges:
    """Challenges, in the players' store."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, challenger: str, bot: str, rules: Rules) -> str:
        """A pending challenge from ``challenger`` to ``bot``; returns its id."""
        if challenger == bot:
            raise ChallengeError("a bot does not challenge itself")
        ident = secrets.token_urlsafe(12)
        now = time.time()
        c = challenges.c
        with storage_errors("could not make the challenge"), self.engine.begin() as db:
            out = db.execute(select(func.count()).select_from(challenges).where(
                c.challenger_player == challenger, c.status == "pending",
                c.created > now - CHALLENGE_LIFE)).scalar() or 0
            if out >= MAX_PENDING:
                raise ChallengeError(f"you have {MAX_PENDING} challenges waiting: wait for an answer", 429)
            db.execute(insert(challenges).values(id=ident, challenger_player=challenger, bot_player=bot,
                                                 rules=json.dumps(rules.to_json()), status="pending",
                                                 room=None, created=now))
        return ident

    def get(self, ident: str) -> Challenge | None:
        with storage_errors("could not read the challenge"), self.engine.connect() as db:
            row = db.execute(select(challenges).where(challenges.c.id == ident)).first()
        return None if row is None else _challenge(row, time.time())

    def pending_for(self, bot: str) -> list[Challenge]:
        """``bot``'s challenges waiting for its answer, oldest first."""
        c = challenges.c
        query = select(challenges).where(c.bot_player == bot, c.status == "pending",
                                         c.created > time.time() - CHALLENGE_LIFE).order_by(c.created)
        with storage_errors("could not read the challenges"), self.engine.connect() as db:
            now = time.time()
            return [_challenge(row, now) for row in db.execute(query)]

    def answer(self, ident: str, bot: str, status: str) -> Challenge:
        """``bot`` takes its pending challenge ``ident`` to ``status`` ("accepting" or
        "declined"), once. Raises ChallengeError (404 not this bot's, 409 answered or expired)."""
        c = challenges.c
        with storage_errors("could not answer the challenge"), self.engine.begin() as db:
            done = db.execute(update(challenges).where(
                c.id == ident, c.bot_player == bot, c.status == "pending",
                c.created > time.time() - CHALLENGE_LIFE).values(status=status)).rowcount
        found = self.get(ident)
        if found is None or found.bot != bot:
            raise ChallengeError("no such challenge", 404)
        if not done:
            raise ChallengeError(f"the challenge is {found.status} already", 409)
        return found

    def started(self, ident: str, room: str) -> None:
        """The accepted challenge's room was made and dealt."""
        with storage_errors("could not record the challenge's room"), self.engine.begin() as db:
            db.execute(update(challenges).where(challenges.c.id == ident)
                       .values(status="accepted", room=room))

    def undo(self, ident: str) -> None:
        """The room of an accepted challenge could not be made: pending again."""
        with storage_errors("could not record the challenge"), self.engine.begin() as db:
            db.execute(update(challenges).where(challenges.c.id == ident, challenges.c.status == "accepting")
                       .values(status="pending"))

    def forget_old(self, before: float) -> int:
        """Delete challenges made before ``before`` (Unix time); returns how many."""
        with storage_errors("could not forget old challenges"), self.engine.begin() as db:
            return int(db.execute(delete(challenges).where(challenges.c.created < before)).rowcount)


def _challenge(row: Any, now: float) -> Challenge:
    status = row.status
    if status == "pending" and row.created <= now - CHALLENGE_LIFE:
        status = "expired"
    return Challenge(row.id, row.challenger_player, row.bot_player, Rules.from_json(json.loads(row.rules)),
                     status, row.room, row.created)
