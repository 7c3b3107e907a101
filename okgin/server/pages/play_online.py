"""Play online's page and the calls its script makes (JSON, from our page: ``read_json``).

``GET /play-online``: the choice of rules and seats. ``POST /play-online/seek`` joins the pool
(``{"rules": preset, "seats": n, "bots": bot opponents allowed}``); ``POST
/play-online/seek/<id>`` is the page's look every second (it keeps its place); ``…/cancel``
leaves the pool; ``…/computer`` takes the computer player offered after the wait. Each answers
the seeker's state: ``waiting`` (with its wait, window and whether a computer is offered),
``pairing``, ``seated`` (its room: the page goes to ``/r/<room>``, where the seat is found by
the player) or ``gone`` (seek again). The pool's work runs in worker threads
(``anyio.to_thread``), never on the event loop. A player's calls are limited
(``Limiter.may_call_pool``: 3 a second, 20 at once), past which they are answered 429.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.errors import OkginError
from okgin.server.pages.forms import FormRefused, read_json
from okgin.server.pages.template import message, render
from okgin.server.players.bots import BotAccounts
from okgin.server.players.identity import Players, Session
from okgin.server.players.sessions import session_of
from okgin.server.pool.choices import CHOICES
from okgin.server.pool.matchmaker import Matchmaker, PoolError
from okgin.server.pool.window import WINDOW_GROWTH, WINDOW_MAX, WINDOW_START
from okgin.server.rooms.room import clean_name
from okgin.server.tournaments.words import preset_name

Call = Callable[[Matchmaker, Session, str, dict[str, object], Players], Any]


async def play_online_page(request: Request) -> HTMLResponse:
    session = session_of(request)
    if session is None:
        return message(request, "Play online", "Open the site's front page first: your browser has no "
                       "session yet (cookies may be off).", 403, error=True)
    pool: Matchmaker = request.app.state.pool
    players: Players = request.app.state.players
    choices = [(preset, seats, f"{seats} players: {preset_name(preset)}") for preset, seats in CHOICES]
    allow_bots = await anyio.to_thread.run_sync(players.allows_bots, session.player)
    return render(request, "play_online.html", session=session, choices=choices, allow_bots=bool(allow_bots),
                  settings=pool.settings, window=(WINDOW_START, WINDOW_GROWTH, WINDOW_MAX))


def _join(pool: Matchmaker, session: Session, _seeker: str, body: dict[str, object],
          players: Players) -> dict[str, Any]:
    """Join the pool under the name typed (else the player's own, else "Guest"), allowing bot
    opponents or not (``bots``, kept for next time; absent: no); a player with no name yet keeps
    the one typed, as sitting at a table does. A bot account is refused: it seeks through the API."""
    typed = body.get("name")
    if typed is not None and not isinstance(typed, str):
        raise PoolError('"name" is text: the name the other players see at the table')
    bots = body.get("bots", False)
    if not isinstance(bots, bool):
        raise PoolError('"bots" is true or false: may computer players written by others sit with you?')
    if BotAccounts(players.engine).is_bot(session.player):
        raise PoolError("a bot account seeks through the API (POST /api/pool/seek), not this page")
    name = clean_name(typed if typed and typed.strip() else session.name or "Guest")
    seeker = pool.join(session.player, name, body.get("rules"), body.get("seats"), bots=bots,
                       key=body.get("key"))
    players.choose_bots(session.player, bots)
    if session.name is None and typed and typed.strip():
        players.name_once(session.player, name)
    return pool.status(seeker, seeker.joined)


def _look(pool: Matchmaker, session: Session, seeker: str, _body: dict[str, object],
          _players: Players) -> dict[str, Any]:
    return pool.look(seeker, session.player)


def _cancel(pool: Matchmaker, session: Session, seeker: str, _body: dict[str, object],
            _players: Players) -> dict[str, Any]:
    if pool.cancel(seeker, session.player):
        return {"state": "cancelled"}
    return pool.look(seeker, session.player)  # seated meanwhile (or gone): the page is told


def _computer(pool: Matchmaker, session: Session, seeker: str, _body: dict[str, object],
              _players: Players) -> dict[str, Any]:
    return pool.computer(seeker, session.player)


def _endpoint(call: Call) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            session, body = await read_json(request)
        except FormRefused as refused:
            return JSONResponse({"error": str(refused)}, status_code=refused.status)
        if not request.app.state.limiter.may_call_pool(session.player):
            request.app.state.metrics.refused("pool")
            return JSONResponse({"error": "too many requests to the pool: wait a second"}, status_code=429)
        pool: Matchmaker = request.app.state.pool
        seeker = str(request.path_params.get("seeker", ""))
        try:
            players: Players = request.app.state.players
            answer = await anyio.to_thread.run_sync(call, pool, session, seeker, body, players)
        except OkginError as error:  # a choice not offered, an offer too early, the pool unreachable
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(answer, status_code=404 if answer.get("state") == "gone" else 200)
    return endpoint


def play_online_routes() -> list[BaseRoute]:
    return [
        Route("/play-online", play_online_page),
        Route("/play-online/seek", _endpoint(_join), methods=["POST"]),
        Route("/play-online/seek/{seeker:id}", _endpoint(_look), methods=["POST"]),
        Route("/play-online/seek/{seeker:id}/cancel", _endpoint(_cancel), methods=["POST"]),
        Route("/play-online/seek/{seeker:id}/computer", _endpoint(_computer), methods=["POST"]),
    ]
