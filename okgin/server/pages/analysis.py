"""/analysis: the analysis board (docs/analysis.md). A position typed in as one seat could see
it (``okgin.advice.board``) is shown with the coach's whole analysis of that seat's view: the
move it suggests and why, the worth of each move it weighed, what each discard leaves, the
near-melds and the warnings. The form is sent by GET, so a position's address is a link that
shares it. The analysis runs in a worker thread, within the board's rate limit."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from okgin.advice import Analysis, analyse
from okgin.advice.board import Position, PositionError, position_view, read_position
from okgin.advice.review import action_words
from okgin.advice.words import short
from okgin.errors import sentence
from okgin.rules import PRESETS
from okgin.server.coach.line import CoachBusy
from okgin.server.pages.coach_asking import ask_coach
from okgin.server.pages.template import render
from okgin.server.players.sessions import player_or_address
from okgin.server.tournaments.words import preset_name
from okgin.view import SeatView

FIELDS = ("rules", "players", "target", "seat", "dealer", "upcard", "hand", "moves", "scores")
LONGEST = 4_000
"""The most characters a field is read to (a hand's moves in notation are far fewer)."""
EXAMPLE = {"rules": "oklahoma", "players": "", "target": "", "seat": "0", "dealer": "1", "upcard": "9S",
           "hand": "2C 3C 4C 7D 8D 9D KH KS QC 5H 6S", "moves": "0 pass\n1 pass\n0 draw", "scores": ""}
"""The position the empty board shows: seat 0 has drawn and discards."""


def names_for(seat: int, players: int) -> list[str]:
    return ["You" if s == seat else f"Seat {s}" for s in range(players)]


def _analysed(position: Position) -> tuple[SeatView, Analysis]:
    view = position_view(position)
    return view, analyse(view, names_for(position.seat, position.rules.players))


def _shown(view: SeatView, analysis: Analysis) -> dict[str, Any]:
    """What the page shows of the analysis (cards as the coach writes them: 7♥)."""
    suggestion = analysis.suggestion
    turn = "your turn" if view.my_turn else f"seat {view.to_act}'s turn" if view.to_act is not None else ""
    return {
        "turn": turn,
        "phase": view.phase.value, "stock": view.stock_count, "limit": view.knock_limit,
        "top": short(view.discards[-1]) if view.discards else None, "deadwood": analysis.deadwood,
        "melds": [" ".join(map(short, meld)) for meld in analysis.melds],
        "suggestion": None if suggestion is None else {
            "text": suggestion.text,
            "weighed": [(action_words(move), worth) for move, worth in suggestion.values]},
        "discards": [{"card": short(row.card), "deadwood": row.deadwood, "worth": row.worth,
                      "knock": row.can_knock, "gin": row.gin} for row in analysis.discards],
        "near": [(" ".join(map(short, near.cards)), " ".join(map(short, near.live)))
                 for near in analysis.near_melds],
        "warnings": [warning.text for warning in analysis.warnings],
    }


async def analysis_page(request: Request) -> Response:
    asked = {name: request.query_params.get(name, "")[:LONGEST] for name in FIELDS}
    presets = [(name, preset_name(name)) for name in PRESETS]
    if not any(asked.values()):
        return render(request, "analysis.html", form=EXAMPLE, presets=presets, shown=None, error=None)
    if not request.app.state.limiter.may_analyse(player_or_address(request)):
        return render(request, "analysis.html", 429, form=asked, presets=presets, shown=None,
                      error="too many positions analysed: wait a few seconds")
    try:
        position = read_position(asked)
        view, analysis = await ask_coach(request, _analysed, position)
    except PositionError as error:
        return render(request, "analysis.html", 400, form=asked, presets=presets, shown=None,
                      error=f"This position cannot be analysed: {error}.")
    except CoachBusy as busy:
        return render(request, "analysis.html", busy.status, form=asked, presets=presets, shown=None,
                      error=sentence(str(busy)))
    return render(request, "analysis.html", form=asked, presets=presets, shown=_shown(view, analysis),
                  error=None)
