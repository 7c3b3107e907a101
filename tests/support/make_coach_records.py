"""Makes the records tests/advice/test_review.py and tests/advice/test_advice.py read (run it to remake them).

Both seats play `normal` on seeded deals; at one chosen decision seat 0's move is
replaced by a blunder (or play stops at a position the tests look at), and the record is saved.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from okgin.actions import Discard, Knock, Pass, PlayerAction, Take
from okgin.advice import Worlds
from okgin.bots import make_player
from okgin.bots.knowledge import completers, knowledge_of
from okgin.bots.memo import discard_without
from okgin.hand import Phase, play_chance
from okgin.match import Match
from okgin.melds import arrangement_of_mask, deadwood_of_mask
from okgin.record import dumps, match_to_record
from okgin.rules import Rules
from okgin.view import SeatView

RECORDS = Path(__file__).parents[1] / "records"
Blunder = Callable[[SeatView], PlayerAction | None]


def pass_gin(view: SeatView) -> PlayerAction | None:
    """With gin in hand, discard the gin card plainly instead."""
    knocks = [a for a in view.legal if isinstance(a, Knock)]
    gin = [a for a in knocks if not deadwood_of_mask(view.hand_mask ^ a.card.mask)]
    return Discard(view.seat, gin[0].card) if gin else None


def feed(view: SeatView) -> PlayerAction | None:
    """Throw an unmatched card that melds with two cards the opponent took from the pile."""
    if view.legal and any(isinstance(a, Knock) for a in view.legal):
        return None
    held = knowledge_of(view).held[1 - view.seat]
    loose = arrangement_of_mask(view.hand_mask).unmatched
    for card in loose:
        if completers(held) & card.mask and Discard(view.seat, card) in view.legal:
            return Discard(view.seat, card)
    return None


def pass_offer(view: SeatView) -> PlayerAction | None:
    """Pass an upcard that would bring the hand down to 15 deadwood or less."""
    if view.phase != Phase.OFFER:
        return None
    up = view.upcard
    if discard_without(view.hand_mask | up.mask, up.index)[0] > 15:
        return None
    return Pass(view.seat)


def take_nothing(view: SeatView) -> PlayerAction | None:
    """Late in the hand, with little deadwood, take a discard that joins no meld and raises
    the deadwood kept by 4 or more (rather than draw)."""
    if view.phase != Phase.DRAW or Take(view.seat) not in view.legal or view.stock_count > 15:
        return None
    top = view.discards[-1]
    now = deadwood_of_mask(view.hand_mask)
    if completers(view.hand_mask) >> top.index & 1 or now > 9:
        return None
    if discard_without(view.hand_mask | top.mask, top.index)[0] < now + 4:
        return None
    return Take(view.seat)


def risky_knock(view: SeatView) -> bool:
    """A position where a knock is legal and likely undercut (the play stops there)."""
    knocks = [a for a in view.legal if isinstance(a, Knock)]
    return bool(knocks) and Worlds(view).undercut_share(knocks[0]) >= 0.3


def play(seed: int, blunder: Blunder | None, stop: Callable[[SeatView], bool] | None) -> Match | None:
    """One hand; None unless the blunder was made (or the stopping position reached)."""
    rng = random.Random(seed)
    match = Match(Rules(), first_dealer=1)
    hand = match.deal_next(rng)
    players = [make_player("normal", random.Random(seed)), make_player("normal", random.Random(seed + 1))]
    done = False
    while not hand.over:
        view = match.view(hand.to_act or 0)
        action = players[view.seat].act(view)
        if view.seat == 0 and not done:
            if stop is not None and view.phase == Phase.DISCARD and stop(view):
                return match
            swapped = blunder(view) if blunder is not None else None
            if swapped is not None:
                action, done = swapped, True
        match.apply(action)
        play_chance(hand, rng)
    return match if done else None


def save(name: str, blunder: Blunder | None, stop: Callable[[SeatView], bool] | None = None) -> None:
    for seed in range(2000):
        match = play(seed, blunder, stop)
        if match is not None:
            text = dumps(match_to_record(match, ["You", "Ruby"])) + "\n"
            (RECORDS / name).write_text(text, encoding="utf-8")
            print(f"{name}: seed {seed}")
            return
    sys.exit(f"no deal found for {name}")


if __name__ == "__main__":
    save("coach_pass_gin.json", pass_gin)
    save("coach_feed.json", feed)
    save("coach_undercut.json", None, risky_knock)
    save("coach_pass_offer.json", pass_offer)
    save("coach_take_nothing.json", take_nothing)
