"""A streamed state frame (docs/api.md's game stream) as the seat's ``SeatView``: what a
computer player is given. Built from that frame alone (the seat's own view as the server wrote
it, ``rooms/frames.py``'s ``view_json``), so the player knows no more than the seat may."""

from __future__ import annotations

from typing import Any

from okgin.actions import Action, PlayerAction, Reshuffle, parse_action
from okgin.cards import cards_of_mask, mask_of, parse_card, parse_cards
from okgin.errors import OkginError
from okgin.hand import Phase
from okgin.rules import Rules
from okgin.view import SeatView


def seat_view_of(frame: dict[str, Any]) -> SeatView:
    """The ``SeatView`` of a state frame's ``view`` during a hand (``result`` is left out: a
    player acts only while the hand is played). Raises OkginError saying what was wrong."""
    try:
        return _view(frame, frame["view"])
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, OkginError):
            raise OkginError(f"the server sent a state okgin cannot read: {error}") from None
        kind = type(error).__name__
        raise OkginError(f"the server sent a state okgin cannot read ({kind}: {error})") from None


def _view(frame: dict[str, Any], view: dict[str, Any]) -> SeatView:
    seat = int(view["seat"])
    mask = mask_of(parse_cards(list(view["hand"])))
    return SeatView(
        seat=seat,
        rules=Rules.from_json(frame["rules"]),
        dealer=int(view["dealer"]),
        phase=Phase(view["phase"]),
        to_act=None if view["to_act"] is None else int(view["to_act"]),
        hand=cards_of_mask(mask),
        hand_mask=mask,
        hand_sizes=tuple(int(n) for n in view["hand_sizes"]),
        stock_count=int(view["stock_count"]),
        discards=tuple(parse_cards(list(view["discards"]))),
        upcard=parse_card(view["upcard"]),
        knock_limit=int(view["knock_limit"]),
        multiplier=int(view["multiplier"]),
        taken=parse_card(view["taken"]) if view["taken"] else None,
        picked=tuple(tuple(parse_cards(list(cards))) for cards in view["picked"]),
        history=tuple(_history_action(text) for text in view["history"]),
        legal=tuple(_player_action(f"{seat} {text}") for text in view["legal"]),
        scores=tuple(int(n) for n in view["scores"]),
        target=int(view["target"]),
        result=None,
        won=tuple(int(n) for n in frame["won"]),
    )


def _history_action(text: str) -> Action:
    """A history line: the record's notation, a reshuffle shown without its order."""
    return Reshuffle(()) if text == "reshuffle" else parse_action(text)


def _player_action(text: str) -> PlayerAction:
    action = parse_action(text)
    if isinstance(action, Reshuffle):
        raise OkginError(f"{text!r} is not a move a seat makes")
    return action


def api_notation(action: PlayerAction) -> str:
    """The move as the API takes it (``/act``'s ``action``): its notation without the seat."""
    return str(action).split(" ", 1)[1]
