"""/puzzles: a puzzle from a real game as its seat saw it, the player's answer, the coach's
reasons and figures for every choice, and the player's puzzle rating before and after
(docs/puzzles.md).

/puzzles offers the next puzzle (the nearest the player's puzzle rating of those they have not
answered) by sending them to /puzzles/<id>; the page there asks, or shows the answer once they
have given one. An answer is a form (each choice a button), rated once (``PuzzleStore.answer``);
a puzzle's page and an answer each spend the analysis board's rate limit; the
store and the coach run in a worker thread.
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.errors import sentence
from okgin.puzzles.puzzle import Puzzle
from okgin.server.pages.coach_asking import ask_coach
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.puzzle_body import choices, explained, table
from okgin.server.pages.template import message, render
from okgin.server.players.puzzle_ratings import PROVISIONAL
from okgin.server.players.puzzle_store import Attempt, PuzzleStore
from okgin.server.players.ratings import Rating
from okgin.server.players.sessions import player_or_address, session_of

FIRST = "Open the game first: you are a player from your first visit."


def _missing(request: Request) -> Response:
    return message(request, "No such puzzle", "There is no puzzle at this address for you.", 404, error=True)


def puzzle_routes() -> list[BaseRoute]:
    return [
        Route("/puzzles", next_puzzle),
        Route("/puzzles/{puzzle:str}", puzzle_page),
        Route("/puzzles/{puzzle:str}", answer_puzzle, methods=["POST"]),
    ]


def _store(request: Request) -> PuzzleStore:
    return PuzzleStore(request.app.state.store.engine)


async def next_puzzle(request: Request) -> Response:
    session = session_of(request)
    if session is None:
        return message(request, "Puzzles", FIRST, 404)
    chosen = await anyio.to_thread.run_sync(_store(request).next_for, session.player)
    if chosen is None:
        return message(request, "Puzzles", "You have answered every puzzle there is: well done. "
                                           "More come from the games played here.")
    return RedirectResponse(f"/puzzles/{chosen.id}", 303)


async def _figures(request: Request, store: PuzzleStore, player: str | None,
                   puzzle_id: str) -> dict[str, Any] | None:
    """A puzzle page's figures: read from the store in a worker thread, the coach's part in its
    line (``CoachLine``); None: no such puzzle."""
    read = await anyio.to_thread.run_sync(_read, store, player, puzzle_id)
    return None if read is None else await ask_coach(request, _shown, *read)


def _read(store: PuzzleStore, player: str | None,
          puzzle_id: str) -> tuple[Puzzle, Attempt | None, Rating] | None:
    """A puzzle, the player's attempt and puzzle rating, in one trip to the store."""
    puzzle = store.puzzle(puzzle_id, player)
    if puzzle is None:
        return None
    attempt = store.attempt(player, puzzle.id) if player is not None else None
    return puzzle, attempt, store.rating_of(player) if player is not None else Rating()


def _shown(puzzle: Puzzle, attempt: Attempt | None, rating: Rating) -> dict[str, Any]:
    view = puzzle.view()
    return {"puzzle": puzzle, "table": table(view), "choices": choices(view), "attempt": attempt,
            "explained": explained(view, puzzle, attempt.answer) if attempt is not None else None,
            "rating": rating, "provisional": PROVISIONAL}


async def puzzle_page(request: Request) -> Response:
    session = session_of(request)
    player = session.player if session is not None else None
    # An answered page has the coach's work.
    if not request.app.state.limiter.may_analyse(player_or_address(request)):
        return message(request, "Puzzles", "Too many puzzles at once: wait a few seconds and open this one "
                                           "again.", 429, error=True)
    shown = await _figures(request, _store(request), player, request.path_params["puzzle"][:40])
    if shown is None:
        return _missing(request)
    return render(request, "puzzles.html", **shown, csrf=session.csrf if session else "", error=None)


def _answer(store: PuzzleStore, player: str, puzzle_id: str, move: str) -> str | None:
    """Record ``player``'s answer (once); what was wrong with it, or None."""
    puzzle = store.puzzle(puzzle_id, player)
    if puzzle is None:
        return "there is no puzzle at this address for you"
    if move not in {str(m) for m in puzzle.view().legal}:
        return f"{move[:40]!r} is not one of this puzzle's moves: choose one of its buttons"
    store.answer(player, puzzle, move)
    return None


async def answer_puzzle(request: Request) -> Response:
    puzzle_id = request.path_params["puzzle"][:40]
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return message(request, "Puzzles", sentence(str(refused)), refused.status, error=True)
    if not request.app.state.limiter.may_analyse(session.player):
        return message(request, "Puzzles", "Too many answers at once: wait a few seconds and choose again.",
                       429, error=True)
    store = _store(request)
    done = await anyio.to_thread.run_sync(_answer, store, session.player, puzzle_id, fields.get("move", ""))
    if done is None:  # the page now shows the answer and the coach (a reload sends nothing again)
        return RedirectResponse(f"/puzzles/{puzzle_id}#answer", 303)
    shown = await _figures(request, store, session.player, puzzle_id)
    if shown is None:
        return _missing(request)
    return render(request, "puzzles.html", 400, **shown, csrf=session.csrf,
                  error=f"That answer cannot be taken: {done}.")
