"""Rules: one frozen value whose field names are the game record's, and the named presets."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from okgin.cards import Card, Rank, Suit
from okgin.errors import RulesError

KnockLimit = Literal["upcard"] | int
Scoring = Literal["difference", "penalty"]
Shutout = Literal["double-bonus", "double-score", "none"]
StockEnd = Literal["void", "reshuffle"]
DealerRule = Literal["alternate", "winner"]
AceUpcard = Literal["gin", "one"]

_CHOICES: dict[str, tuple[object, ...]] = {
    "ace_upcard": ("gin", "one"),
    "scoring": ("difference", "penalty"),
    "shutout": ("double-bonus", "double-score", "none"),
    "stock_end": ("void", "reshuffle"),
    "dealer": ("alternate", "winner"),
}
PRESET_NAMES = (
    "oklahoma", "oklahoma-big-gin", "oklahoma-multiplayer", "oklahoma-reshuffle", "gin",
)
_POINT_FIELDS = (
    "gin_bonus", "undercut_bonus", "knock_bonus", "undercut_penalty",
    "hand_bonus", "game_bonus",
)


@dataclass(frozen=True)
class Rules:
    """Every rule a table may settle before the deal. The defaults are our Oklahoma rules.

    Field names are the contract of game records (``docs/records.md``); ``preset`` names
    the preset these rules started from, for display and for writing records compactly.
    """

    players: int = 2
    hand_size: int | None = None
    knock_limit: KnockLimit = "upcard"
    ace_upcard: AceUpcard = "gin"
    spade_double: bool = True
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int | None = None
    knock_bonus: int = 0
    scoring: Scoring = "difference"
    undercut_penalty: int = 0
    target: int = 150
    hand_bonus: int = 25
    game_bonus: int = 100
    shutout: Shutout = "double-bonus"
    boxes: int | None = None
    last_chance_knock: bool = False
    stock_end: StockEnd = "void"
    dealer: DealerRule = "alternate"
    preset: str = field(default="oklahoma", compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def cards_each(self) -> int:
        """Cards dealt to each player: ``hand_size``, or 10 for two players and 7 for more."""
        if self.hand_size is not None:
            return self.hand_size
        return 10 if self.players == 2 else 7

    def knock_limit_for(self, upcard: Card) -> int:
        """The most deadwood a knock may keep in a hand whose first upcard is ``upcard``.

        0 means only gin ends the hand.
        """
        if self.knock_limit != "upcard":
            return int(self.knock_limit)
        if upcard.rank == Rank.ACE:
            return 0 if self.ace_upcard == "gin" else 1
        return upcard.rank.points

    def multiplier_for(self, upcard: Card) -> int:
        """2 when a spade upcard doubles the hand, else 1."""
        return 2 if self.spade_double and upcard.suit == Suit.SPADES else 1

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated). Raises RulesError."""
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as error:
            raise RulesError(str(error)) from None

    def changes(self) -> dict[str, Any]:
        """The fields that differ from this rules' preset."""
        base = PRESETS[self.preset] if self.preset in PRESETS else Rules()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name)
        }

    def to_json(self) -> str | dict[str, Any]:
        """The record form: a preset's name, or ``{"preset": name, field: value, ...}``."""
        changes = self.changes()
        if not changes and self.preset in PRESETS:
            return self.preset
        return {"preset": self.preset, **changes}

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Read the record form (see ``to_json``). Raises RulesError naming the bad field."""
        if isinstance(data, str):
            return preset(data)
        if not isinstance(data, Mapping):
            raise RulesError("rules must be a preset name or an object of rule fields")
        values = dict(data)
        base = preset(str(values.pop("preset", "oklahoma")))
        known = {f.name for f in fields(cls)} - {"preset"}
        unknown = sorted(set(values) - known)
        if unknown:
            raise RulesError(f"unknown rule field {unknown[0]!r}")
        return base.replace(**values)


def _validate(rules: Rules) -> None:
    def bad(name: str, expected: str) -> RulesError:
        return RulesError(f"rule {name} is {getattr(rules, name)!r}, expected {expected}")

    if not _is_int(rules.players) or not 2 <= rules.players <= 4:
        raise bad("players", "2 to 4")
    if rules.hand_size is not None and (
        not _is_int(rules.hand_size)
        or not 3 <= rules.hand_size <= 48 // rules.players
    ):
        raise bad("hand_size", "null or a number of cards that leaves a stock")
    if rules.knock_limit != "upcard" and (
        not _is_int(rules.knock_limit) or not 0 <= int(rules.knock_limit) <= 100
    ):
        raise bad("knock_limit", '"upcard" or a number from 0 to 100')
    for name, choices in _CHOICES.items():
        if getattr(rules, name) not in choices:
            raise bad(name, " or ".join(f'"{c}"' for c in choices))
    for name in ("spade_double", "last_chance_knock"):
        if not isinstance(getattr(rules, name), bool):
            raise bad(name, "true or false")
    for name in _POINT_FIELDS:
        if not _is_int(getattr(rules, name)) or not 0 <= getattr(rules, name) <= 1000:
            raise bad(name, "a whole number from 0 to 1000")
    if rules.big_gin_bonus is not None and (
        not _is_int(rules.big_gin_bonus) or not 0 <= rules.big_gin_bonus <= 1000
    ):
        raise bad("big_gin_bonus", "null or a whole number from 0 to 1000")
    if not _is_int(rules.target) or not 1 <= rules.target <= 100_000:
        raise bad("target", "a whole number from 1 to 100000")
    if rules.boxes is not None and (not _is_int(rules.boxes) or rules.boxes not in (20, 25)):
        raise bad("boxes", "null, 20 or 25")
    if rules.preset not in PRESET_NAMES:
        raise bad("preset", "one of " + ", ".join(PRESET_NAMES))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


PRESETS: dict[str, Rules] = {}
PRESETS["oklahoma"] = Rules()
PRESETS["oklahoma-big-gin"] = Rules(
    big_gin_bonus=31, shutout="double-score", preset="oklahoma-big-gin"
)
PRESETS["oklahoma-multiplayer"] = Rules(
    players=3, ace_upcard="one", spade_double=False, scoring="penalty",
    gin_bonus=25, knock_bonus=10, undercut_bonus=20, target=100,
    hand_bonus=0, game_bonus=0, shutout="none", dealer="winner",
    preset="oklahoma-multiplayer",
)
# 004 names no knock bonus; 002's 10 makes a knock count toward the target (docs/rules.md, 11).
PRESETS["oklahoma-reshuffle"] = Rules(
    spade_double=False, scoring="penalty", gin_bonus=25, knock_bonus=10, undercut_bonus=25,
    undercut_penalty=25, target=100, hand_bonus=0, game_bonus=0, shutout="none",
    stock_end="reshuffle", preset="oklahoma-reshuffle",
)
PRESETS["gin"] = Rules(
    knock_limit=10, spade_double=False, target=100, shutout="double-score", preset="gin"
)

PRESET_DESCRIPTIONS = {
    "oklahoma": "Oklahoma Gin: the upcard sets the knock limit, ace = gin only, "
    "spades double, gin and undercut 25, game to 150",
    "oklahoma-big-gin": "As Oklahoma Gin, plus Big Gin (all eleven cards) for 31, and a "
    "player who won no hand has the winner's score doubled against them",
    "oklahoma-multiplayer": "2 to 4 players (7 cards each for 3 or 4), penalty scoring: "
    "gin 25, knock 10, undercut 20, the others lose their deadwood; game to 100, "
    "the hand winner deals, an ace upcard allows 1 point",
    "oklahoma-reshuffle": "2 to 4 players, the discard pile is reshuffled when the stock "
    "is down to two cards, penalty scoring: gin 25, knock 10, undercut 25, an undercut costs "
    "the knocker 25; game to 100",
    "gin": "Standard Gin Rummy: knock with 10 or less, no spade doubling, game to 100",
}


def preset(name: str) -> Rules:
    """The named preset. Raises RulesError listing the presets when there is none."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"no preset {name!r}; the presets are " + ", ".join(PRESETS)
        ) from None
