"""A tournament's settings as the host chose them: read from a form, checked, stored as JSON.

Every field is checked before anything is stored; a bad one raises ``TournamentError`` naming
the field and what it may be.
"""

from __future__ import annotations

import datetime
import math
import time
from dataclasses import dataclass, field
from typing import Any

from okgin.errors import OkginError
from okgin.prizes import PrizeRules
from okgin.rules import PRESETS, Rules
from okgin.server.rooms.room import LEVELS, TIMERS
from okgin.server.rooms.stakes import StakeError, TableStakes
from okgin.server.wire.jsonbound import JSONBoundError, loads

FORMATS = ("swiss", "knockout", "round-robin")
MAX_PLACES = 64
TARGETS = (5, 1000)
"""The least and the greatest match target a host may choose."""


class TournamentError(OkginError):
    """A tournament's settings, an entry or a start that cannot be; the message says why."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the host chose. ``rules`` carry the match target; ``levels`` fill the empty places
    in turn; ``rounds`` is the Swiss's (a knockout and a round robin play until decided)."""

    format: str
    table: int
    places: int
    rules: Rules
    rounds: int
    levels: tuple[str, ...]
    auto: bool
    """Start as soon as every place is taken by a person (else when the host starts it)."""
    timer: int | None = None
    """Each table's turn timer (seconds; None: off): a person who lets it run out has that move
    made for them, as at any room's table."""
    fee: int = 0
    """Each person's entry fee in play chips (0: free), held in the tournament's pool."""
    prizes: PrizeRules = field(default_factory=PrizeRules)
    """How the pool is split at the end (the tables' options: docs/tournaments.md, "Entry fees")."""
    starts: float | None = None
    """When a director starts it (Unix time; None: when the host does, or when full)."""
    bots: bool = False
    """Bot accounts may join (through the API, docs/api.md); off, a bot's entry is refused."""

    def to_data(self) -> dict[str, Any]:
        return {"format": self.format, "table": self.table, "places": self.places,
                "rules": self.rules.to_json(), "rounds": self.rounds, "levels": list(self.levels),
                "auto": self.auto, "timer": self.timer,
                "stakes": TableStakes(self.fee, self.prizes).to_json(), "starts": self.starts,
                "bots": self.bots}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Settings:
        stakes = TableStakes.from_json(data.get("stakes"))
        return cls(data["format"], data["table"], data["places"], Rules.from_json(data["rules"]),
                   data["rounds"], tuple(data["levels"]), data["auto"], data.get("timer"),
                   stakes.stake, stakes.prizes, data.get("starts"), data.get("bots") is True)


def read_settings(form: dict[str, str], now: float | None = None) -> Settings:
    """The settings in a create form's fields. Raises TournamentError naming the bad field."""
    fmt = form.get("format", "")
    if fmt not in FORMATS:
        raise TournamentError("format must be one of: " + ", ".join(FORMATS))
    table = _number(form, "table", 2, 4)
    places = _number(form, "places", 2, MAX_PLACES)
    rules = _rules(form)
    rounds = max(1, math.ceil(math.log2(places)))
    if fmt == "swiss" and form.get("rounds", "").strip():
        rounds = _number(form, "rounds", 1, places - 1)
    levels = tuple(form.get("levels", "").replace(",", " ").split())
    if not levels or any(level not in LEVELS for level in levels):
        raise TournamentError("levels (the computer players for empty places): one or more of "
                              + ", ".join(LEVELS))
    timer = form.get("timer", "").strip()
    choices = [str(t) for t in TIMERS if t is not None]
    if timer not in ("", "off", *choices):
        raise TournamentError("timer must be off or one of " + ", ".join(choices) + " seconds")
    seconds = int(timer) if timer.isdigit() else None
    stakes = _stakes(form)
    return Settings(fmt, table, places, rules, rounds, levels, form.get("auto") == "on", seconds,
                    stakes.stake, stakes.prizes, _starts(form, time.time() if now is None else now),
                    form.get("bots") == "on")


MAX_AHEAD = 30 * 86_400
"""The furthest ahead a start may be set: 30 days."""


def _starts(form: dict[str, str], now: float) -> float | None:
    """The set start time, ahead of ``now``: ``starts``, the page's script's UTC time (ISO 8601,
    as ``Date.toISOString`` writes it), else ``starts_local`` (the field as typed, read as UTC
    when no script turned it into ``starts``). A time without a zone is UTC."""
    text = form.get("starts", "").strip() or form.get("starts_local", "").strip()
    if not text:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    if moment is None or not now < moment.timestamp() <= now + MAX_AHEAD:
        raise TournamentError("the start time must be a date and time within the next 30 days, "
                              f"not {text[:30]!r}")
    return moment.timestamp()


def _stakes(form: dict[str, str]) -> TableStakes:
    """The entry fee and the pool's split, checked as a table's stake and split are."""
    fee = form.get("fee", "").strip() or "0"
    cutoff = form.get("cutoff", "").strip() or "50"
    try:
        if not fee.isdecimal():
            raise StakeError(f"the entry fee is a whole number of chips (0: free), not {fee[:20]!r}")
        if not cutoff.isdecimal():
            raise StakeError(f"the cutoff is a whole number of penalty points, not {cutoff[:20]!r}")
        stakes = TableStakes.read(int(fee), form.get("split", "").strip() or "scaled", int(cutoff))
    except StakeError as error:
        message = str(error).replace("the stake is", "the entry fee is")
        raise TournamentError(message) from None
    return stakes


def _number(form: dict[str, str], name: str, least: int, most: int) -> int:
    text = form.get(name, "").strip()
    if not text.isdecimal() or not least <= int(text) <= most:
        raise TournamentError(f"{name} must be a whole number from {least} to {most}, not {text[:20]!r}")
    return int(text)


def _rules(form: dict[str, str]) -> Rules:
    name = form.get("preset", "")
    if name not in PRESETS:
        raise TournamentError("preset must be one of: " + ", ".join(PRESETS))
    house: dict[str, object] = {}
    text = form.get("house", "").strip()
    if text:
        try:
            read = loads(text)  # bounded: nesting a thousand deep is an error said, not a RecursionError
        except JSONBoundError as error:
            raise TournamentError(f"house rules must be a JSON object of rule fields: {error}") from None
        if not isinstance(read, dict):
            raise TournamentError("house rules must be a JSON object of rule fields")
        house = read
    target = _number(form, "target", *TARGETS)
    try:
        return Rules.from_json({**house, "preset": name, "target": target})
    except OkginError as error:
        raise TournamentError(f"house rules: {error}") from None
