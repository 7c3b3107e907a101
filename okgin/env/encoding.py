"""The fixed-size encoding of a seat's view and the numbered actions (tables in docs/env.md).

Everything here is computed from a ``SeatView`` alone, so an observation can never hold a
card the seat may not see. Seats are relative: slot 0 is the observer, slot 1 the next seat
to play after it, and so on; slots of seats a smaller table does not have stay zero.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.knowledge import knowledge_of
from okgin.cards import DECK, mask_of
from okgin.hand import Phase
from okgin.view import SeatView

SEATS = 4
"""Slots per seat-indexed part: the most players a table has."""
DRAW, TAKE, PASS = 0, 1, 2
DISCARD = 3
"""Actions 3-54: discard card ``i`` (``okgin.cards.DECK[i]``)."""
KNOCK = DISCARD + 52
"""Actions 55-106: knock (gin when nothing is left unmatched) discarding card ``i``."""
BIG_GIN = KNOCK + 52
ACTIONS = BIG_GIN + 1
"""108 actions in all."""

PHASES = (Phase.OFFER, Phase.DRAW, Phase.DISCARD, Phase.LAST_CHANCE, Phase.RESHUFFLE, Phase.OVER)
SCORE_CLIP = 4.0
"""Scores are shown as a fraction of the target, clipped to +-4 so the space is bounded."""

# Offsets of each part of the observation vector (see docs/env.md).
HAND, PILE, TOP, UPCARD = 0, 52, 104, 156
HELD = 208
"""3 x 52: cards each other seat is known to hold (taken from the pile, not thrown since)."""
THROWN = HELD + 3 * 52
"""3 x 52: cards each other seat has discarded this hand."""
PHASE = THROWN + 3 * 52
MY_TURN = PHASE + len(PHASES)
KNOCK_LIMIT = MY_TURN + 1
MULTIPLIER = KNOCK_LIMIT + 1
STOCK = MULTIPLIER + 1
HAND_SIZES = STOCK + 1
SCORES = HAND_SIZES + SEATS
TARGET = SCORES + SEATS
PRESENT = TARGET + 1
DEALER = PRESENT + SEATS
OBSERVATION_SIZE = DEALER + SEATS
"""547 numbers."""

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


def encode(view: SeatView) -> Vector:
    """The observation vector of ``view`` (float32, ``OBSERVATION_SIZE`` long, in [-4, 4])."""
    knowledge = knowledge_of(view)
    public = Public(
        pile=mask_of(view.discards), top=view.discards[-1].index if view.discards else -1,
        held=knowledge.held, discarded=knowledge.discarded,
    )
    return fill(view.seat, view.hand_mask, public, Table(
        upcard=view.upcard.index, phase=view.phase, to_act=view.to_act,
        knock_limit=view.knock_limit, multiplier=view.multiplier, stock=view.stock_count,
        hand_sizes=view.hand_sizes, scores=view.scores, target=view.target, dealer=view.dealer,
    ))


@dataclass(frozen=True, slots=True)
class Public:
    """What every seat has seen of the cards: the pile and each seat's takes and throws."""

    pile: int
    top: int
    held: tuple[int, ...] | list[int]
    """Per seat: cards taken from the pile and not thrown since."""
    discarded: tuple[int, ...] | list[int]


@dataclass(frozen=True, slots=True)
class Table:
    """The rest of a seat's view that the encoding shows."""

    upcard: int
    phase: Phase
    to_act: int | None
    knock_limit: int
    multiplier: int
    stock: int
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    dealer: int


def fill(seat: int, hand: int, public: Public, table: Table) -> Vector:
    """The observation of ``seat`` holding ``hand``: the one layout both ``encode`` and the
    environment's incremental path write (tests check they agree at every step)."""
    players = len(table.hand_sizes)
    others = [(seat + slot) % players for slot in range(1, players)]
    held = [public.held[s] for s in others] + [0] * (SEATS - players)
    thrown = [public.discarded[s] for s in others] + [0] * (SEATS - players)
    top = 1 << public.top if public.top >= 0 else 0
    out = np.empty(OBSERVATION_SIZE, dtype=np.float32)
    out[:PHASE] = _unpack([hand, public.pile, top, 1 << table.upcard, *held, *thrown])
    tail = [0.0] * (OBSERVATION_SIZE - PHASE)  # a list first: numpy is slow one item at a time
    tail[PHASES.index(table.phase)] = 1.0
    tail[MY_TURN - PHASE] = float(table.to_act == seat)
    tail[KNOCK_LIMIT - PHASE] = table.knock_limit / 10
    tail[MULTIPLIER - PHASE] = table.multiplier - 1
    tail[STOCK - PHASE] = table.stock / 52
    for slot in range(players):
        other = (seat + slot) % players
        tail[HAND_SIZES - PHASE + slot] = table.hand_sizes[other] / 11
        score = table.scores[other] / max(1, table.target)
        tail[SCORES - PHASE + slot] = min(SCORE_CLIP, max(-SCORE_CLIP, score))
        tail[PRESENT - PHASE + slot] = 1.0
    tail[TARGET - PHASE] = min(1.0, table.target / 1000)
    tail[DEALER - PHASE + (table.dealer - seat) % players] = 1.0
    out[PHASE:] = tail
    return out


def bits(mask: int) -> npt.NDArray[np.uint8]:
    """The 52 bits of one card mask, card 0 first."""
    return _unpack([mask])


def _unpack(masks: list[int]) -> npt.NDArray[np.uint8]:
    """The 52 bits of each card mask, card 0 first, one mask after another (one numpy call
    for all of them: this is the hot path of every observation)."""
    whole = 0
    for mask in reversed(masks):
        whole = whole << 64 | mask
    raw = np.frombuffer(whole.to_bytes(8 * len(masks), "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").reshape(len(masks), 64)[:, :52].ravel()


def action_index(action: PlayerAction) -> int:
    """The number of ``action`` (a knock naming its melds counts as the plain knock)."""
    if isinstance(action, Draw):
        return DRAW
    if isinstance(action, Take):
        return TAKE
    if isinstance(action, Pass):
        return PASS
    if isinstance(action, Discard):
        return DISCARD + action.card.index
    if isinstance(action, Knock):
        return KNOCK + action.card.index
    if isinstance(action, BigGin):
        return BIG_GIN
    raise ValueError(f"{action!r} is not a player action")


def action_of(index: int, seat: int) -> PlayerAction:
    """The action numbered ``index`` for ``seat``. Raises ValueError outside 0-107."""
    if not isinstance(index, int | np.integer) or not 0 <= index < ACTIONS:
        raise ValueError(f"action {index!r} is not a number from 0 to {ACTIONS - 1}")
    if 0 <= seat < SEATS:
        return _NUMBERED[seat][index]  # made once: a step should not build its action
    return _numbered(int(index), seat)


def _numbered(index: int, seat: int) -> PlayerAction:
    if index < DISCARD:
        return (Draw(seat), Take(seat), Pass(seat))[index]
    if index < KNOCK:
        return Discard(seat, DECK[index - DISCARD])
    if index < BIG_GIN:
        return Knock(seat, DECK[index - KNOCK])
    return BigGin(seat)


_NUMBERED = [[_numbered(i, seat) for i in range(ACTIONS)] for seat in range(SEATS)]


def legal_mask(view: SeatView) -> Mask:
    """1 for each action ``view``'s seat may take now, else 0 (all 0 when it is not its turn)."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    for action in view.legal:
        mask[action_index(action)] = 1
    return mask


def describe(index: int) -> str:
    """An action number in words, for error messages and ``render``."""
    return str(action_of(index, 0)).removeprefix("0 ")
