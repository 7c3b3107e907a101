"""One game's authoritative Match: reading a seat's action, applying it, its record, its frames.

Everything here is plain, blocking engine work: ``live`` calls it in a worker thread, one
room at a time, and saves the record before anyone is told.
"""

from __future__ import annotations

import random
import re
import secrets
import sys
from collections.abc import Sequence
from typing import Any

from okgin.actions import PlayerAction, parse_action
from okgin.advice.tips import advice
from okgin.errors import IllegalActionError
from okgin.hand import Hand, play_chance
from okgin.match import Match
from okgin.record import deal_to_json, record_head, replay
from okgin.rules import Rules
from okgin.server.refusals import ProtocolError
from okgin.server.rooms.frames import (
    advice_json,
    final_json,
    notation_with_seat,
    public_view_json,
    sheet_json,
    view_json,
)
from okgin.server.rooms.late_odds import LateOdds
from okgin.server.store.storage import LogRow, deal_entry
from okgin.view import public_view

_SEAT = re.compile(r"[0-9]")


class Game:
    """One game (a match to the target) and the record it writes, hand by hand."""

    def __init__(self, game_id: str, match: Match, rng: random.Random | None = None) -> None:
        self.id = game_id
        self.match = match
        self.rng = rng or random.Random()
        self._written: list[dict[str, Any]] = []
        self._current: tuple[Hand, dict[str, Any]] | None = None
        self._rules = match.rules.to_json()
        self.version = 0
        """The log rows of this game the store holds (``unsaved`` gives the ones after them)."""
        self._logged = (0, 0)  # (hands whose deal is logged, actions of the last of them logged)
        self._shown_history: tuple[Hand, list[str]] | None = None
        self._shown_sheet: tuple[int, list[dict[str, Any]]] | None = None
        self.late_odds = LateOdds()
        """The watchers' odds a move late, kept for this game (``watchers.make_frames`` adds
        them to the spectators' states)."""

    @classmethod
    def deal(cls, rules: Rules, seed: int | None = None) -> Game:
        """A new game with its first hand dealt (``seed`` only from `okgin serve --allow-seeds`)."""
        rng = random.Random(seed)
        match = Match(rules, first_dealer=rng.randrange(rules.players))
        match.deal_next(rng)
        return cls(secrets.token_urlsafe(12), match, rng)

    @classmethod
    def from_record(cls, game_id: str, record: dict[str, Any], version: int | None = None) -> Game:
        """The game ``record`` holds; with ``version``, as the store holds it (that many log
        rows), else not stored yet (``unsaved`` gives all of it)."""
        match, _ = replay(record)
        game = cls(game_id, match)
        if version is not None:
            game.saved(version)
        if match.current is None and not match.hands:
            match.deal_next(game.rng)
        return game

    # -- the log --------------------------------------------------------------------------

    def unsaved(self) -> list[LogRow]:
        """The log rows made since the store's version: new deals (JSON) and actions, by hand."""
        hands, (logged, actions) = self.match.hands, self._logged
        rows: list[LogRow] = []
        if logged:
            rows.extend((logged, str(action)) for action in hands[logged - 1].actions[actions:])
        for number in range(logged + 1, len(hands) + 1):
            hand = hands[number - 1]
            rows.append((number, deal_entry(hand.dealer, _deal(hand))))
            rows.extend((number, str(action)) for action in hand.actions)
        return rows

    def saved(self, rows: int) -> None:
        """The store now holds everything this game has: ``rows`` more log rows than before."""
        hands = self.match.hands
        self._logged = (len(hands), len(hands[-1].actions) if hands else 0)
        self.version += rows

    # -- changes --------------------------------------------------------------------------

    def act(self, seat: int, text: str) -> PlayerAction:
        """Play ``seat``'s action. Raises OkginError, changing nothing, when it is not legal."""
        action = own_action(text, seat)
        self.apply(action)
        return action

    def apply(self, action: PlayerAction) -> None:
        self.match.apply(action)
        play_chance(self.match.hands[-1], self.rng)

    def next_hand(self) -> None:
        if self.match.over:
            raise IllegalActionError("the game is over")
        if self.match.current is not None:
            raise IllegalActionError("the hand in progress is not over")
        self.match.deal_next(self.rng)

    def to_act(self) -> int | None:
        hand = self.match.current
        return None if hand is None else hand.to_act

    @property
    def moves(self) -> tuple[int, int]:
        """(hands dealt, actions in the last): changes whenever the game does."""
        return len(self.match.hands), len(self.match.hands[-1].actions)

    # -- what is sent ---------------------------------------------------------------------

    def frame(
        self, seat: int | None, names: Sequence[str], levels: Sequence[str | None], coach: bool = False,
        event: str | None = None,
    ) -> dict[str, Any]:
        """The state message for ``seat`` (None: a spectator): only what that seat may see."""
        return self.frames([(seat, coach)], names, levels, event)[seat, coach]

    def frames(
        self, keys: Sequence[tuple[int | None, bool]], names: Sequence[str],
        levels: Sequence[str | None], event: str | None = None,
    ) -> dict[tuple[int | None, bool], dict[str, Any]]:
        """The state message for each (seat, coach) of ``keys`` (seat None: a spectator), each
        from that seat's own view; what every seat sees alike (the history, the score sheet,
        the names) is made once for them all."""
        match = self.match
        shared = {
            "type": "state", "game": self.id, "names": list(names),
            # levels[seat - 1]: the computer level of each seat after the first (null: a person).
            "levels": list(levels[1:]), "seat_levels": list(levels), "rules": self._rules,
            "hand_number": len(match.hands), "event": event, "totals": list(match.totals),
            "won": list(match.won),  # what counts toward the target (penalties do not)
            "sheet": self._sheet(),
            "final": final_json(match.final, match.rules) if match.final else None,
        }
        history = self._history()
        made = {}
        for seat, coach in keys:
            coached = None
            if seat is None:
                view = public_view_json(public_view(match.hands[-1], match.totals), history)
            else:
                seat_view = match.view(seat)
                view = view_json(seat_view, history)
                if coach:
                    coached = advice_json(advice(seat_view, list(names)))
            made[seat, coach] = {**shared, "view": view, "coach": coached}
        return made

    def _history(self) -> list[str]:
        """The hand's public history as frames write it: each action's text made once (a copy:
        frames already made may not have been sent yet)."""
        hand = self.match.hands[-1]
        if self._shown_history is None or self._shown_history[0] is not hand:
            self._shown_history = (hand, [])
        texts = self._shown_history[1]
        texts.extend(notation_with_seat(action) for action in hand.public_actions[len(texts):])
        return list(texts)

    def _sheet(self) -> list[dict[str, Any]]:
        """The score sheet, its lines for finished hands made once (they never change)."""
        hands = self.match.hands
        finished = len(hands) - (hands[-1].result is None if hands else 0)
        if self._shown_sheet is None or self._shown_sheet[0] != finished:
            self._shown_sheet = (finished, sheet_json(hands))
        return self._shown_sheet[1]

    def head(self, names: Sequence[str]) -> dict[str, Any]:
        """The record's head (format, rules, players): stored once, with the game's row."""
        head = record_head(self.match.rules, list(names))
        del head["hands"]
        return head

    def record(self, names: Sequence[str]) -> dict[str, Any]:
        """The game record (with the deal: hidden cards). Finished hands are written once."""
        hands = self.match.hands
        for number in range(len(self._written), len(hands)):
            if not hands[number].over:
                break
            self._written.append(_hand_record(hands[number]))
        record = record_head(self.match.rules, list(names))
        record["hands"] = self._written + [self._current_record(h) for h in hands[len(self._written):]]
        return record

    def _current_record(self, hand: Hand) -> dict[str, Any]:
        """The record of the hand being played, its deal and action texts written once each."""
        if self._current is None or self._current[0] is not hand:
            self._current = (hand, {"dealer": hand.dealer, "deal": _deal(hand), "actions": []})
        entry = self._current[1]
        texts: list[str] = entry["actions"]
        texts.extend(sys.intern(str(action)) for action in hand.actions[len(texts):])
        return {**entry, "actions": list(texts)}


def _hand_record(hand: Hand) -> dict[str, Any]:
    return {"dealer": hand.dealer, "deal": _deal(hand), "actions": [sys.intern(str(a)) for a in hand.actions]}


def _deal(hand: Hand) -> dict[str, Any]:
    """The deal's record, its card texts shared (interned): games keep many of them."""
    deal = deal_to_json(hand.deal)
    return {
        "hands": [[sys.intern(card) for card in cards] for cards in deal["hands"]],
        "upcard": sys.intern(deal["upcard"]),
        "stock": [sys.intern(card) for card in deal["stock"]],
    }


def own_action(text: str, seat: int) -> PlayerAction:
    """Read an action for ``seat``: "discard 7S" or, with the seat, "0 discard 7S"."""
    words = text.split()
    if words and words[0][:1].isdigit():
        if not all(_SEAT.fullmatch(char) for char in words[0]):
            raise ProtocolError(f"{words[0]!r} is not a seat: write it 0 to 3, or leave it out")
        if int(words[0]) != seat:
            raise IllegalActionError(f"{text!r}: you play seat {seat}, not seat {words[0]}")
    else:
        text = f"{seat} {text}"
    action = parse_action(text)
    if not isinstance(action, PlayerAction):
        raise IllegalActionError(f"{text!r}: only the server shuffles")
    return action
