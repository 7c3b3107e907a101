"""A match: hands until someone reaches the target, dealer rotation, totals, final bonuses."""

from __future__ import annotations

import random
from dataclasses import dataclass

from okgin.actions import Action, PlayerAction
from okgin.errors import IllegalActionError
from okgin.hand import Deal, Hand, HandResult
from okgin.rules import Rules
from okgin.scoring import Outcome
from okgin.view import SeatView, seat_view


@dataclass(frozen=True, slots=True)
class FinalTally:
    """The end of a match: the winner and each seat's score with its bonuses."""

    winner: int
    points: tuple[int, ...]
    """Each seat's total from the hands alone."""
    hands_won: tuple[int, ...]
    boxes: tuple[int, ...]
    bonuses: tuple[int, ...]
    """Per seat: hand bonuses, game bonus, shutout and boxes, all added after the win."""
    shutout: bool

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p + b for p, b in zip(self.points, self.bonuses, strict=True))


class Match:
    """A game to the target. Deals come from outside (a record or ``deal_next``'s rng).

    >>> match = Match(Rules(), first_dealer=0)
    >>> hand = match.deal_next(random.Random(1))
    >>> hand.dealer, match.totals
    (0, (0, 0))
    """

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise IllegalActionError(f"dealer {first_dealer} is not a seat")
        self.rules = rules
        self.hands: list[Hand] = []
        self.next_dealer = first_dealer
        self.final: FinalTally | None = None
        self._totals = [0] * rules.players
        self._won = [0] * rules.players

    @property
    def totals(self) -> tuple[int, ...]:
        """Running score per seat from the finished hands (bonuses come in ``final``)."""
        return tuple(self._totals)

    @property
    def won(self) -> tuple[int, ...]:
        """Points won per seat: what counts toward the target (penalties do not)."""
        return tuple(self._won)

    @property
    def current(self) -> Hand | None:
        """The hand being played, or None between hands."""
        if self.hands and not self.hands[-1].over:
            return self.hands[-1]
        return None

    @property
    def over(self) -> bool:
        return self.final is not None

    def start_hand(self, deal: Deal, dealer: int | None = None) -> Hand:
        """Start the next hand with ``deal``. Raises IllegalActionError when one is going
        on, the match is over, or ``dealer`` is not the seat whose deal it is."""
        if self.over:
            raise IllegalActionError("the match is over")
        if self.current is not None:
            raise IllegalActionError("the hand in progress is not over")
        if dealer is not None and dealer != self.next_dealer:
            raise IllegalActionError(f"seat {self.next_dealer} deals this hand, not seat {dealer}")
        hand = Hand(self.rules, self.next_dealer, deal)
        self.hands.append(hand)
        return hand

    def deal_next(self, rng: random.Random) -> Hand:
        """Shuffle with ``rng`` and start the next hand."""
        return self.start_hand(Deal.shuffle(self.rules, rng))

    def apply(self, action: Action) -> None:
        """Play an action in the current hand, then score the hand if it ended."""
        hand = self._playing(action)
        hand.apply(action)
        self._score_if_over(hand)

    def apply_legal(self, action: PlayerAction) -> None:
        """``apply`` for an action just taken from the current hand's legal actions: it is
        not checked (``Hand.apply_legal``). Raises IllegalActionError when no hand is being
        played."""
        hand = self._playing(action)
        hand.apply_legal(action)
        self._score_if_over(hand)

    def _playing(self, action: Action) -> Hand:
        """The hand being played, which ``action`` is for."""
        hand = self.current
        if hand is None:
            raise IllegalActionError(f"{action}: no hand is being played")
        return hand

    def _score_if_over(self, hand: Hand) -> None:
        if hand.result is not None:
            self._score(hand, hand.result)

    def view(self, seat: int) -> SeatView:
        """Seat's view of the latest hand, with the match totals."""
        if not self.hands:
            raise IllegalActionError("no hand has been dealt")
        return seat_view(self.hands[-1], seat, self.totals, self.won)

    def _score(self, hand: Hand, result: HandResult) -> None:
        for seat, points in enumerate(result.points):
            self._totals[seat] += points
            self._won[seat] += max(points, 0)
        if result.outcome != Outcome.VOID:
            if self.rules.dealer == "winner" and result.winner is not None:
                self.next_dealer = result.winner
            else:
                self.next_dealer = hand.next_seat(hand.dealer)
        # Only a hand's winner gains points, so only they can have just reached the target.
        winner = result.winner
        if winner is not None and self._won[winner] >= self.rules.target:
            self.final = final_tally(self.rules, self.hands, winner)


def final_tally(rules: Rules, hands: list[Hand], winner: int) -> FinalTally:
    """The final bonuses of a match that ``winner`` has just won."""
    players = rules.players
    points = [0] * players
    won = [0] * players
    boxes = [0] * players
    for hand in hands:
        result = hand.result
        if result is None:
            continue
        for seat in range(players):
            points[seat] += result.points[seat]
            boxes[seat] += result.boxes[seat]
        if result.winner is not None:
            won[result.winner] += 1
    box_value = rules.boxes or 0
    bonuses = [rules.hand_bonus * n + box_value * b for n, b in zip(won, boxes, strict=True)]
    others = [seat for seat in range(players) if seat != winner]
    bonuses[winner] += rules.game_bonus
    shutout = False
    if rules.shutout == "double-bonus" and all(points[s] <= 0 for s in others):
        shutout = True
        bonuses[winner] += rules.game_bonus
    elif rules.shutout == "double-score" and all(won[s] == 0 for s in others):
        shutout = True
        bonuses[winner] += points[winner] + bonuses[winner]
    return FinalTally(winner, tuple(points), tuple(won), tuple(boxes), tuple(bonuses), shutout)
