"""The whole analysis of one view: the suggestion, every discard, near-melds, warnings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from okgin.advice.alerts import Alert, warnings
from okgin.advice.discards import DiscardRow, discard_rows
from okgin.advice.outs import NearMeld, near_melds
from okgin.advice.suggest import Suggestion, suggest
from okgin.advice.worlds import Worlds
from okgin.cards import Card
from okgin.melds import arrangement_of_mask
from okgin.view import SeatView


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the coach says about one view. Pure: the same view gives the same analysis."""

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    suggestion: Suggestion | None
    discards: tuple[DiscardRow, ...]
    near_melds: tuple[NearMeld, ...]
    warnings: tuple[Alert, ...]


def analyse(view: SeatView, names: Sequence[str] = (), worlds: Worlds | None = None) -> Analysis:
    """The coach's analysis of ``view`` (``names`` name the seats in its sentences).

    Reads only the view: the hidden cards are guessed, never looked at.
    """
    worlds = worlds or Worlds(view)
    shown = arrangement_of_mask(view.hand_mask)
    suggestion = suggest(view, worlds, names)
    rows = discard_rows(view, worlds, suggestion.values if suggestion else ())
    return Analysis(
        deadwood=shown.deadwood,
        melds=shown.melds,
        suggestion=suggestion,
        discards=rows,
        near_melds=near_melds(view.hand_mask, worlds),
        warnings=warnings(view, worlds, rows, suggestion, names),
    )
