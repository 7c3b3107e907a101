"""Frames out: views, results, the score sheet and the quick tips as the JSON the server sends
(an error frame is ``wire.codes.error_json``).

Cards are always in record notation ("7S", "TD"). What is written comes only from a
``SeatView`` (and from finished hands), so a seat is never sent a card it could not see.
Messages in are read by ``wire.messages``. See docs/web.md for every frame.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from okgin.actions import Action, Knock
from okgin.advice.tips import Advice
from okgin.hand import Hand, HandResult
from okgin.match import FinalTally
from okgin.melds import Arrangement, arrangement_of_mask, best_discard_of_mask, deadwood_of_mask
from okgin.rules import Rules
from okgin.scoring import SPADE_DOUBLE, Term
from okgin.server.rooms.notation import cards, notation
from okgin.view import PublicView, SeatView


def arrangement_json(shown: Arrangement) -> dict[str, Any]:
    return {
        "melds": [cards(meld) for meld in shown.melds],
        "unmatched": cards(shown.unmatched),
        "deadwood": shown.deadwood,
    }


@functools.lru_cache(maxsize=8192)
def _hand_arrangement(mask: int) -> dict[str, Any]:
    """``arrangement_json`` of the hand ``mask`` (shared: never changed once made). A seat's
    hand stays as it was while the others move: its arrangement is not worked out again for
    each of their moves (it depends on those cards alone, so it is the same for anyone)."""
    return arrangement_json(arrangement_of_mask(mask))


def view_json(view: SeatView, history: list[str] | None = None) -> dict[str, Any]:
    """Everything ``view`` holds, as JSON; plus this seat's own melds and deadwood.
    ``history``: the view's history as ``history_json`` writes it, if already made."""
    return {
        "seat": view.seat,
        "phase": str(view.phase),
        "to_act": view.to_act,
        "dealer": view.dealer,
        "hand": cards(view.hand),
        "arrangement": _hand_arrangement(view.hand_mask),
        "hand_sizes": list(view.hand_sizes),
        "stock_count": view.stock_count,
        "discards": cards(view.discards),
        "upcard": str(view.upcard),
        "knock_limit": view.knock_limit,
        "multiplier": view.multiplier,
        "taken": str(view.taken) if view.taken else None,
        "picked": [cards(taken) for taken in view.picked],
        "history": history_json(view.history) if history is None else history,
        "legal": [notation(action) for action in view.legal],
        "after_discard": best_discard_of_mask(view.hand_mask)[0] if len(view.hand) > _dealt(view) else None,
        "knock_options": {
            str(a.card): deadwood_of_mask(view.hand_mask ^ a.card.mask)
            for a in view.legal if isinstance(a, Knock)
        },
        "scores": list(view.scores),
        "target": view.target,
        "result": result_json(view.result) if view.result else None,
    }


def public_view_json(view: PublicView, history: list[str] | None = None) -> dict[str, Any]:
    """A spectator's view, in the shape of ``view_json`` with every private field empty."""
    return {
        "seat": None, "phase": str(view.phase), "to_act": view.to_act, "dealer": view.dealer,
        "hand": [], "arrangement": {"melds": [], "unmatched": [], "deadwood": 0},
        "hand_sizes": list(view.hand_sizes), "stock_count": view.stock_count,
        "discards": cards(view.discards), "upcard": str(view.upcard), "knock_limit": view.knock_limit,
        "multiplier": view.multiplier, "taken": None, "picked": [cards(taken) for taken in view.picked],
        "history": history_json(view.history) if history is None else history, "legal": [],
        "after_discard": None, "knock_options": {}, "scores": list(view.scores), "target": view.target,
        "result": result_json(view.result) if view.result else None,
    }


def _dealt(view: SeatView) -> int:
    return view.rules.cards_each


def history_json(history: Sequence[Action]) -> list[str]:
    return [notation_with_seat(action) for action in history]


@functools.lru_cache(maxsize=4096)
def notation_with_seat(action: Action) -> str:
    """An action as the record writes it (a reshuffle without its order); cached: every frame
    repeats the hand's whole history, and actions are shared values."""
    text = str(action).strip()
    return "reshuffle" if text.startswith("reshuffle") else text


def result_json(result: HandResult) -> dict[str, Any]:
    return {
        "outcome": str(result.outcome),
        "knocker": result.knocker,
        "winner": result.winner,
        "knock_limit": result.knock_limit,
        "multiplier": result.multiplier,
        "deadwood": list(result.deadwood),
        "layoffs": [[seat, cards(laid)] for seat, laid in result.layoffs],
        "points": list(result.points),
        "boxes": list(result.boxes),
        "working": list(result.working),
        "terms": [None if terms is None else [term_json(term) for term in terms] for terms in result.terms],
        "multiplier_name": SPADE_DOUBLE if result.multiplier != 1 else None,
        "shown": [arrangement_json(shown) for shown in result.shown],
        "knocker_melds": [cards(meld) for meld in result.knocker_melds],
    }


def term_json(term: Term) -> dict[str, Any]:
    """One named term of a seat's sum (``okgin.scoring.Term``)."""
    return {"name": term.name, "text": term.text, "points": term.points,
            "of": term.of, "against": term.against}


def sheet_json(hands: Sequence[Hand]) -> list[dict[str, Any]]:
    """The score sheet: one line per finished hand (no cards: only what was scored)."""
    lines = []
    for number, hand in enumerate(hands, start=1):
        result = hand.result
        if result is None:
            continue
        lines.append({
            "hand": number, "dealer": hand.dealer, "outcome": str(result.outcome),
            "knocker": result.knocker, "winner": result.winner, "points": list(result.points),
            "boxes": list(result.boxes), "working": list(result.working),
            "knock_limit": result.knock_limit, "multiplier": result.multiplier,
        })
    return lines


def final_json(final: FinalTally, rules: Rules) -> dict[str, Any]:
    """The final tally with each seat's bonuses split into hands won, game, shutout, boxes;
    ``bonuses`` gives what each is worth under ``rules`` (``box``: null without boxes;
    ``shutout``: the rule, "double-bonus", "double-score" or "none"), for the page to work
    each row out."""
    seats = []
    for seat, bonus in enumerate(final.bonuses):
        hands = rules.hand_bonus * final.hands_won[seat]
        boxes = (rules.boxes or 0) * final.boxes[seat]
        game = rules.game_bonus if seat == final.winner else 0
        seats.append({
            "points": final.points[seat], "hands_won": final.hands_won[seat],
            "hand_bonus": hands, "game_bonus": game, "boxes": final.boxes[seat],
            "box_bonus": boxes, "shutout_bonus": bonus - hands - boxes - game,
            "score": final.scores[seat],
        })
    bonuses = {"hand": rules.hand_bonus, "game": rules.game_bonus, "box": rules.boxes,
               "shutout": rules.shutout}
    return {"winner": final.winner, "shutout": final.shutout, "bonuses": bonuses, "seats": seats}


def advice_json(advice: Advice) -> dict[str, Any]:
    return {
        "deadwood": advice.deadwood,
        "near_melds": [cards(pair) for pair in advice.near_melds],
        "leaves": [
            {"card": str(leave.card), "deadwood": leave.deadwood, "knock": leave.can_knock}
            for leave in advice.leaves
        ],
        "tips": list(advice.tips),
        "warnings": list(advice.warnings),
    }
