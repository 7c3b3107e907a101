"""A tournament's settings as the host chose them: read from a form, checked, stored as JSON.

Every field is checked before anything is stored; a bad one raises ``TournamentError`` naming
the field and what it may be.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from okgin.errors import OkginError
from okgin.rules import PRESETS, Rules
from okgin.server.rooms.room import LEVELS, TIMERS

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

    def to_data(self) -> dict[str, Any]:
        return {"format": self.format, "table": self.table, "places": self.places,
                "rules": self.rules.to_json(), "rounds": self.rounds, "levels": list(self.levels),
                "auto": self.auto, "timer": self.timer}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Settings:
        return cls(data["format"], data["table"], data["places"], Rules.from_json(data["rules"]),
                   data["rounds"], tuple(data["levels"]), data["auto"], data.get("timer"))


def read_settings(form: dict[str, str]) -> Settings:
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
    return Settings(fmt, table, places, rules, rounds, levels, form.get("auto") == "on", seconds)


def _number(form: dict[str, str], name: str, least: int, most: int) -> int:
    text = form.get(name, "").strip()
    if not text.isdigit() or not least <= int(text) <= most:
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
            read = json.loads(text)
        except ValueError:
            read = None
        if not isinstance(read, dict):
            raise TournamentError("house rules must be a JSON object of rule fields")
        house = read
    target = _number(form, "target", *TARGETS)
    try:
        return Rules.from_json({**house, "preset": name, "target": target})
    except OkginError as error:
        raise TournamentError(f"house rules: {error}") from None
