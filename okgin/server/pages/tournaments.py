"""The tournaments' pages: the list and the create form (``/t``), a tournament's page
(``/t/<code>``: join, start, standings, rounds, each table's link), and its live part.

Every change is a form checked by ``forms.read_form`` (Origin and CSRF); bad input is answered
with 400 and the reason, and nothing is stored.
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.rules import PRESETS
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.template import message, render
from okgin.server.pages.tournament_body import WORDS, live_context, live_section
from okgin.server.players.sessions import player_of, session_of
from okgin.server.rooms.room import LEVELS, TIMERS
from okgin.server.rooms.stakes import MAX_CUTOFF, MAX_STAKE
from okgin.server.store.tournament_store import Listed, TournamentStore
from okgin.server.tournaments.events import Tournaments
from okgin.server.tournaments.plan import chips_won, final_order, table_standings
from okgin.server.tournaments.settings import (
    FORMATS,
    MAX_PLACES,
    TARGETS,
    Settings,
    TournamentError,
    read_settings,
)
from okgin.server.tournaments.words import MAX_NAME, default_name, format_name, preset_name, read_name

TITLE = "Tournaments"


def tournament_routes() -> list[BaseRoute]:
    return [
        Route("/t", list_page),
        Route("/t", create, methods=["POST"]),
        Route("/t/{code:id}", tournament_page),
        Route("/t/{code:id}/live", live_part),
        Route("/t/{code:id}/state", state_json),
        Route("/t/{code:id}/join", join, methods=["POST"]),
        Route("/t/{code:id}/start", start, methods=["POST"]),
        Route("/t/{code:id}/leave", leave, methods=["POST"]),
        Route("/t/{code:id}/cancel", cancel, methods=["POST"]),
    ]


def _events(request: Request) -> Tournaments:
    events: Tournaments = request.app.state.tournaments
    return events


async def list_page(request: Request) -> Response:
    return await _list(request, "", 200)


async def _list(request: Request, error: str, status: int, form: dict[str, str] | None = None) -> Response:
    store = _events(request).store
    listed = {name: await anyio.to_thread.run_sync(store.listed, name) for name in ("open", "running")}
    finished = await anyio.to_thread.run_sync(_finished, store)
    session = session_of(request)
    old = form or {}
    fmt = old.get("format", "swiss")
    return render(
        request, "tournaments.html", status, **WORDS, error=error, listed=listed, finished=finished,
        session=session, old=old,
        named=default_name(fmt if fmt in FORMATS else "swiss", session.name if session else None),
        formats={f: format_name(f) for f in FORMATS}, presets={p: preset_name(p) for p in PRESETS},
        timers={"off": "off", **{str(t): str(t) for t in TIMERS if t}}, levels=LEVELS,
        max_name=MAX_NAME, max_places=MAX_PLACES, targets=TARGETS, max_stake=MAX_STAKE,
        max_cutoff=MAX_CUTOFF)


FINISHED = 10
"""The finished tournaments /t lists (the last to finish first)."""


def _finished(store: TournamentStore) -> list[tuple[Listed, str]]:
    """The last tournaments to finish, each with its winner. Blocking: run it in a thread."""
    won = []
    for t in store.listed("finished", FINISHED):
        event = store.load(t.code)
        if event is None:
            continue
        first = final_order(event, Settings.from_data(event.data))[0]
        won.append((t, next(e.name for e in event.entrants if e.seed == first)))
    return won


async def create(request: Request) -> Response:
    """POST /t: a new tournament from the form; its page next."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return _refused(request, refused)
    try:
        settings = read_settings(fields)
        name = read_name(fields.get("name"), settings.format, session.name)
    except TournamentError as error:
        return await _list(request, str(error), 400, fields)
    client = request.client.host if request.client else "unknown"
    if not request.app.state.limiter.may_make_tournament(client, session.player):
        return await _list(request, "too many tournaments made: wait a minute and try again", 429, fields)
    code = await anyio.to_thread.run_sync(_events(request).create, session.player, settings, name)
    return RedirectResponse(f"/t/{code}", status_code=303)


async def tournament_page(request: Request) -> Response:
    return await _tournament(request, "", 200)


async def _tournament(request: Request, error: str, status: int) -> Response:
    code = request.path_params["code"]
    event = await anyio.to_thread.run_sync(_events(request).store.load, code)
    if event is None:
        return message(request, TITLE, "No such tournament: check the link.", 404)
    settings = Settings.from_data(event.data)
    session = session_of(request)
    player = session.player if session is not None else None
    made = await anyio.to_thread.run_sync(_events(request).store.rooms_made, event)
    pool = await anyio.to_thread.run_sync(_events(request).store.pool, code)
    return render(request, "tournament.html", status, **live_context(event, settings, player, made, pool),
                  error=error, session=session, joined=any(e.player == player for e in event.entrants),
                  host=player == event.host)


async def live_part(request: Request) -> Response:
    """The live part of the page alone, for its script to show again."""
    event = await anyio.to_thread.run_sync(_events(request).store.load, request.path_params["code"])
    if event is None:
        return HTMLResponse("<p>No such tournament.</p>", status_code=404)
    made = await anyio.to_thread.run_sync(_events(request).store.rooms_made, event)
    pool = await anyio.to_thread.run_sync(_events(request).store.pool, event.code)
    body = live_section(event, Settings.from_data(event.data), player_of(request), made, pool)
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})


async def state_json(request: Request) -> Response:
    """The tournament as data: status, round, entrants, standings, each round's tables."""
    event = await anyio.to_thread.run_sync(_events(request).store.load, request.path_params["code"])
    if event is None:
        return JSONResponse({"error": "no such tournament"}, status_code=404)
    settings = Settings.from_data(event.data)
    made = await anyio.to_thread.run_sync(_events(request).store.rooms_made, event)
    standing = [{"entrant": s.entrant, "score": float(s.score), "buchholz": float(s.buchholz),
                 "difference": float(s.difference), "played": s.played, "byes": s.byes}
                for s in table_standings(event)]
    data: dict[str, Any] = {
        "code": event.code, "name": event.name, "status": event.status, "round": event.round,
        "settings": event.data,
        "entrants": [{"seed": e.seed, "name": e.name, "level": e.level, "person": e.player is not None,
                      "bot": e.bot}
                     for e in event.entrants],
        "standings": standing, "byes": {str(n): list(b) for n, b in event.byes.items()},
        "tables": [{"round": t.round, "number": t.number, "room": t.room, "seats": list(t.seats),
                    "result": t.result, "game": t.game, "ready": t.round < event.round or t.room in made}
                   for t in event.tables],
        "final": final_order(event, settings) if event.status == "finished" else None,
    }
    pool = await anyio.to_thread.run_sync(_events(request).store.pool, event.code)
    if pool is not None:
        won = chips_won(event, pool[1]) or {}
        data["pool"] = {"fee": settings.fee, "chips": pool[0],
                        "won": {str(seed): chips for seed, chips in won.items()}}
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def join(request: Request) -> Response:
    return await _change(request, "join")


async def start(request: Request) -> Response:
    return await _change(request, "start")


async def leave(request: Request) -> Response:
    return await _change(request, "leave")


async def cancel(request: Request) -> Response:
    return await _change(request, "cancel")


async def _change(request: Request, what: str) -> Response:
    code = request.path_params["code"]
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return _refused(request, refused)
    events = _events(request)
    try:
        if what == "join":
            await anyio.to_thread.run_sync(events.join, code, session.player, fields.get("name"))
        else:
            change = {"start": events.start, "leave": events.leave, "cancel": events.cancel}[what]
            await anyio.to_thread.run_sync(change, code, session.player)
    except TournamentError as error:
        status = 404 if str(error).startswith("no such") else 400
        return await _tournament(request, str(error), status)
    request.app.state.director.poke()
    return RedirectResponse(f"/t/{code}", status_code=303)


def _refused(request: Request, refused: FormRefused) -> Response:
    return message(request, TITLE, str(refused), refused.status, error=True)
