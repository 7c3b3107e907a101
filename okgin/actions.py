"""Actions: one small frozen value each, whose ``str()`` is its record notation.

``"0 pass"``, ``"1 take"``, ``"0 draw"``, ``"1 discard KH"``, ``"0 knock 3C"`` (optionally
followed by the melds shown, ``"0 knock 3C 7C-7D-7H AS-2S-3S"``), ``"1 big-gin"``, and the
chance action ``"reshuffle 4C 9H ..."`` (the new stock, top card first).
"""

from __future__ import annotations

from dataclasses import dataclass

from okgin.cards import Card, parse_card, parse_cards
from okgin.errors import NotationError


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline the first upcard (or, at the last chance, decline the final discard)."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} pass"


@dataclass(frozen=True, slots=True)
class Take:
    """Take the first upcard or the top card of the discard pile."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} take"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the stock."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} draw"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card and pass the turn."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"{self.seat} discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock:
    """Discard a card face down and end the hand: gin when no deadwood is left.

    ``melds`` names the melds shown; None shows a least-deadwood arrangement.
    """

    seat: int
    card: Card
    melds: tuple[tuple[Card, ...], ...] | None = None

    def __str__(self) -> str:
        text = f"{self.seat} knock {self.card}"
        if self.melds is not None:
            text += "".join(" " + "-".join(str(c) for c in meld) for meld in self.melds)
        return text


@dataclass(frozen=True, slots=True)
class BigGin:
    """End the hand with every card melded right after drawing, without discarding."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat} big-gin"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the discard pile (all but its top card) becomes the new stock in this order."""

    stock: tuple[Card, ...]

    def __str__(self) -> str:
        return "reshuffle " + " ".join(str(c) for c in self.stock)

    @property
    def public(self) -> str:
        """What every player sees: that the pile was reshuffled, not the new order."""
        return "reshuffle"


PlayerAction = Pass | Take | Draw | Discard | Knock | BigGin
Action = PlayerAction | Reshuffle

_NO_CARD: dict[str, type[Pass | Take | Draw | BigGin]] = {
    "pass": Pass, "take": Take, "draw": Draw, "big-gin": BigGin,
}


def parse_action(text: str) -> Action:
    """Read an action in record notation. Raises NotationError saying what was wrong.

    >>> parse_action("1 discard KH")
    Discard(seat=1, card=Card.parse('KH'))
    """
    if not isinstance(text, str):
        raise NotationError(f"an action is a string such as '0 draw', not {text!r}")
    words = text.split()
    if words and words[0] == "reshuffle":
        return Reshuffle(tuple(parse_cards(words[1:])))
    if len(words) < 2 or not words[0].isdecimal():
        raise NotationError(
            f"{text!r} is not an action: expected '<seat> <verb> [card]', e.g. '0 discard 7S'"
        )
    seat, verb, rest = int(words[0]), words[1], words[2:]
    if verb in _NO_CARD:
        if rest:
            raise NotationError(f"{text!r}: '{verb}' takes no card")
        return _NO_CARD[verb](seat)
    if verb not in ("discard", "knock"):
        raise NotationError(
            f"{text!r}: unknown verb {verb!r}; the verbs are pass, take, draw, discard, "
            "knock, big-gin"
        )
    if not rest:
        raise NotationError(f"{text!r}: '{verb}' needs the card to discard")
    card = parse_card(rest[0])
    if verb == "discard":
        if len(rest) > 1:
            raise NotationError(f"{text!r}: 'discard' takes one card")
        return Discard(seat, card)
    melds = tuple(tuple(parse_cards(meld.split("-"))) for meld in rest[1:])
    return Knock(seat, card, melds if rest[1:] else None)
