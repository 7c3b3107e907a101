"""The analysis board: a position as one seat could see it, typed in, made into that seat's
``SeatView`` for the coach (docs/analysis.md).

A position is the rules, the seat it is seen from, the dealer, the first upcard, that seat's
hand now and the hand's moves so far as every player saw them (record notation: ``1 pass``,
``0 take``, ``1 draw``, ``1 discard 7H``), with the match's scores before the hand. The cards the
seat cannot see are filled in anyhow (every such deal gives the same view), and the moves are
then played by the engine itself, so a position no hand could reach is refused with the rule it
breaks; so are a card in two places, a hand of the wrong size and moves past the hand's end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from okgin.actions import Discard, Draw, Pass, PlayerAction, Take, parse_action
from okgin.cards import DECK, Card, parse_card, parse_cards
from okgin.errors import OkginError
from okgin.hand import Deal, Hand, Phase
from okgin.rules import Rules, preset
from okgin.view import SeatView, seat_view

MOST_MOVES = 400
"""More moves than any hand can have (a stock of 31 drawn by four seats, each with a pass)."""


class PositionError(OkginError):
    """A position no seat could see: the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position typed in: see the module's docstring."""

    rules: Rules
    seat: int
    dealer: int
    upcard: Card
    hand: tuple[Card, ...]
    moves: tuple[PlayerAction, ...]
    scores: tuple[int, ...] = ()
    """Each seat's score before this hand (empty: all 0)."""


def read_position(fields: Mapping[str, str]) -> Position:
    """A position from the board's fields (text, as a form sends them): ``rules`` (a preset),
    ``players`` (2 to 4; empty: the preset's), ``target`` (empty: the preset's), ``seat``,
    ``dealer``, ``upcard``, ``hand``, ``moves`` and ``scores`` (empty: all 0). Raises
    PositionError naming the field at fault."""
    try:
        rules = preset(fields.get("rules", "").strip() or "oklahoma")
        players = fields.get("players", "").strip()
        if players:
            rules = rules.replace(players=_number(players, "players", 2, 4))
        target = fields.get("target", "").strip()
        if target:
            rules = rules.replace(target=_number(target, "target", 1, 10_000))
        top = rules.players - 1
        seat = _number(fields.get("seat", "0"), "seat", 0, top)
        dealer = _number(fields.get("dealer", "0"), "dealer", 0, top)
        upcard = parse_card(fields.get("upcard", ""))
        hand = tuple(parse_cards(fields.get("hand", "")))
    except OkginError as error:
        raise PositionError(str(error)) from None
    scores = tuple(_number(word, "scores", -100_000, 100_000) for word in
                   fields.get("scores", "").replace(",", " ").split())
    return Position(rules, seat, dealer, upcard, hand, read_moves(fields.get("moves", "")), scores)


def _number(text: str, name: str, least: int, most: int) -> int:
    word = text.strip()
    digits = word[1:] if word.startswith("-") else word
    if not digits.isdecimal() or len(digits) > 6 or not least <= int(word) <= most:
        raise PositionError(f"{name}: give a whole number from {least} to {most}, not {word[:12]!r}")
    return int(word)


def read_moves(text: str) -> tuple[PlayerAction, ...]:
    """Moves in record notation, one per line or separated by commas. Raises PositionError."""
    moves: list[PlayerAction] = []
    for number, written in enumerate(w.strip() for w in text.replace(",", "\n").splitlines()):
        if not written:
            continue
        if len(moves) >= MOST_MOVES:
            raise PositionError(f"more than {MOST_MOVES} moves: no hand is that long")
        try:
            action = parse_action(written)
        except OkginError as error:
            raise PositionError(f"move {number + 1}: {error}") from None
        if not isinstance(action, (Pass, Take, Draw, Discard)):
            raise PositionError(f"move {number + 1} ({written}) ends the hand: give the moves before it")
        moves.append(action)
    return tuple(moves)


@dataclass(eq=False)
class _Slot:
    """A place for a card the seat cannot see (in a hand as dealt, or in the stock)."""

    card: Card | None = None


@dataclass
class _Seat:
    """A seat's cards during the walk: cards known (taken from the pile) and places unknown."""

    known: list[Card] = field(default_factory=list)
    slots: list[_Slot] = field(default_factory=list)


def position_view(position: Position) -> SeatView:
    """The view of ``position``'s seat, as the engine would show it. Raises PositionError."""
    rules, seat = position.rules, position.seat
    players = rules.players
    if not 0 <= seat < players or not 0 <= position.dealer < players:
        raise PositionError(f"the seat and the dealer are seats 0 to {players - 1}")
    if len(set(position.hand)) != len(position.hand):
        raise PositionError("your hand names a card twice")
    scores = position.scores or (0,) * players
    if len(scores) != players:
        raise PositionError(f"give {players} scores, one for each seat, or none")
    hand = Hand(rules, position.dealer, _deal(position))
    for number, move in enumerate(position.moves):
        if hand.phase in (Phase.OVER, Phase.RESHUFFLE):
            raise PositionError(f"move {number + 1} ({move}) comes after the stock ran out")
        try:
            hand.apply(move)
        except OkginError as error:
            raise PositionError(f"move {number + 1} ({move}): {error}") from None
    if hand.phase == Phase.RESHUFFLE:
        raise PositionError("the stock ran out: a position after a reshuffle cannot be typed in")
    return seat_view(hand, seat, scores, tuple(max(s, 0) for s in scores))


def _deal(position: Position) -> Deal:
    """A deal that leads to ``position``: the cards its seat could see where the moves put them,
    every other card anywhere else."""
    rules, upcard = position.rules, position.upcard
    seats = [_Seat(slots=[_Slot() for _ in range(rules.cards_each)]) for _ in range(rules.players)]
    dealt = [list(s.slots) for s in seats]
    stock: list[_Slot] = []
    pile = [upcard]
    placed = {upcard}
    for number, move in enumerate(position.moves):
        taker = seats[move.seat] if 0 <= move.seat < rules.players else None
        if taker is None:
            raise PositionError(f"move {number + 1} ({move}): there is no seat {move.seat}")
        if isinstance(move, Take):
            if not pile:
                raise PositionError(f"move {number + 1} ({move}): the discard pile is empty")
            taker.known.append(pile.pop())
        elif isinstance(move, Draw):
            stock.append(_Slot())
            taker.slots.append(stock[-1])
        elif isinstance(move, Discard):
            _throw(taker, move.card, placed, f"move {number + 1} ({move})")
            pile.append(move.card)
    mine = seats[position.seat]
    for card in mine.known:
        if card not in position.hand:
            raise PositionError(f"your hand must hold {card}: you took it from the pile and kept it")
    rest = [card for card in position.hand if card not in mine.known]
    if len(position.hand) != len(mine.known) + len(mine.slots):
        due = len(mine.known) + len(mine.slots)
        raise PositionError(f"your hand holds {len(position.hand)} cards where {due} are due after these"
                            " moves")
    for slot, card in zip(mine.slots, rest, strict=True):
        if card in placed:
            raise PositionError(f"{card} is in two places: in your hand and on the table")
        slot.card = card
        placed.add(card)
    unseen = iter(card for card in DECK if card not in placed)
    undrawn = len(DECK) - 1 - rules.players * rules.cards_each - len(stock)
    if undrawn < 0:
        raise PositionError(f"these moves draw {len(stock)} cards: the stock holds {len(stock) + undrawn}")
    stock += [_Slot() for _ in range(undrawn)]
    for slot in [*(s for d in dealt for s in d), *stock]:
        if slot.card is None:
            slot.card = next(unseen)
    return Deal(tuple(tuple(_card(s) for s in d) for d in dealt), upcard, tuple(_card(s) for s in stock))


def _throw(seat: _Seat, card: Card, placed: set[Card], move: str) -> None:
    """``seat`` discards ``card``: one it took from the pile, else one of its unseen places."""
    if card in seat.known:
        seat.known.remove(card)
        return
    if card in placed:
        raise PositionError(f"{move}: {card} is in two places (it is on the table already)")
    free = next((slot for slot in seat.slots if slot.card is None), None)
    if free is None:
        raise PositionError(f"{move}: that seat has no card it could have thrown")
    free.card = card
    seat.slots.remove(free)
    placed.add(card)


def _card(slot: _Slot) -> Card:
    assert slot.card is not None
    return slot.card
