"""What a seat knows about the cards from its view: where each seen card is, and hints.

Everything here is worked out from a ``SeatView`` alone (its hand, the discard pile and the
public history), so it never knows more than the seat may.
"""

from __future__ import annotations

from dataclasses import dataclass

from okgin.actions import Discard, Draw, Pass, Reshuffle, Take
from okgin.cards import mask_of
from okgin.melds import SUIT_BITS
from okgin.view import PublicView, SeatView

FULL = (1 << 52) - 1
RANK_BITS = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The four aces; shifted left by rank - 1, the four cards of any rank."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's knowledge of the cards (all card sets are 52-bit masks)."""

    seat: int
    """-1 for a spectator (``public_knowledge``)."""
    players: int
    mine: int
    pile: int
    """Every card in the discard pile."""
    top: int
    """The index of the pile's top card, or -1 when the pile is empty."""
    held: tuple[int, ...]
    """Per seat: cards it is known to hold (taken from the pile, not discarded since)."""
    discarded: tuple[int, ...]
    """Per seat: every card it discarded this hand."""
    passed: tuple[int, ...]
    """Per seat: cards it declined (passed the upcard, or drew from the stock over them)."""
    stock_only: int
    """Cards reshuffled into the stock and not seen since (a draw may have taken some)."""
    unknown: int
    """Cards whose place this seat does not know: in the stock or another seat's hand."""
    hidden: tuple[int, ...]
    """Per seat: how many of its cards this seat cannot see (0 for itself)."""
    draws: tuple[int, ...]
    """Per seat: how many times it has drawn or taken this hand."""

    def others(self) -> list[int]:
        """The other seats, in turn order after this one (a spectator's: every seat)."""
        if self.seat < 0:
            return list(range(self.players))
        return [(self.seat + i) % self.players for i in range(1, self.players)]


def knowledge_of(view: SeatView) -> Knowledge:
    """Replay ``view.history`` to learn where every seen card is. Returns a ``Knowledge``."""
    return _replayed(view, view.seat, view.hand_mask)


def public_knowledge(view: PublicView) -> Knowledge:
    """What a spectator knows (no hand of its own: every seat's unseen cards are hidden from
    it); its ``seat`` is -1, so ``others()`` is every seat."""
    return _replayed(view, -1, 0)


def _replayed(view: SeatView | PublicView, me: int, mine: int) -> Knowledge:
    """The knowledge of seat ``me`` (-1: a spectator) holding ``mine``, from the public history."""
    players = len(view.hand_sizes)
    pile = [view.upcard.index]
    held, discarded, passed, draws = ([0] * players for _ in range(4))
    stock_only = 0
    for action in view.history:
        if isinstance(action, Reshuffle):
            stock_only |= sum(1 << i for i in pile[:-1])
            pile = pile[-1:]
            continue
        seat = action.seat
        if isinstance(action, Pass) and pile:
            passed[seat] |= 1 << pile[-1]
        elif isinstance(action, Take):
            held[seat] |= 1 << pile.pop()
            draws[seat] += 1
        elif isinstance(action, Draw):
            if pile:
                passed[seat] |= 1 << pile[-1]
            draws[seat] += 1
        elif isinstance(action, Discard):
            pile.append(action.card.index)
            held[seat] &= ~(1 << action.card.index)
            discarded[seat] |= 1 << action.card.index
    pile_mask = mask_of(view.discards)
    if me >= 0:
        held[me] = mine
    seen = mine | pile_mask
    for mask in held:
        seen |= mask
    hidden = tuple(
        0 if s == me else view.hand_sizes[s] - held[s].bit_count() for s in range(players)
    )
    return Knowledge(
        seat=me, players=players, mine=mine, pile=pile_mask,
        top=view.discards[-1].index if view.discards else -1,
        held=tuple(held), discarded=tuple(discarded), passed=tuple(passed),
        stock_only=stock_only & ~seen, unknown=FULL & ~seen, hidden=hidden, draws=tuple(draws),
    )


def neighbours(card: int, reach: int = 1) -> int:
    """The cards of the same rank and those within ``reach`` ranks in the same suit."""
    suit, rank = divmod(card, 13)
    same_rank = RANK_BITS << rank
    lo, hi = max(0, rank - reach), min(12, rank + reach)
    run = ((1 << (hi + 1)) - (1 << lo)) << (13 * suit)
    return (same_rank | run) & ~(1 << card)


def completers(hand: int) -> int:
    """The cards that would form a meld (or extend one) with two or more cards of ``hand``."""
    out = 0
    for suit in range(4):
        m = hand >> (13 * suit) & SUIT_BITS
        runs = (m >> 1 & m >> 2) | (m << 1 & m << 2) | (m << 1 & m >> 1)
        out |= (runs & SUIT_BITS) << (13 * suit)
    c, d, h, s = (hand >> (13 * i) & SUIT_BITS for i in range(4))
    pairs = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s)
    out |= pairs | pairs << 13 | pairs << 26 | pairs << 39
    return out & ~hand & FULL


def wanted_by(knowledge: Knowledge, seat: int, card: int) -> float:
    """How much ``seat`` seems to want ``card`` (about 0 to 3): its taken cards that meld with
    it raise the figure, the cards it threw or passed beside it lower it."""
    near = neighbours(card)
    held = knowledge.held[seat]
    score = 0.0
    if completers(held) >> card & 1:
        score += 2.0
    score += 0.5 * (near & held).bit_count()
    score -= 0.4 * (near & (knowledge.discarded[seat] | knowledge.passed[seat])).bit_count()
    if (knowledge.discarded[seat] | knowledge.passed[seat]) >> card & 1:
        score -= 1.0  # threw or declined this very card
    return score


def holding_weight(knowledge: Knowledge, seat: int, card: int) -> float:
    """The relative likelihood that ``seat`` holds the unseen ``card``, from what it took
    (cards beside a taken card are likelier) and what it threw or passed (less likely)."""
    near = neighbours(card)
    weight = 1.0
    weight *= 2.0 ** (near & knowledge.held[seat]).bit_count()
    weight *= 0.6 ** (near & (knowledge.discarded[seat] | knowledge.passed[seat])).bit_count()
    return weight
