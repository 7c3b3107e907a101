"""Warnings a player should hear before acting: feeding, breaking a meld, passing a knock or
gin, an undercut risk, the stock running low, a doubled hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from okgin.actions import Discard, Knock
from okgin.advice.discards import DiscardRow
from okgin.advice.suggest import Suggestion
from okgin.advice.words import cards_text, percent, seat_name, sentence, short
from okgin.advice.worlds import Worlds
from okgin.bots.knowledge import neighbours
from okgin.cards import DECK, Card
from okgin.hand import Phase
from okgin.view import SeatView

UNDERCUT_RISK = 0.25
"""A knock undercut in at least this share of likely deals is warned about."""
LOW_STOCK = 6
"""Warn when the stock holds this many cards or fewer."""
DISCARD_KINDS = ("feed", "break-meld", "pass-gin", "pass-knock")
"""The kinds that concern a discard, so the page can warn before one is made."""


@dataclass(frozen=True, slots=True)
class Alert:
    """One warning: its ``kind``, its sentence, and the discard it concerns (None: any)."""

    kind: str
    text: str
    card: Card | None = None


def warnings(
    view: SeatView, worlds: Worlds, rows: tuple[DiscardRow, ...], suggestion: Suggestion | None,
    names: Sequence[str] = (),
) -> tuple[Alert, ...]:
    """Every warning for ``view``: discards first, then the state of the hand."""
    found = [*_feeds(view, worlds, rows, names), *_breaks(rows), *_passing(view, worlds, rows, suggestion)]
    if suggestion is not None and isinstance(suggestion.action, Discard):
        # The suggested discard is never warned against: its reason already says what it risks.
        card = suggestion.action.card
        found = [a for a in found if a.card != card and not (a.card is None and a.kind in DISCARD_KINDS)]
    if view.stock_count <= LOW_STOCK and view.phase != Phase.OVER:
        found.append(Alert("stock", f"Only {view.stock_count} cards are left in the stock: "
                             "the hand ends with no score when two are left."))
    if view.multiplier > 1 and view.phase != Phase.OVER:
        found.append(Alert("double", f"The upcard was the {short(view.upcard)}: spades double, "
                             "so everything this hand scores counts twice."))
    return tuple(found)


def _feeds(
    view: SeatView, worlds: Worlds, rows: tuple[DiscardRow, ...], names: Sequence[str]
) -> list[Alert]:
    """Discards next to (or of the rank of) a card another seat took and still holds."""
    found = []
    for seat in worlds.knowledge.others():
        held = worlds.knowledge.held[seat]
        for row in rows:
            near = neighbours(row.card.index) & held
            if not near:
                continue
            took = [DECK[i] for i in range(52) if near >> i & 1]
            who = seat_name(names, seat)
            found.append(Alert("feed", f"Careful: {sentence(who)} took the {cards_text(took)}; the "
                                 f"{short(row.card)} may help {'you' if who == 'you' else 'them'}.",
                                 row.card))
    return found


def _breaks(rows: tuple[DiscardRow, ...]) -> list[Alert]:
    return [
        Alert("break-meld", f"Discarding the {short(row.card)} breaks one of your melds.", row.card)
        for row in rows if row.breaks_meld
    ]


def _passing(
    view: SeatView, worlds: Worlds, rows: tuple[DiscardRow, ...], suggestion: Suggestion | None
) -> list[Alert]:
    """Passing up gin or a knock worth making, and a knock likely to be undercut."""
    gin = next((row for row in rows if row.gin), None)
    if gin is not None:
        return [Alert("pass-gin", f"You can go gin by discarding the {short(gin.card)}: "
                        "a plain discard passes it up.")]
    knocks = [a for a in view.legal if isinstance(a, Knock)]
    if not knocks:
        return []
    found = []
    best = min(knocks, key=lambda a: (next(r.deadwood for r in rows if r.card == a.card), a.card))
    if suggestion is not None and isinstance(suggestion.action, Knock):
        found.append(Alert("pass-knock", f"Knocking is the better play here: a plain discard "
                             f"passes up a knock with the {short(best.card)}."))
    risk = worlds.undercut_share(best)
    if risk >= UNDERCUT_RISK:
        found.append(Alert("undercut", f"A knock now risks an undercut: about {percent(risk)} "
                             "of likely deals leave an opponent with as little deadwood."))
    return found
