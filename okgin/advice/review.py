"""A hand's review: the seat's decisions that cost the most expected points against the coach.

Each decision is judged from the view the seat had when it made it (``seat_view`` of the hand
replayed to that point), so a review never uses a card the seat could not then see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from okgin.actions import BigGin, Draw, Knock, Pass, PlayerAction, Reshuffle, Take
from okgin.advice.reasons import contrast
from okgin.advice.suggest import suggest, trusted, worth
from okgin.advice.words import cards_text, possessive, seat_name, sentence, short
from okgin.advice.worlds import Worlds
from okgin.bots.memo import deadwood
from okgin.cards import parse_card
from okgin.errors import OkginError
from okgin.hand import Hand
from okgin.match import Match
from okgin.view import SeatView, seat_view

MISTAKE = 3.0
"""A choice that costs at least this many expected points against the suggestion is a mistake."""
MOST = 3
"""A review lists at most this many mistakes, the costliest first."""
TURN_STARTS = (Pass, Draw, Take)
"""The actions that open a seat's turn (a discard or knock ends the turn its draw opened)."""
GUESSES = 192
"""Guessed deals a disagreement is priced on: more than the live coach uses, since a review is
read at leisure and a mistake must stand out of the noise of the guesses."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat's: the position, what was played, what the coach suggests."""

    move: int
    """The action's place in the hand (1 = the first action)."""
    turn: int
    """The seat's turn it was made in (1 = the seat's first turn of the hand)."""
    view: SeatView
    chosen: PlayerAction
    suggested: PlayerAction
    cost: float
    """Expected points the choice gave up against the suggestion (0 when they agree)."""
    reason: str


@dataclass(frozen=True, slots=True)
class HandReview:
    hand: int
    seat: int
    decisions: int
    mistakes: tuple[Decision, ...]


def review_hand(
    hand: Hand, seat: int, number: int = 1, names: Sequence[str] = (),
    scores: tuple[int, ...] | None = None, threshold: float = MISTAKE,
    won: tuple[int, ...] | None = None,
) -> HandReview:
    """Review ``seat``'s decisions in ``hand`` (numbered ``number``); at most ``MOST`` mistakes.
    ``scores`` and ``won`` are the match's totals and points won toward the target before the
    hand, as the seat's views showed them (``won`` by default ``scores``)."""
    if not 0 <= seat < hand.players:
        raise OkginError(f"seat {seat} is not a seat of {hand.players} players")
    judged = list(_decisions(hand, seat, names, scores, threshold, won))
    worst = sorted((d for d in judged if d.cost >= threshold), key=lambda d: (-d.cost, d.move))
    return HandReview(number, seat, len(judged), tuple(worst[:MOST]))


def _decisions(
    hand: Hand, seat: int, names: Sequence[str], scores: tuple[int, ...] | None, threshold: float,
    won: tuple[int, ...] | None,
) -> list[Decision]:
    """Every decision of ``seat`` with a choice to make, judged from its view at the time."""
    again = Hand(hand.rules, hand.dealer, hand.deal)
    found = []
    turn = 0
    for move, action in enumerate(hand.actions, start=1):
        if isinstance(action, Reshuffle) or action.seat != seat:
            again.apply(action)
            continue
        if isinstance(action, TURN_STARTS):
            turn += 1
        if len(again.legal_actions()) > 1:
            view = seat_view(again, seat, scores, won)
            found.append(_judge(view, move, max(turn, 1), action, names, threshold))
        again.apply(action)
    return found


def _judge(
    view: SeatView, move: int, turn: int, action: PlayerAction, names: Sequence[str],
    threshold: float,
) -> Decision:
    worlds = Worlds(view)  # as many guesses as the live coach: the hint the seat would have had
    chosen = Knock(action.seat, action.card) if isinstance(action, Knock) else action
    suggestion = suggest(view, worlds, names)
    assert suggestion is not None  # the seat was to act with a choice
    if suggestion.action == chosen:
        return Decision(move, turn, view, chosen, chosen, 0.0, suggestion.text)
    favoured = trusted(view, worlds)
    better, played = suggestion.values[0][1], worth(view, worlds, chosen, favoured)
    cost = better - played
    if cost >= threshold:
        # A mistake is priced again on more guesses, and fresh ones: on the guesses it was
        # chosen on, the best of several close moves looks better than it is (it won the draw
        # of the guesses). Below the threshold there, it is below it here too, on average.
        fresh = Worlds(view, GUESSES, salt=1)
        cost = worth(view, fresh, suggestion.action, favoured) - worth(view, fresh, chosen, favoured)
    why = contrast(view, worlds, chosen, suggestion.action, names, suggestion.text)
    if why is None and not _ends_with_gin(view, suggestion.action):
        # Nothing in the hand tells them apart: the worths did (the hint's own figures; gin's
        # own reason says it all).
        why = (f"Over likely deals, {gerund(suggestion.action)} is worth about {round(better):+d} "
               f"points against {round(played):+d} for {gerund(chosen)}.")
    text = suggestion.text if why is None else f"{why} {suggestion.text}"
    return Decision(move, turn, view, chosen, suggestion.action, round(max(0.0, cost), 1), text)


def _ends_with_gin(view: SeatView, action: PlayerAction) -> bool:
    """Gin or Big Gin: the suggestion's own reason is the whole story."""
    if isinstance(action, BigGin):
        return True
    return isinstance(action, Knock) and deadwood(view.hand_mask & ~action.card.mask) == 0


def review_match(
    match: Match, seat: int, names: Sequence[str] = (), hand: int | None = None,
    threshold: float = MISTAKE,
) -> list[HandReview]:
    """Reviews of ``seat`` in each hand of ``match`` (or only hand number ``hand``)."""
    if hand is not None and not 1 <= hand <= len(match.hands):
        count = len(match.hands)
        raise OkginError(f"no hand {hand}: the record has {count} hand{'' if count == 1 else 's'}")
    totals = [0] * match.rules.players
    won = [0] * match.rules.players  # what counts toward the target (penalties do not)
    reviews = []
    for number, played in enumerate(match.hands, start=1):
        if hand is None or number == hand:
            reviews.append(
                review_hand(played, seat, number, names, tuple(totals), threshold, tuple(won))
            )
        if played.result is not None:
            totals = [t + p for t, p in zip(totals, played.result.points, strict=True)]
            won = [w + max(p, 0) for w, p in zip(won, played.result.points, strict=True)]
    return reviews


# -- in words and as JSON -------------------------------------------------------------------


def action_words(action: PlayerAction) -> str:
    """An action as a player says it: "take the 7♥", "discard the K♠", "knock with the 3♣"."""
    text = str(action).split(" ", 1)[1]
    verb, _, card = text.partition(" ")
    if not card:
        return {"draw": "draw from the stock", "big-gin": "go Big Gin"}.get(verb, verb + " the discard")
    name = short(parse_card(card.split()[0]))
    return f"knock with the {name}" if verb == "knock" else f"discard the {name}"


def gerund(action: PlayerAction) -> str:
    """An action as a doing: "taking the discard", "discarding the K♠", "knocking with the 3♣"."""
    words = action_words(action)
    verb, _, rest = words.partition(" ")
    doing = {"take": "taking", "pass": "passing", "draw": "drawing", "discard": "discarding",
             "knock": "knocking", "go": "going"}.get(verb, verb)
    return f"{doing} {rest}".strip() if verb != "pass" else "passing"


def position_json(view: SeatView) -> dict[str, Any]:
    """What the seat saw when it decided (its own cards and the table, no hidden card)."""
    return {
        "hand": [str(c) for c in view.hand],
        "discards": [str(c) for c in view.discards],
        "upcard": str(view.upcard),
        "stock_count": view.stock_count,
        "knock_limit": view.knock_limit,
        "multiplier": view.multiplier,
        "phase": str(view.phase),
        "taken": str(view.taken) if view.taken else None,
    }


def ordinal(n: int) -> str:
    """ "1st", "2nd", "3rd", "4th", "11th", "22nd"."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def when(review: HandReview, decision: Decision, names: Sequence[str] = ()) -> str:
    """Where a decision was, as a player counts: "Hand 2, your 5th turn"."""
    who = possessive(seat_name(names or ("You",) * (review.seat + 1), review.seat))
    return f"Hand {review.hand}, {who} {ordinal(decision.turn)} turn"


def review_json(review: HandReview, names: Sequence[str] = ()) -> dict[str, Any]:
    return {
        "hand": review.hand, "seat": review.seat, "decisions": review.decisions,
        "mistakes": [
            {
                "move": d.move, "turn": d.turn, "when": when(review, d, names),
                "position": position_json(d.view), "chosen": str(d.chosen),
                "suggested": str(d.suggested), "chosen_words": action_words(d.chosen),
                "suggested_words": action_words(d.suggested), "cost": d.cost, "reason": d.reason,
            }
            for d in review.mistakes
        ],
    }


def review_text(review: HandReview, names: Sequence[str] = ()) -> str:
    """The review as lines a player reads."""
    who = sentence(seat_name(names, review.seat))
    head = f"Hand {review.hand}, {who}: {review.decisions} decisions"
    if not review.mistakes:
        return head + ", no costly mistakes."
    lines = [head + f", {len(review.mistakes)} costly:"]
    for d in review.mistakes:
        top = f", top discard {short(d.view.discards[-1])}" if d.view.discards else ""
        lines.append(f"  {when(review, d, names)} (move {d.move}): holding "
                     f"{cards_text(d.view.hand)}{top}, stock {d.view.stock_count}")
        lines.append(f"    played: {action_words(d.chosen)}; better: {action_words(d.suggested)} "
                     f"(about {d.cost:.1f} points)")
        lines.append(f"    {d.reason}")
    return "\n".join(lines)
