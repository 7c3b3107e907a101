"""The fixed-size encoding of a seat's view and the numbered actions (tables in docs/env.md).

Everything here is computed from a ``SeatView`` alone, so an observation can never hold a
card the seat may not see. Seats are relative: slot 0 is the observer, slot 1 the next seat
to play after it, and so on; slots of seats a smaller table does not have stay zero.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.knowledge import knowledge_of
from okgin.cards import DECK
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
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    _cards(out, HAND, view.hand_mask)
    for card in view.discards:
        out[PILE + card.index] = 1.0
    if view.discards:
        out[TOP + view.discards[-1].index] = 1.0
    out[UPCARD + view.upcard.index] = 1.0
    knowledge = knowledge_of(view)
    for slot, seat in enumerate(knowledge.others()):
        _cards(out, HELD + 52 * slot, knowledge.held[seat])
        _cards(out, THROWN + 52 * slot, knowledge.discarded[seat])
    out[PHASE + PHASES.index(view.phase)] = 1.0
    out[MY_TURN] = float(view.my_turn)
    out[KNOCK_LIMIT] = view.knock_limit / 10
    out[MULTIPLIER] = view.multiplier - 1
    out[STOCK] = view.stock_count / 52
    players = len(view.hand_sizes)
    for slot in range(players):
        seat = (view.seat + slot) % players
        out[HAND_SIZES + slot] = view.hand_sizes[seat] / 11
        score = view.scores[seat] / max(1, view.target)
        out[SCORES + slot] = min(SCORE_CLIP, max(-SCORE_CLIP, score))
        out[PRESENT + slot] = 1.0
    out[TARGET] = min(1.0, view.target / 1000)
    out[DEALER + (view.dealer - view.seat) % players] = 1.0
    return out


def _cards(out: Vector, offset: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[offset + low.bit_length() - 1] = 1.0
        mask ^= low


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
    index = int(index)
    if index < DISCARD:
        return (Draw(seat), Take(seat), Pass(seat))[index]
    if index < KNOCK:
        return Discard(seat, DECK[index - DISCARD])
    if index < BIG_GIN:
        return Knock(seat, DECK[index - KNOCK])
    return BigGin(seat)


def legal_mask(view: SeatView) -> Mask:
    """1 for each action ``view``'s seat may take now, else 0 (all 0 when it is not its turn)."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    for action in view.legal:
        mask[action_index(action)] = 1
    return mask


def describe(index: int) -> str:
    """An action number in words, for error messages and ``render``."""
    return str(action_of(index, 0)).removeprefix("0 ")
