"""The coach's pages: a hand's review, the replay viewer (with its data), for finished games
and uploaded records."""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from okgin.advice.review import HandReview, review_match
from okgin.errors import OkginError, sentence
from okgin.record import loads, replay
from okgin.server.coach.line import CoachBusy
from okgin.server.pages.coach_asking import ask_coach
from okgin.server.pages.review_body import mistakes, review_lead
from okgin.server.pages.template import message, render
from okgin.server.players.access import shown_from
from okgin.server.players.identity import Players
from okgin.server.players.sessions import player_or_address
from okgin.server.players.sharing import Sharing
from okgin.server.store.storage import Store, StoredGame
from okgin.server.wire.jsonbound import JSONBoundError, check_unicode_in
from okgin.steps import game_steps

MAX_UPLOAD = 2_000_000


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _finished(request: Request, asked: int | None = None) -> tuple[StoredGame, int] | None:
    """The finished game in the path and the seat it is shown from (``shown_from``); None to
    anyone not at its table while it is not public."""
    store: Store = request.app.state.store
    game_id = request.path_params["game"]
    seat = await shown_from(request, game_id, asked)
    if seat is None:
        return None
    game = await anyio.to_thread.run_sync(store.load, game_id)
    return (game, seat) if game is not None and game.finished else None


def _asked(request: Request, name: str) -> int | None:
    """``?seat=N`` (the seat a public game's review is written from) or ``?hand=N`` (the hand
    reviewed), None when not asked. Raises ValueError saying what was wrong."""
    text = request.query_params.get(name)
    if text is None:
        return None
    if not text.isdecimal() or len(text) > 4:
        raise ValueError(f"the {name} (?{name}=) must be a {name} number, not {text[:20]}")
    return int(text)


# -- the replay viewer ------------------------------------------------------------------------


async def replay_page(request: Request) -> Response:
    game = request.path_params.get("game", "")
    if game and await _finished(request) is None:
        return message(request, "Replay", "No finished game of yours with that id.", 404, coach=True)
    return render(request, "replay.html", game=game)


async def replay_data(request: Request) -> Response:
    """Every finished hand of a finished game, move by move (hidden cards: finished only)."""
    found = await _finished(request)
    if found is None:
        return _error("no finished game of yours with that id", 404)
    return JSONResponse(await ask_coach(request, _steps, found[0].record))


async def replay_upload(request: Request) -> Response:
    """The same for a record the player uploads (it is theirs: every card may be shown)."""
    body = await request.body()
    if len(body) > MAX_UPLOAD:
        return _error(f"the record is too large: at most {MAX_UPLOAD // 1000} kB", 413)
    if not request.app.state.limiter.may_analyse(player_or_address(request)):
        return _error("too many records replayed: wait a few seconds", 429)
    try:
        record = loads(body.decode("utf-8"))
        check_unicode_in(record)  # a lone surrogate (\ud800) could not be sent back
        return JSONResponse(await ask_coach(request, _steps, record))
    except CoachBusy as busy:  # before OkginError: the record was not read, not refused
        return _error(str(busy), busy.status)
    except UnicodeDecodeError:
        return _error("the record is not UTF-8 text", 400)
    except (OkginError, JSONBoundError) as error:
        return _error(f"not a game record: {error}", 400)


def _steps(record: dict[str, Any]) -> dict[str, Any]:
    match, names = replay(record)
    return game_steps(match, names)


# -- a hand's review --------------------------------------------------------------------------


async def review_page(request: Request) -> Response:
    """The asker's review of one hand of a finished game they played, or of a public game from
    the seat they choose (``?hand=N``, default 1; ``?seat=N``, default 0)."""
    try:
        asked, hand = _asked(request, "seat"), _asked(request, "hand")
    except ValueError as error:
        return _refused(request, str(error), 400)
    found = await _finished(request, asked)
    if found is None:
        return message(request, "Review", "No finished game of yours with that id.", 404, coach=True)
    if not request.app.state.limiter.may_analyse(player_or_address(request)):
        return _refused(request, "too many hands reviewed: wait a few seconds", 429)
    game, seat = found
    seats = len(game.record.get("players", []))
    if not 0 <= seat < seats:
        return _refused(request, f"no seat {seat}: the game had {seats}", 400)
    number = 1 if hand is None else hand
    try:
        review, names, count = await ask_coach(request, _review, game.record, number, seat)
    except CoachBusy as busy:
        return _refused(request, str(busy), busy.status)
    except OkginError as error:  # no such hand
        return _refused(request, str(error), 400)
    players: Players = request.app.state.players
    public = await anyio.to_thread.run_sync(Sharing(players.engine).is_public, game.id)
    return render(request, "review.html", number=number, count=count, seat=seat, names=names,
                  seat_asked=public and asked is not None, public=public, game=game.id,
                  review_hand=review.hand, lead=review_lead(review), mistakes=mistakes(review, names))


def _refused(request: Request, error: str, status: int) -> Response:
    return message(request, "Review", sentence(error), status, error=True, coach=True)


def _review(record: dict[str, Any], number: int, seat: int) -> tuple[HandReview, list[str], int]:
    match, names = replay(record)
    if not 1 <= number <= len(match.hands):
        raise OkginError(f"no hand {number}: the game had {len(match.hands)}")
    return review_match(match, seat, names, hand=number)[0], list(names), len(match.hands)
