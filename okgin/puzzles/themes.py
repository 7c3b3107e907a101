"""A puzzle's themes, each a clear rule on its view, its answer and its guessed deals.

The rules (docs/puzzles.md lists them with the same words):

- ``the offer``: the first upcard is offered (take it or pass).
- ``take or draw``: a draw with a discard to take (take the top card or draw from the stock).
- ``the last chance``: the stock is down to two and the final discard may be taken to knock.
- ``knock or play on``: a knock short of gin is legal (knock now, or discard and play on).
- ``gin or knock``: a knock short of gin is legal and some discard leaves a hand one card from
  gin with that card unseen (knock now, or play on for gin).
- ``the undercut risk``: a knock short of gin is legal and the best-priced one is undercut in
  at least a quarter of the guessed deals.
- ``feeding the next seat``: some discard other than the answer's card leaves no more deadwood
  than the answer yet the next seat melds that card at once in at least half the guessed deals.
- ``the discard``: a discard with none of the themes above.
"""

from __future__ import annotations

from okgin.actions import Discard, Knock, PlayerAction, Take
from okgin.advice.worlds import Worlds
from okgin.bots.memo import best_discard, deadwood
from okgin.cards import DECK
from okgin.hand import Phase
from okgin.view import SeatView

THEMES = ("the offer", "take or draw", "the last chance", "knock or play on", "gin or knock",
          "the undercut risk", "feeding the next seat", "the discard")
UNDERCUT_SHARE = 0.25
"""The share of guessed deals undercutting the best knock that makes ``the undercut risk``."""
FEED_SHARE = 0.5
"""The share of guessed deals in which the next seat melds a card that makes it a feeding card."""


def themes_of(view: SeatView, answer: PlayerAction, worlds: Worlds) -> tuple[str, ...]:
    """The themes of the puzzle ``view`` whose answer is ``answer`` (``worlds``: its guesses,
    for the shares), in ``THEMES`` order; a position off its seat's turn has none."""
    if not view.my_turn:
        return ()
    if view.phase == Phase.OFFER:
        return ("the offer",)
    if view.phase == Phase.LAST_CHANCE:
        return ("the last chance",)
    if view.phase == Phase.DRAW:
        return ("take or draw",) if any(isinstance(move, Take) for move in view.legal) else ()
    found: list[str] = []
    knocks = [move for move in view.legal if isinstance(move, Knock)
              and deadwood(view.hand_mask & ~move.card.mask) > 0]
    if knocks:
        found.append("knock or play on")
        if one_from_gin(view):
            found.append("gin or knock")
        best = max(knocks, key=worlds.value)
        if worlds.undercut_share(best) >= UNDERCUT_SHARE:
            found.append("the undercut risk")
    if feeds_next(view, answer, worlds):
        found.append("feeding the next seat")
    return tuple(found) or ("the discard",)


def one_from_gin(view: SeatView) -> bool:
    """Whether some legal discard leaves ten cards that one unseen card would make gin."""
    seen = view.hand_mask | sum(card.mask for card in view.discards)
    unseen = [card.mask for card in DECK if not card.mask & seen]
    for move in view.legal:
        if isinstance(move, Discard):
            kept = view.hand_mask & ~move.card.mask
            if any(best_discard(kept | card)[0] == 0 for card in unseen):
                return True
    return False


def feeds_next(view: SeatView, answer: PlayerAction, worlds: Worlds) -> bool:
    """Whether a discard other than ``answer``'s card, leaving no more deadwood than it, would
    let the next seat meld it at once in at least ``FEED_SHARE`` of the guessed deals."""
    if not isinstance(answer, (Discard, Knock)):
        return False
    following = (view.seat + 1) % view.rules.players
    left = deadwood(view.hand_mask & ~answer.card.mask)
    return any(
        isinstance(move, Discard) and move.card != answer.card
        and deadwood(view.hand_mask & ~move.card.mask) <= left
        and worlds.want_share(following, move.card.index) >= FEED_SHARE
        for move in view.legal
    )
