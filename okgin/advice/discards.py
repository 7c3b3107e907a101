"""Every legal discard of an eleven-card hand: what it leaves, who may want it, what it is worth."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from okgin.actions import Discard, Knock, PlayerAction
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
    worth: float | None = None
    """The worth in points of the best weighed move with this card (knocking with it or
    discarding it), None when neither was weighed."""


def discard_rows(
    view: SeatView, worlds: Worlds, values: Sequence[tuple[PlayerAction, float]] = ()
) -> tuple[DiscardRow, ...]:
    """One row per legal discard (empty unless it is time to discard), in the order of
    ``values`` (the weighed moves, best first: the suggested card heads the table), then the
    rest least deadwood first."""
    discards = [a.card for a in view.legal if isinstance(a, Discard)]
    if not discards:
        return ()
    knocks = {a.card for a in view.legal if isinstance(a, Knock)}
    held = len(arrangement_of_mask(view.hand_mask).melds)
    order: dict[Card, tuple[int, float]] = {}
    for place, (move, value) in enumerate(values):
        if isinstance(move, (Discard, Knock)) and move.card not in order:
            order[move.card] = (place, value)
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
            worth=order[card][1] if card in order else None,
        ))
    unweighed = len(values)
    return tuple(sorted(rows, key=lambda row: (
        order.get(row.card, (unweighed, 0.0))[0], row.deadwood, -row.card.points, row.card,
    )))
