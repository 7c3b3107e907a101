"""What the puzzle page shows: the seat's view of a puzzle (its hand as cards, the pile's top,
the first upcard, what each seat took and threw, the scores, the knock limit), its choices as
buttons, and after an answer the coach's reasons and figures for each choice.

The figures are those the puzzle was made on (every legal move priced on 1,024 guessed deals);
the sentences are the coach's own (``okgin.advice.reasons``), from the same view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, PlayerAction, Take, parse_action
from okgin.advice.reasons import contrast, reason
from okgin.advice.review import action_words
from okgin.advice.words import short
from okgin.advice.worlds import Worlds
from okgin.bots.memo import deadwood
from okgin.cards import Card
from okgin.hand import Phase
from okgin.puzzles.puzzle import Puzzle
from okgin.server.tournaments.words import preset_name
from okgin.view import SeatView

QUESTIONS = {
    Phase.OFFER: "The first upcard is offered to you: take it or pass?",
    Phase.DRAW: "Your turn to draw: take the top discard or draw from the stock?",
    Phase.DISCARD: "You hold eleven cards: which do you discard, and do you knock?",
    Phase.LAST_CHANCE: "The stock is down to two: take the last discard to knock, or pass?",
}
KEYS = {Take: "t", Draw: "d", Pass: "p"}
"""The keys of the draw's choices (puzzles.js; docs/puzzles.md lists every key)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal move as a button: its notation (the form's value), its words, its key."""

    move: str
    words: str
    key: str
    card: dict[str, Any] | None
    """The card it throws, as ``card_json`` (a discard's button is that card in the hand)."""


def seat_names(view: SeatView) -> list[str]:
    """Each seat's name as the page says it: "You", then the others in turn order from you."""
    others = view.rules.players - 1
    order = ["Your opponent"] if others == 1 else ["The next player", "The player after", "The third player"]
    names = [""] * view.rules.players
    for step in range(view.rules.players):
        names[(view.seat + step) % view.rules.players] = "You" if step == 0 else order[step - 1]
    return names


def card_json(card: Card) -> dict[str, Any]:
    return {"text": short(card), "code": str(card), "red": card.suit.symbol in "♥♦"}


def choices(view: SeatView) -> list[Choice]:
    """The view's legal moves as buttons: the draw's few, or a discard per card in the hand's
    order, then the knocks, then Big Gin."""
    found: list[Choice] = []
    legal = sorted(view.legal, key=lambda m: (isinstance(m, Knock), isinstance(m, BigGin)))
    for move in legal:
        card = move.card if isinstance(move, (Discard, Knock)) else None
        key = next((k for kind, k in KEYS.items() if isinstance(move, kind)), "")
        words = action_words(move)
        found.append(Choice(str(move), words[0].upper() + words[1:], key,
                            card_json(card) if card is not None else None))
    return found


def table(view: SeatView) -> dict[str, Any]:
    """The seat's view as the page shows it (no card another seat holds: none is in a view)."""
    names = seat_names(view)
    threw: list[list[Card]] = [[] for _ in names]
    for action in view.history:
        if isinstance(action, Discard):
            threw[action.seat].append(action.card)
    order = [(view.seat + step) % len(names) for step in range(len(names))]
    return {
        "question": QUESTIONS.get(view.phase, ""),
        "rules": preset_name(view.rules.preset or "oklahoma"), "players": view.rules.players,
        "hand": [card_json(c) for c in view.hand], "deadwood": deadwood(view.hand_mask),
        "taken": short(view.taken) if view.taken is not None else None,
        "top": card_json(view.discards[-1]) if view.discards else None,
        "upcard": card_json(view.upcard), "stock": view.stock_count, "limit": view.knock_limit,
        "multiplier": view.multiplier, "target": view.target,
        "seats": [{"name": names[s], "took": [short(c) for c in view.picked[s]],
                   "threw": [short(c) for c in threw[s]], "score": view.scores[s],
                   "cards": view.hand_sizes[s], "dealer": s == view.dealer} for s in order],
    }


def explained(view: SeatView, puzzle: Puzzle, answered: str) -> dict[str, Any]:
    """The coach on each choice after ``answered``: its worth as priced when the puzzle was
    made, its gap to the answer, the deadwood it leaves, and a sentence (the answer's reason;
    for another move, what made it worse when the hand shows it)."""
    names = [n if n != "You" else "you" for n in seat_names(view)]
    values: dict[PlayerAction, float] = {_action(m): v for m, v in puzzle.values}
    answer = puzzle.answer_action
    worlds = Worlds(view)
    said = reason(view, worlds, answer, values, names)
    best = values[answer]
    rows = []
    for move, worth in sorted(values.items(), key=lambda pair: -pair[1]):
        why = said if move == answer else contrast(view, worlds, move, answer, names, said) or ""
        left = deadwood(view.hand_mask & ~move.card.mask) if isinstance(move, (Discard, Knock)) else None
        rows.append({"move": str(move), "words": action_words(move), "worth": worth, "gap": worth - best,
                     "deadwood": left, "why": why, "answer": move == answer, "yours": str(move) == answered})
    return {"reason": said, "answer": action_words(answer), "margin": min(puzzle.margins), "rows": rows,
            "solved": answered == puzzle.answer, "yours": action_words(_action(answered))}


def _action(text: str) -> PlayerAction:
    action = parse_action(text)
    assert isinstance(action, (Pass, Take, Draw, Discard, Knock, BigGin))
    return action
