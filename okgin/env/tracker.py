"""Every seat's observation and the action mask, kept up to date as actions are played.

The hot path of ``OkginEnv``. Once a hand is dealt (and after a reshuffle or the hand's end)
each seat's vector is written whole by ``encoding.fill``, the layout ``encode`` writes from a
view; between those, a player's action changes a few numbers (a card bit or two, the phase,
whose turn, a hand size, the stock), and only those are written. Tests check that every
observation and mask equal ``encode(seat_view(...))`` and the engine's legal actions at every
step of random episodes of every preset and table size.
"""

from __future__ import annotations

import numpy as np

from okgin.actions import Discard, Draw, PlayerAction, Take
from okgin.env.encoding import (
    ACTIONS,
    DISCARD,
    DRAW,
    HAND,
    HAND_SIZES,
    HELD,
    KNOCK,
    MY_TURN,
    OBSERVATION_SIZE,
    PASS,
    PHASE,
    PHASES,
    PILE,
    STOCK,
    TAKE,
    THROWN,
    TOP,
    Mask,
    Public,
    Table,
    Vector,
    action_index,
    fill,
)
from okgin.hand import Phase
from okgin.match import Match
from okgin.melds import discard_deadwood_of_mask


def _mask_of(*actions: int) -> Mask:
    mask = np.zeros(ACTIONS, dtype=np.int8)
    mask[list(actions)] = 1
    return mask


NO_ACTIONS = np.zeros(ACTIONS, dtype=np.int8)
"""The mask of a seat that is not to act (copied before it is given out)."""
_DRAWING = {
    Phase.OFFER: _mask_of(TAKE, PASS),
    Phase.LAST_CHANCE: _mask_of(TAKE, PASS),
    Phase.DRAW: _mask_of(DRAW, TAKE),
}
_MUST_DRAW = _mask_of(DRAW)
_PHASE_INDEX = {phase: PHASE + i for i, phase in enumerate(PHASES)}


class Tracker:
    """The public card state of the match's current hand (the pile, each seat's takes and
    throws) and each seat's observation vector, for the hand as it is played (``played``)."""

    def __init__(self, match: Match) -> None:
        hand = match.hands[-1]
        players = hand.players
        self.match = match
        self.hand = hand
        self.rows = np.empty((players, OBSERVATION_SIZE), dtype=np.float32)
        self._rows: list[Vector] = list(self.rows)  # one view per seat, made once: indexing makes new ones
        self.pile = hand.deal.upcard.mask
        self.held = [0] * players
        self.thrown = [0] * players
        self._hands = [0] * players
        self._seats = range(players)
        # _slot[a][r]: where seat a sits in seat r's vector (0: r itself, 1: the next seat...)
        self._slot = [[(a - r) % players for r in self._seats] for a in self._seats]
        self._mask: Mask | None = None
        self._phase = hand.phase
        self._to_act = hand.to_act
        self.refill()

    # -- what a seat is given ---------------------------------------------------------------

    def observation(self, seat: int) -> Vector:
        """Seat's observation vector (a copy: the caller may keep it)."""
        return self._rows[seat].copy()

    def action_mask(self, seat: int) -> Mask:
        """Seat's action mask (a copy): the legal actions of the seat to act, else all 0."""
        if seat != self.hand.to_act:
            return NO_ACTIONS.copy()
        return self.legal().copy()

    def legal(self) -> Mask:
        """The action mask of the seat to act, worked out once per state (do not change it).

        The common cases are set directly; a hand that may knock asks the engine."""
        if self._mask is None:
            self._mask = self._legal()
        return self._mask

    def _legal(self) -> Mask:
        hand = self.hand
        if hand.phase == Phase.DRAW and hand.must_draw:
            return _MUST_DRAW
        drawing = _DRAWING.get(hand.phase)
        if drawing is not None:
            return drawing
        mask = np.zeros(ACTIONS, dtype=np.int8)
        if hand.phase != Phase.DISCARD:
            return mask
        seat = hand.to_act or 0
        cards = hand.hand_mask(seat)
        if discard_deadwood_of_mask(cards) <= hand.knock_limit:
            mask[[action_index(a) for a in hand.legal_actions()]] = 1
            return mask
        mask[DISCARD:KNOCK] = self._rows[seat][HAND:HAND + 52]  # its cards, from its vector
        if hand.taken is not None:
            mask[DISCARD + hand.taken.index] = 0
        return mask

    # -- keeping up -------------------------------------------------------------------------

    def refill(self) -> None:
        """Write every seat's vector whole from the hand and the public card state."""
        hand = self.hand
        top = hand.top_discard
        public = Public(self.pile, top.index if top is not None else -1, self.held, self.thrown)
        table = Table(
            upcard=hand.deal.upcard.index, phase=hand.phase, to_act=hand.to_act,
            knock_limit=hand.knock_limit, multiplier=hand.multiplier, stock=hand.stock_count,
            hand_sizes=tuple(hand.hand_size(s) for s in self._seats),
            scores=self.match.totals, target=self.match.rules.target, dealer=hand.dealer,
        )
        for seat in self._seats:
            self._hands[seat] = hand.hand_mask(seat)
            self.rows[seat] = fill(seat, self._hands[seat], public, table)
        self._phase, self._to_act, self._mask = hand.phase, hand.to_act, None

    def played(self, action: PlayerAction, top: int, reshuffled: bool) -> None:
        """Catch up with ``action``, just played (``top``: the pile's top card index before
        it, or -1; ``reshuffled``: whether the pile was reshuffled after it)."""
        hand = self.hand
        self._mask = None
        if isinstance(action, Discard):
            self._discarded(action.seat, action.card.index, top)
        elif isinstance(action, Draw):
            seat = action.seat
            cards = hand.hand_mask(seat)
            drawn = cards & ~self._hands[seat]
            self._hands[seat] = cards
            self.rows[seat, HAND + drawn.bit_length() - 1] = 1.0
            self._size(seat)
            stock = hand.stock_count / 52
            for row in self._rows:
                row[STOCK] = stock
        elif isinstance(action, Take):
            self._taken(action.seat, top)
        if reshuffled:  # the pile is its top card alone
            self.pile = 0 if hand.top_discard is None else hand.top_discard.mask
        if reshuffled or hand.over:
            self.refill()
            return
        self._turn()

    def _discarded(self, seat: int, card: int, top: int) -> None:
        bit = 1 << card
        held = self.held[seat] & bit
        self.pile |= bit
        self.held[seat] &= ~bit
        self.thrown[seat] |= bit
        self._hands[seat] &= ~bit
        rows, slots = self._rows, self._slot[seat]
        rows[seat][HAND + card] = 0.0
        for r in self._seats:
            row = rows[r]
            row[PILE + card] = 1.0
            if top >= 0:
                row[TOP + top] = 0.0
            row[TOP + card] = 1.0
            slot = slots[r]
            if slot:
                row[THROWN + 52 * (slot - 1) + card] = 1.0
                if held:
                    row[HELD + 52 * (slot - 1) + card] = 0.0
        self._size(seat)

    def _taken(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.pile &= ~bit
        self.held[seat] |= bit
        self._hands[seat] |= bit
        below = self.hand.top_discard
        rows, slots = self._rows, self._slot[seat]
        rows[seat][HAND + card] = 1.0
        for r in self._seats:
            row = rows[r]
            row[PILE + card] = 0.0
            row[TOP + card] = 0.0
            if below is not None:
                row[TOP + below.index] = 1.0
            slot = slots[r]
            if slot:
                row[HELD + 52 * (slot - 1) + card] = 1.0
        self._size(seat)

    def _size(self, seat: int) -> None:
        size = self.hand.hand_size(seat) / 11
        slots = self._slot[seat]
        for r in self._seats:
            self._rows[r][HAND_SIZES + slots[r]] = size

    def _turn(self) -> None:
        """The phase and whose turn it is, in every vector."""
        hand = self.hand
        if hand.phase != self._phase:
            old, new = _PHASE_INDEX[self._phase], _PHASE_INDEX[hand.phase]
            for row in self._rows:
                row[old] = 0.0
                row[new] = 1.0
            self._phase = hand.phase
        if hand.to_act != self._to_act:
            if self._to_act is not None:
                self._rows[self._to_act][MY_TURN] = 0.0
            if hand.to_act is not None:
                self._rows[hand.to_act][MY_TURN] = 1.0
            self._to_act = hand.to_act
