"""What the daily deal's page shows of an attempt: the player's own view of their deal (their
cards, the pile, the stock's count, the knock limit, ``hard``'s moves in words, the moves they
may make) and, once a hand is over, its result as the rules show it. Built from the seat's view
(``Match.view``) only, so no hidden card and no stock card reaches the page (no I/O)."""

from __future__ import annotations

from typing import Any

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.advice.words import short
from okgin.cards import Card
from okgin.daily import COMPUTER, DEALS, NAMES, PERSON
from okgin.match import Match
from okgin.melds import arrange
from okgin.server.store.daily_store import Attempt
from okgin.steps import hand_steps

SUITS = "SHDC"
"""The order the hand is shown in: spades, hearts, diamonds, clubs, each by rank."""


def _place(card: Card) -> tuple[int, int]:
    """Where a card is shown: by suit (spades, hearts, diamonds, clubs), then rank."""
    return SUITS.index(str(card)[1]), int(card.rank)


def _card(card: Card) -> dict[str, Any]:
    return {"code": str(card), "short": short(card), "red": card.suit.symbol in "♥♦"}


def _label(action: PlayerAction, top: Card | None) -> str:
    """A move's button, in words."""
    if isinstance(action, Pass):
        return "Pass"
    if isinstance(action, Take):
        return f"Take the {short(top)}" if top is not None else "Take"
    if isinstance(action, Draw):
        return "Draw from the stock"
    if isinstance(action, BigGin):
        return "Big Gin"
    assert isinstance(action, Knock | Discard)
    return short(action.card)


def table(attempt: Attempt, match: Match) -> dict[str, Any]:
    """The page's data for the attempt's latest deal."""
    view = match.view(PERSON)
    hand = match.hands[-1]
    deal = len(attempt.moves)
    steps = hand_steps(hand, deal, NAMES)["steps"]
    mine = [i for i, action in enumerate(hand.actions) if getattr(action, "seat", None) == PERSON]
    since = mine[-1] + 1 if mine else 0
    top = view.discards[-1] if view.discards else None
    arranged = arrange(view.hand)
    legal = list(view.legal)
    plain = [a for a in legal if isinstance(a, Pass | Take | Draw | BigGin)]
    discards = sorted((a for a in legal if isinstance(a, Discard)), key=lambda a: _place(a.card))
    knocks = sorted((a for a in legal if isinstance(a, Knock) and a.melds is None),
                    key=lambda a: _place(a.card))
    shown: dict[str, Any] | None = None
    if hand.result is not None:
        result = hand.result
        shown = {
            "words": steps[-1]["words"],
            "outcome": str(result.outcome),
            "hands": [{"name": NAMES[seat], "melds": [[_card(c) for c in meld] for meld in arr.melds],
                       "deadwood": [_card(c) for c in arr.unmatched], "left": result.deadwood[seat]}
                      for seat, arr in enumerate(result.shown)],
            "points": attempt.points[deal - 1] if len(attempt.points) >= deal else None,
        }
    return {
        "deal": deal, "deals": DEALS, "version": attempt.version,
        "dealer": "hard" if hand.dealer == COMPUTER else "You",
        "upcard": _card(hand.deal.upcard), "limit": hand.knock_limit, "doubled": hand.multiplier > 1,
        "stock": view.stock_count, "top": _card(top) if top is not None else None,
        "pile": len(view.discards), "their_cards": view.hand_sizes[COMPUTER],
        "hand": [_card(c) for c in sorted(view.hand, key=_place)], "deadwood": arranged.deadwood,
        "melds": [" ".join(short(c) for c in meld) for meld in arranged.melds],
        "heard": [step["words"] for step in steps[since + 1:]],
        "turn": view.my_turn,
        "plain": [(str(a), _label(a, top)) for a in plain],
        "discards": [(str(a), _card(a.card)) for a in discards],
        "knocks": [(str(a), _card(a.card)) for a in knocks],
        "points": list(attempt.points), "so_far": sum(attempt.points),
        "result": shown,
        "last": deal == DEALS,
    }
