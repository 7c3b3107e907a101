"""The daily deal's pages (docs/daily.md): `/daily`, where a player plays today's five deals
against ``hard`` (a form per move: mouse, touch and keyboard alike, the server holding the deal),
its forms (start, a move, the next deal), a day's results (`/daily/<date>`), and once the day is
over each player's five deals in the replay viewer. Every store and engine call runs in a worker
thread, `hard`'s answers in the server's thinking processes; moves are within the player's rate
limit; the day's seed is shown only once it is over."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import date
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from okgin import daily
from okgin.errors import OkginError
from okgin.server.pages import daily_play, daily_results
from okgin.server.pages.daily_play import DailyRefused, Think
from okgin.server.pages.daily_table import table
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.template import message, render
from okgin.server.players.sessions import session_of
from okgin.server.rooms.thinking import Thinking
from okgin.server.store.daily_store import DailyStore
from okgin.server.wire.clock import Clock, ClockError

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MOVE = re.compile(r"[0-9A-Za-z \-]{1,80}")
TITLE = "The daily deal"


def daily_routes() -> list[Route]:
    return [
        Route("/daily", daily_page),
        Route("/daily/start", start, methods=["POST"]),
        Route("/daily/move", move, methods=["POST"]),
        Route("/daily/next", next_deal, methods=["POST"]),
        Route("/daily/{day}", day_page),
        Route("/daily/{day}/replay/{code:id}", replay_page),
        Route("/api/daily/{day}/{code:id}/replay", replay_data),
    ]


def _store(request: Request) -> DailyStore:
    store: DailyStore = request.app.state.daily
    return store


def _today(request: Request) -> date:
    clock: Clock = request.app.state.settings.clock
    return clock.today()


async def daily_page(request: Request, error: str | None = None, status: int = 200) -> Response:
    """Today's deal as the player stands: not started (the start button), a deal being played or
    just over, or the day finished (their score)."""
    try:
        today = _today(request)
    except ClockError as failed:
        return message(request, TITLE, str(failed), 503, error=True)
    session = session_of(request)
    if session is None:
        return message(request, TITLE, "The daily deal keeps your place with a cookie: allow cookies for "
                       "this site and open the page again.", 403, error=True)
    store = _store(request)
    found = await anyio.to_thread.run_sync(daily_play.current, store, today, session.player)
    shown: dict[str, Any] | None = None
    finished: dict[str, Any] | None = None
    if found is not None:
        attempt, match = found
        shown = table(attempt, match)
        if attempt.finished is not None:
            results = await anyio.to_thread.run_sync(daily_results.day_results, store, today, today)
            finished = next((row for row in results["rows"] if row["code"] == attempt.code), None)
    return render(request, "daily.html", status, day=today.isoformat(), table=shown, finished=finished,
                  error=error, csrf=session.csrf)


async def _form(request: Request) -> tuple[str, dict[str, str], date] | Response:
    """The player, the form's fields and today; or the page answering a refused form."""
    try:
        session, fields = await read_form(request)
        today = _today(request)
    except FormRefused as refused:
        return message(request, TITLE, str(refused), refused.status, error=True)
    except ClockError as failed:
        return message(request, TITLE, str(failed), 503, error=True)
    return session.player, fields, today


def _version(fields: dict[str, str]) -> int:
    text = fields.get("version", "")
    if not text.isdecimal() or len(text) > 6:
        raise DailyRefused("The form is missing the deal's version: open the page again.", 400)
    return int(text)


Act = Callable[[DailyStore, date, str, dict[str, str], Think], object]
"""One form's work on the store (in a worker thread): the day, the player, the form's fields, and
where ``hard`` thinks."""


async def _acted(request: Request, act: Act, limited: bool = True) -> Response:
    """A form of /daily: read and checked, ``act`` run in a worker thread (within the player's
    rate limit when ``limited``), then back to /daily; a refusal shows /daily with its reason."""
    got = await _form(request)
    if isinstance(got, Response):
        return got
    player, fields, today = got
    if limited and not request.app.state.limiter.may_play_daily(player):
        return await daily_page(request, "Too many moves at once: wait a second.", 429)
    try:
        await anyio.to_thread.run_sync(act, _store(request), today, player, fields, _think(request))
    except DailyRefused as refused:
        return await daily_page(request, str(refused), refused.status)
    return RedirectResponse("/daily", status_code=303)


def _think(request: Request) -> Think:
    """``hard``'s answers worked out in the server's thinking processes, as at a room's table: its
    searches would hold the interpreter lock that everyone else's requests wait for."""
    thinking: Thinking = request.app.state.hall.services.thinking
    return functools.partial(thinking.run_blocking, daily.answered)


def _start(store: DailyStore, today: date, player: str, _fields: dict[str, str], think: Think) -> object:
    return daily_play.start(store, today, player, think)


def _move(store: DailyStore, today: date, player: str, fields: dict[str, str], think: Think) -> object:
    text = fields.get("move", "")
    if not _MOVE.fullmatch(text):
        raise DailyRefused("That is not a move: choose one of the buttons.", 400)
    return daily_play.move(store, today, player, text, _version(fields), think)


def _next(store: DailyStore, today: date, player: str, fields: dict[str, str], think: Think) -> object:
    return daily_play.next_deal(store, today, player, _version(fields), think)


async def start(request: Request) -> Response:
    return await _acted(request, _start, limited=False)


async def move(request: Request) -> Response:
    return await _acted(request, _move)


async def next_deal(request: Request) -> Response:
    return await _acted(request, _next)


def _asked_day(request: Request, today: date) -> date | None:
    """The day in the path, if it is a real date not after today."""
    text = request.path_params["day"]
    if not _DAY.fullmatch(text):
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return day if day <= today else None


async def day_page(request: Request) -> Response:
    try:
        today = _today(request)
    except ClockError as failed:
        return message(request, TITLE, str(failed), 503, error=True)
    day = _asked_day(request, today)
    if day is None:
        return message(request, TITLE, "No daily deal on that day: a day is a date (2026-12-06) not "
                       "after today.", 404, error=True)
    results = await anyio.to_thread.run_sync(daily_results.day_results, _store(request), day, today)
    session = session_of(request)
    mine = session.player if session is not None else None
    return render(request, "daily_day.html", results=results, mine=mine)


async def _replay_attempt(request: Request) -> tuple[date, str] | None:
    """The day and attempt in the path, if that day is over (replays open with the seed)."""
    today = _today(request)
    day = _asked_day(request, today)
    if day is None or day >= today:
        return None
    return day, request.path_params["code"]


async def replay_page(request: Request) -> Response:
    try:
        found = await _replay_attempt(request)
    except ClockError as failed:
        return message(request, TITLE, str(failed), 503, error=True)
    if found is None:
        return message(request, "Replay", "A day's deals may be replayed once the day is over.", 404,
                       error=True)
    day, code = found
    attempt = await anyio.to_thread.run_sync(_store(request).by_code, day.isoformat(), code)
    if attempt is None or attempt.finished is None:
        return message(request, "Replay", "No finished attempt with that code on that day.", 404, error=True)
    return render(request, "replay.html", game="", source=f"/api/daily/{day.isoformat()}/{code}/replay")


async def replay_data(request: Request) -> Response:
    """The five deals of one finished attempt of a day that is over, move by move, face up."""
    try:
        found = await _replay_attempt(request)
    except ClockError as failed:
        return JSONResponse({"error": str(failed)}, status_code=503)
    if found is None:
        return JSONResponse({"error": "a day's deals may be replayed once the day is over"}, status_code=404)
    day, code = found
    try:
        steps = await anyio.to_thread.run_sync(daily_results.replay_steps, _store(request), day, code)
    except OkginError as error:
        return JSONResponse({"error": f"this attempt cannot be replayed: {error}"}, status_code=500)
    if steps is None:
        return JSONResponse({"error": "no finished attempt with that code on that day"}, status_code=404)
    return JSONResponse(steps)
