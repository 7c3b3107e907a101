"""The coach's analysis and a hand's review as JSON for the page (cards in record notation)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from okgin.advice import Analysis, analyse
from okgin.advice.review import action_words, review_json, review_match
from okgin.match import Match
from okgin.server.rooms.notation import cards, notation
from okgin.view import SeatView


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    suggestion = analysis.suggestion
    suggested = None
    if suggestion is not None:
        suggested = {
            "action": notation(suggestion.action), "text": suggestion.text,
            "values": [{"action": notation(move), "words": action_words(move), "worth": worth}
                       for move, worth in suggestion.values],
        }
    return {
        "deadwood": analysis.deadwood,
        "melds": [cards(meld) for meld in analysis.melds],
        "suggestion": suggested,
        "discards": [
            {
                "card": str(row.card), "deadwood": row.deadwood, "melds": [cards(m) for m in row.melds],
                "knock": row.can_knock, "gin": row.gin, "breaks_meld": row.breaks_meld,
                "worth": row.worth,
                "wanted": [{"seat": seat, "share": round(share, 2)} for seat, share in row.wanted],
            }
            for row in analysis.discards
        ],
        "near_melds": [
            {"cards": cards(near.cards), "outs": cards(near.outs), "live": cards(near.live)}
            for near in analysis.near_melds
        ],
        "warnings": [
            {"kind": w.kind, "text": w.text, "card": str(w.card) if w.card else None}
            for w in analysis.warnings
        ],
    }


def advice_message(view: SeatView, names: Sequence[str], ident: int | None) -> dict[str, Any]:
    """The answer to ``advice``: the whole analysis (slow: run it off the event loop)."""
    return {"type": "advice", "id": ident, **analysis_json(analyse(view, names))}


def hint_message(view: SeatView, names: Sequence[str], ident: int | None) -> dict[str, Any]:
    """The answer to ``hint``: the suggested move and its reason, or why there is none."""
    analysis = analyse(view, names)
    if analysis.suggestion is None:
        return {"type": "hint", "id": ident, "text": "Wait for your turn.", "action": None}
    text = analysis.suggestion.text
    return {"type": "hint", "id": ident, "text": text, "action": notation(analysis.suggestion.action)}


def review_message(
    match: Match, seat: int, number: int, names: Sequence[str], ident: int | None
) -> dict[str, Any]:
    """The answer to ``review``: ``seat``'s costliest decisions in hand ``number`` of ``match``
    (judged with the match's scores before it, as the seat's views showed them)."""
    review = review_match(match, seat, names, hand=number)[0]
    return {"type": "review", "id": ident, "names": list(names), **review_json(review, names)}
