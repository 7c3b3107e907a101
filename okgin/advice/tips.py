"""The coach: an analysis of one seat's view, in words, worked out by the engine.

It reads only a ``SeatView`` (never a hand's full state), so it can tell a player nothing
they could not see themselves: near-melds, what each discard leaves, tips and warnings.

>>> import random
>>> from okgin.hand import Deal, Hand
>>> from okgin.rules import Rules
>>> from okgin.view import seat_view
>>> view = seat_view(Hand(Rules(), 1, Deal.shuffle(Rules(), random.Random(7))), 0)
>>> advice(view).deadwood >= 0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from okgin.actions import Discard, Knock
from okgin.advice import analyse
from okgin.advice.words import seat_name, sentence
from okgin.cards import Card, Rank
from okgin.hand import Phase
from okgin.melds import arrangement_of_mask, deadwood_of_mask
from okgin.view import SeatView

__all__ = ["Advice", "Leave", "advice", "hint"]


@dataclass(frozen=True, slots=True)
class Leave:
    """What discarding ``card`` leaves: the deadwood of the other cards, and whether it knocks."""

    card: Card
    deadwood: int
    can_knock: bool


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's reading of a view: the numbers, and sentences a player can act on."""

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    near_melds: tuple[tuple[Card, ...], ...]
    leaves: tuple[Leave, ...]
    """For each legal discard, least deadwood first (empty unless it is time to discard)."""
    tips: tuple[str, ...]
    warnings: tuple[str, ...]


def advice(view: SeatView, names: Sequence[str] = ()) -> Advice:
    """The coach's advice for ``view`` (``names`` name the seats). Pure: same view, same advice."""
    shown = arrangement_of_mask(view.hand_mask)
    leaves = _leaves(view) if view.my_turn and view.phase == Phase.DISCARD else ()
    return Advice(
        deadwood=shown.deadwood,
        melds=shown.melds,
        near_melds=tuple(_near_melds(shown.unmatched)),
        leaves=leaves,
        tips=tuple(_tips(view, leaves)),
        warnings=tuple(_warnings(view, leaves, names)),
    )


def hint(view: SeatView, names: Sequence[str] = ()) -> str:
    """One sentence: the move the coach would make now, and why (see ``okgin.advice``)."""
    suggestion = analyse(view, names).suggestion
    return suggestion.text if suggestion is not None else "Wait for your turn."


def _leaves(view: SeatView) -> tuple[Leave, ...]:
    knocks = {a.card for a in view.legal if isinstance(a, Knock)}
    discards = [a.card for a in view.legal if isinstance(a, Discard)]
    leaves = [
        Leave(card, deadwood_of_mask(view.hand_mask ^ card.mask), card in knocks) for card in discards
    ]
    return tuple(sorted(leaves, key=lambda leave: (leave.deadwood, -leave.card.points, leave.card)))


def _near_melds(unmatched: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """Pairs of unmatched cards one card from a meld: same rank, or close in one suit."""
    pairs: list[tuple[Card, ...]] = []
    for i, first in enumerate(unmatched):
        for second in unmatched[i + 1:]:
            same_rank = first.rank == second.rank
            close = first.suit == second.suit and abs(first.rank - second.rank) <= 2
            if same_rank or close:
                pairs.append((first, second))
    return pairs


def _needs(pair: tuple[Card, ...]) -> str:
    first, second = pair
    if first.rank == second.rank:
        return f"another {first.rank.word}"
    low, high = sorted((first.rank, second.rank))
    if high - low == 2:
        return f"the {Rank(low + 1).word} of {first.suit.word}"
    ends = [Rank(r).word for r in (low - 1, high + 1) if 1 <= r <= 13]
    return " or ".join(f"the {word}" for word in ends) + f" of {first.suit.word}"


def _tips(view: SeatView, leaves: tuple[Leave, ...]) -> list[str]:
    tips = [f"{_words(pair)} want {_needs(pair)}." for pair in _near_melds(
        arrangement_of_mask(view.hand_mask).unmatched
    )][:4]
    if leaves and leaves[0].can_knock:
        word = "go gin" if leaves[0].deadwood == 0 else f"knock with {leaves[0].deadwood}"
        tips.insert(0, f"You can {word} by discarding the {leaves[0].card.name}.")
    if view.knock_limit == 0:
        tips.append("The first upcard was an ace: only gin ends this hand.")
    return tips


def _warnings(view: SeatView, leaves: tuple[Leave, ...], names: Sequence[str]) -> list[str]:
    """Discards that may help an opponent: cards near those they took from the pile."""
    warnings = []
    for seat, taken in enumerate(view.picked):
        if seat == view.seat:
            continue
        for leave in leaves:
            if any(_related(leave.card, card) for card in taken):
                near = next(card for card in taken if _related(leave.card, card))
                who = seat_name(names, seat)
                them = "you" if who == "you" else "them"
                warnings.append(
                    f"Careful: {sentence(who)} took the {near.name}; the {leave.card.name} may help {them}."
                )
    if view.stock_count <= 4 and view.phase != Phase.OVER:
        warnings.append(f"Only {view.stock_count} cards left in the stock.")
    return warnings


def _related(card: Card, other: Card) -> bool:
    return card.rank == other.rank or (card.suit == other.suit and abs(card.rank - other.rank) <= 2)


def _words(cards: tuple[Card, ...]) -> str:
    return " and ".join(f"the {card.name}" for card in cards).capitalize()
