"""A puzzle as shipped and stored: a position in the analysis board's notation, its answer,
the worth of every legal move, its themes and its starting rating.

The position is the board's fields (``okgin.advice.board``): the rules, the seat, the dealer,
the first upcard, the seat's own hand and the moves as every player saw them. So a puzzle
holds nothing its seat could not see, and ``view`` rebuilds the seat's view through the
board's own checks.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from okgin.actions import PlayerAction, Reshuffle, parse_action
from okgin.advice.board import Position, position_view, read_position
from okgin.errors import OkginError
from okgin.view import SeatView

SHIPPED = "puzzles.json"
"""The starting set, in ``okgin/puzzles/data/`` (made by ``okgin puzzles make``)."""
POSITION_FIELDS = ("rules", "players", "target", "seat", "dealer", "upcard", "hand", "moves", "scores")


class PuzzleError(OkginError):
    """A puzzle that cannot be read: the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle. ``values``: every legal move's worth in points as made (best first);
    ``margins``: the answer's lead over the next move on each making salt."""

    id: str
    position: dict[str, str]
    answer: str
    values: tuple[tuple[str, float], ...]
    margins: tuple[float, ...]
    themes: tuple[str, ...]
    rating: float
    """The puzzle's starting mu (see ``make.starting_mu``)."""
    source: str
    """Where it was found: the seed, game, hand and turn, or a stored game's id."""

    @property
    def answer_action(self) -> PlayerAction:
        return _player_action(self.answer)

    def view(self) -> SeatView:
        """The seat's view, rebuilt by the analysis board. Raises PuzzleError."""
        return view_of(self.position)

    def position_of(self) -> Position:
        return read_position(self.position)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "position": self.position, "answer": self.answer,
                "values": [list(pair) for pair in self.values], "margins": list(self.margins),
                "themes": list(self.themes), "rating": self.rating, "source": self.source}


def puzzle_id(position: dict[str, str]) -> str:
    """A puzzle's id, from its position alone: equal positions are one puzzle."""
    text = json.dumps({key: position[key] for key in POSITION_FIELDS}, sort_keys=True)
    return f"{zlib.crc32(text.encode()):08x}"


def view_of(position: dict[str, str]) -> SeatView:
    """The view of a puzzle's position. Raises PuzzleError if the board refuses it."""
    try:
        return position_view(read_position(position))
    except OkginError as error:
        raise PuzzleError(f"this puzzle's position cannot be read: {error}") from None


def _player_action(text: str) -> PlayerAction:
    try:
        action = parse_action(text)
    except OkginError as error:
        raise PuzzleError(str(error)) from None
    if isinstance(action, Reshuffle):
        raise PuzzleError(f"{text!r} is not a player's move")
    return action


def from_json(data: dict[str, Any]) -> Puzzle:
    """A puzzle from its JSON. Raises PuzzleError naming what is missing."""
    try:
        position = {key: str(data["position"][key]) for key in POSITION_FIELDS}
        return Puzzle(
            id=str(data["id"]), position=position, answer=str(data["answer"]),
            values=tuple((str(move), float(worth)) for move, worth in data["values"]),
            margins=tuple(float(m) for m in data["margins"]), themes=tuple(map(str, data["themes"])),
            rating=float(data["rating"]), source=str(data["source"]))
    except (KeyError, TypeError, ValueError) as error:
        raise PuzzleError(f"a puzzle lacks {error}") from None


def dump(puzzles: list[Puzzle], made_by: dict[str, Any]) -> str:
    """The JSON of a set of puzzles (``made_by``: the command, its seed and its time)."""
    lines = ",\n".join(json.dumps(p.to_json(), separators=(",", ":")) for p in puzzles)
    head = json.dumps(made_by, sort_keys=True)
    return f'{{"made_by": {head},\n"puzzles": [\n{lines}\n]}}\n'


def load(text: str) -> list[Puzzle]:
    """The puzzles of a set's JSON. Raises PuzzleError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(f"not a set of puzzles: {error}") from None
    return [from_json(item) for item in data.get("puzzles", [])]


@cache
def shipped() -> tuple[Puzzle, ...]:
    """The starting set shipped with okgin (read once)."""
    text = resources.files("okgin.puzzles").joinpath("data", SHIPPED).read_text(encoding="utf-8")
    return tuple(load(text))


@cache
def shipped_by_id() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in shipped()}
