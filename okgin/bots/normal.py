"""The `normal` player: tracks every card seen, keeps what it may need, feeds no one, and
knocks by the limit, the stock left, the spade double and the match score.

Draw: take the top discard when the best hand it makes beats the hand kept plus what a
stock draw is expected to bring; at the last chance, exactly when the take allows a knock.
Discard: the card whose loss leaves the best-valued hand (see ``Judge``), charged for what
it could give the other seats. Knock: gin at once; an ordinary knock early in the hand,
later only with little deadwood (the other seats have had time to improve), always when the
stock is nearly out or the knock should win the match.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take
from okgin.bots.judge import Judge
from okgin.bots.knowledge import Knowledge, knowledge_of
from okgin.bots.memo import deadwood, discard_without
from okgin.cards import DECK, indices_of_mask
from okgin.hand import Phase
from okgin.view import SeatView

TAKE_MARGIN = 0.5
"""A take shows the others a card of ours, so it must gain at least this much."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A discard (or knock) and what it leaves: the hand's value plus the feed cost."""

    card: int
    cost: float
    deadwood: int


class NormalPlayer:
    name = "normal"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def act(self, view: SeatView) -> PlayerAction:
        """The action ``normal`` plays in ``view`` (one of ``view.legal``)."""
        knowledge = knowledge_of(view)
        judge = Judge(knowledge, view.stock_count)
        seat = view.seat
        if view.phase == Phase.LAST_CHANCE:
            takes = Take(seat) in view.legal and takes_last_chance(view, knowledge.top)
            return Take(seat) if takes else Pass(seat)
        if view.phase in (Phase.OFFER, Phase.DRAW):
            if Take(seat) in view.legal and should_take(view, judge, knowledge.top):
                return Take(seat)
            return Draw(seat) if Draw(seat) in view.legal else Pass(seat)
        if BigGin(seat) in view.legal:
            return BigGin(seat)
        choices = rank_discards(view, judge)
        knock = best_knock(view)
        if knock is not None and should_knock(view, knowledge, knock):
            return knock
        return Discard(seat, DECK[choices[0].card])


def rank_discards(view: SeatView, judge: Judge, keep: int = 3) -> list[Choice]:
    """The legal discards, best first, judged in full only for the ``keep``+ most promising."""
    hand = view.hand_mask
    taken = view.taken.index if view.taken is not None else -1
    options = [a.card.index for a in view.legal if isinstance(a, Discard)]
    plain = sorted((deadwood(hand & ~(1 << c)), c) for c in options)
    least = plain[0][0]
    shortlist = [(d, c) for d, c in plain if d <= least + 8][: max(keep, 6)]
    choices = [
        Choice(c, judge.value(hand & ~(1 << c)) + judge.feed_cost(c), d)
        for d, c in shortlist
        if c != taken
    ]
    choices.sort(key=lambda ch: (ch.cost, ch.deadwood, -ch.card))
    return choices


def should_take(view: SeatView, judge: Judge, top: int) -> bool:
    """Whether taking the top discard ``top`` beats drawing from the stock."""
    hand = view.hand_mask
    with_top = hand | 1 << top
    plain = sorted((deadwood(with_top & ~(1 << c)), c) for c in indices_of_mask(hand))
    best = min(judge.value(with_top & ~(1 << c)) for _, c in plain[:3])
    stay = judge.value(hand) - judge.draw_gain(hand)
    return best < stay - TAKE_MARGIN


def takes_last_chance(view: SeatView, top: int) -> bool:
    """At the last chance (two stock cards left, ``last_chance_knock``): take the final
    discard ``top`` exactly when, keeping it, a discard leaves a knock (a pass, or a take
    without a knock, voids the hand; whether to knock is the discard's decision)."""
    left, _ = discard_without(view.hand_mask | 1 << top, top)
    return left <= view.knock_limit


def best_knock(view: SeatView) -> Knock | None:
    """The legal knock leaving the least deadwood (gin when it can), or None."""
    knocks = [a for a in view.legal if isinstance(a, Knock)]
    if not knocks:
        return None
    return min(knocks, key=lambda a: (deadwood(view.hand_mask & ~a.card.mask), -a.card.index))


def knock_threshold(view: SeatView, knowledge: Knowledge) -> int:
    """The most deadwood `normal` will knock with now (at most the hand's limit).

    Early on the other seats are far from their best and an ordinary knock pays; every
    turn they draw makes an undercut likelier, and a spade upcard doubles what it costs.
    """
    turns = max(knowledge.draws[s] for s in knowledge.others())
    return patient_limit(view.knock_limit, turns, view.multiplier, view.rules.players)


def patient_limit(limit: int, turns: int, multiplier: int, players: int) -> int:
    """`normal`'s knock threshold for a hand with knock ``limit`` when the other seats have
    drawn up to ``turns`` times (the play-outs use it for seats that knock as `normal` does)."""
    threshold = limit - max(0, turns - 3)
    if multiplier > 1:
        threshold -= 1
    if players > 2:
        threshold -= 1  # more defenders, more chances of an undercut
    return max(min(limit, 2), threshold)


def should_knock(view: SeatView, knowledge: Knowledge, knock: Knock) -> bool:
    """Whether to end the hand with ``knock`` now rather than play on."""
    left = deadwood(view.hand_mask & ~knock.card.mask)
    if left == 0:
        return True
    if view.stock_count <= view.rules.players + 2:
        return True  # the hand is about to be void: take what the knock gives
    if _knock_wins_match(view, left):
        return True
    return left <= knock_threshold(view, knowledge)


def _knock_wins_match(view: SeatView, left: int) -> bool:
    """Whether a knock that only scores a little should already reach the target."""
    if view.rules.scoring != "difference":
        return False
    return view.scores[view.seat] + max(1, 10 - left) * view.multiplier >= view.target
