"""A finished game move by move, every hand face up: what the replay viewer steps through.

Only for finished hands (a record's deal holds every hidden card): the server sends these for
finished games and for records a player uploads, never for a game in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from okgin.actions import Action, BigGin, Discard, Draw, Knock, Pass, Reshuffle, Take
from okgin.cards import Card
from okgin.hand import Hand
from okgin.match import Match
from okgin.rules import PRESETS


def _short(card: Card) -> str:
    return ("10" if card.rank == 10 else card.rank.letter) + card.suit.symbol


def move_words(action: Action, names: Sequence[str], top: Card | None) -> str:
    """One move in words: "Ruby takes the 7♥", "You discard the K♠"."""
    if isinstance(action, Reshuffle):
        return "The discard pile is shuffled into a new stock."
    who = names[action.seat] if action.seat < len(names) else f"Seat {action.seat}"
    you = who == "You"

    def verb(word: str) -> str:
        return word if you else word + ("es" if word.endswith("s") else "s")

    if isinstance(action, Pass):
        return f"{who} {verb('pass')}."
    if isinstance(action, Take):
        return f"{who} {verb('take')} the {_short(top)}." if top else f"{who} {verb('take')}."
    if isinstance(action, Draw):
        return f"{who} {verb('draw')} from the stock."
    if isinstance(action, Discard):
        return f"{who} {verb('discard')} the {_short(action.card)}."
    if isinstance(action, Knock):
        return f"{who} {verb('knock')}, discarding the {_short(action.card)}."
    assert isinstance(action, BigGin)
    return f"{who} {'go' if you else 'goes'} Big Gin."


def _snapshot(hand: Hand, move: int, words: str) -> dict[str, Any]:
    return {
        "move": move, "words": words, "to_act": hand.to_act, "stock_count": hand.stock_count,
        "hands": [[str(c) for c in hand.cards_of(seat)] for seat in range(hand.players)],
        "discards": [str(c) for c in hand.discards],
    }


def hand_steps(
    hand: Hand, number: int, names: Sequence[str], scores: Sequence[int] = ()
) -> dict[str, Any]:
    """Hand ``number`` from the deal to its end, one snapshot per move; ``moves`` are its moves
    as every player saw them (a step's position on the analysis board is its first ``move``),
    ``scores`` the match's before it."""
    again = Hand(hand.rules, hand.dealer, hand.deal)
    dealer = names[hand.dealer] if hand.dealer < len(names) else f"Seat {hand.dealer}"
    deals = "deal" if dealer == "You" else "deals"
    steps = [_snapshot(again, 0, f"Hand {number}: {dealer} {deals}; the upcard is the "
                                 f"{_short(hand.deal.upcard)}.")]
    for move, action in enumerate(hand.actions, start=1):
        top = again.discards[-1] if again.discards else None
        words = move_words(action, names, top)
        again.apply(action)
        if again.result is not None:
            words += " " + _result_words(again, names)
        steps.append(_snapshot(again, move, words))
    return {
        "number": number, "dealer": hand.dealer, "upcard": str(hand.deal.upcard),
        "knock_limit": hand.knock_limit, "multiplier": hand.multiplier, "steps": steps,
        "moves": [str(action) for action in hand.public_actions],
        "scores": list(scores) or [0] * hand.players,
    }


def _result_words(hand: Hand, names: Sequence[str]) -> str:
    result = hand.result
    assert result is not None
    if result.winner is None:
        return "The hand is void: no score."
    winner = names[result.winner] if result.winner < len(names) else f"Seat {result.winner}"
    return f"{str(result.outcome).capitalize()}: {winner} scores {result.points[result.winner]}."


def game_steps(match: Match, names: Sequence[str]) -> dict[str, Any]:
    """Every finished hand of ``match``, for the replay viewer; ``board``: whether its rules are
    a preset's (``rules``, with ``players`` seats and its ``target``), which the analysis board
    can be given."""
    rules = match.rules
    hands, totals = [], [0] * rules.players
    for number, hand in enumerate(match.hands, start=1):
        if hand.over:
            hands.append(hand_steps(hand, number, names, totals))
        if hand.result is not None:
            totals = [total + points for total, points in zip(totals, hand.result.points, strict=True)]
    board = rules.preset in PRESETS and PRESETS[rules.preset].replace(
        players=rules.players, target=rules.target) == rules
    return {"names": list(names), "hands": hands, "rules": rules.preset, "players": rules.players,
            "target": rules.target, "board": board}
