"""Every legal discard of an eleven-card hand: what it leaves, and who may want it."""

from __future__ import annotations

from dataclasses import dataclass

from okgin.actions import Discard, Knock
from okgin.advice.worlds import Worlds
from okgin.cards import Card
from okgin.melds import arrangement_of_mask
from okgin.view import SeatView


@dataclass(frozen=True, slots=True)
class DiscardRow:
    """Discarding ``card``: the deadwood and melds left, whether it may end the hand, and
    ``wanted``: per other seat (in turn order), the share of likely deals where it melds."""

    card: Card
    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    can_knock: bool
    gin: bool
    wanted: tuple[tuple[int, float], ...]
    breaks_meld: bool
    """Whether the discard leaves fewer melds than the hand holds now."""


def discard_rows(view: SeatView, worlds: Worlds) -> tuple[DiscardRow, ...]:
    """One row per legal discard, least deadwood first (empty unless it is time to discard)."""
    discards = [a.card for a in view.legal if isinstance(a, Discard)]
    if not discards:
        return ()
    knocks = {a.card for a in view.legal if isinstance(a, Knock)}
    held = len(arrangement_of_mask(view.hand_mask).melds)
    rows = []
    for card in discards:
        left = arrangement_of_mask(view.hand_mask ^ card.mask)
        wanted = tuple(
            (seat, worlds.want_share(seat, card.index)) for seat in worlds.knowledge.others()
        )
        rows.append(DiscardRow(
            card=card, deadwood=left.deadwood, melds=left.melds, can_knock=card in knocks,
            gin=card in knocks and left.deadwood == 0, wanted=wanted,
            breaks_meld=len(left.melds) < held,
        ))
    return tuple(sorted(rows, key=lambda row: (row.deadwood, -row.card.points, row.card)))
