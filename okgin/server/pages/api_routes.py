"""The API for computer players written by others (docs/api.md): a bot account's program, known
by its personal token (``Authorization: Bearer``), answers challenges, streams its events and
its games (``api_streams``), and plays its seat's moves through the room's one command path,
every rule checked.
"""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.errors import OkginError
from okgin.server.pages import api_pool, api_tournaments
from okgin.server.pages.api_common import (
    Api,
    ApiRefused,
    bearer_of,
    endpoint,
    ok,
    read_body,
    refused_by,
    seat_of,
)
from okgin.server.pages.api_streams import event_stream, game_stream
from okgin.server.players.bots import BotAccounts
from okgin.server.players.challenges import Challenge, Challenges
from okgin.server.rooms.room import Room


async def account(request: Request) -> Response:
    """GET /api/account: who the token speaks for."""
    found = await bearer_of(request, bot=False)
    name = await anyio.to_thread.run_sync(BotAccounts(Api.of(request).players.engine).name_of, found.player)
    return JSONResponse({"username": found.username, "name": name, "bot": found.bot})


async def accept(request: Request) -> Response:
    """POST /api/challenge/{id}/accept: the game is dealt in a new room, the challenger at seat 0."""
    found = await bearer_of(request)
    api = Api.of(request)
    ident = request.path_params["challenge"]
    challenges = Challenges(api.players.engine)
    challenge = await anyio.to_thread.run_sync(challenges.answer, ident, found.player, "accepting")
    try:
        code = await start_table(api, challenge)
    except BaseException:
        await anyio.to_thread.run_sync(challenges.undo, ident)
        raise
    await anyio.to_thread.run_sync(challenges.started, ident, code)
    return ok(room=code)


async def decline(request: Request) -> Response:
    """POST /api/challenge/{id}/decline."""
    found = await bearer_of(request)
    challenges = Challenges(Api.of(request).players.engine)
    ident = request.path_params["challenge"]
    await anyio.to_thread.run_sync(challenges.answer, ident, found.player, "declined")
    return ok()


async def start_table(api: Api, challenge: Challenge) -> str:
    """A friends' room for an accepted challenge: the challenger (host) at seat 0, the bot at
    seat 1, the coach off (a rated game), dealt at once. Returns its code."""
    bots = BotAccounts(api.players.engine)
    person = await anyio.to_thread.run_sync(bots.name_of, challenge.challenger)
    bot = await anyio.to_thread.run_sync(bots.name_of, challenge.bot)
    room, _host_token = Room.create(challenge.rules, 2, person, None, api.away_grace, coach=False)
    room.sit(1, bot)  # each finds their seat by their player (``room_players``): no token handed out
    room.seats[1].bot = True
    live = await api.hall.create(room, None, {0: challenge.challenger, 1: challenge.bot})
    try:
        await live.begin(0, None, rematch=False)
    except OkginError as error:
        raise refused_by(error) from None
    return room.code


async def act(request: Request) -> Response:
    """POST /api/bot/game/{room}/act {"action": "discard 7S"}: the seat's move, every rule checked."""
    found = await bearer_of(request)
    live, seat = await seat_of(Api.of(request), found.player, request.path_params["room"])
    action = (await read_body(request)).get("action")
    if not isinstance(action, str) or not action.strip():
        raise ApiRefused(400, "bad_field", 'send {"action": "<action>"}, one of the state\'s "legal"')
    try:
        await live.apply(seat, action[:200])
    except OkginError as error:
        raise refused_by(error) from None
    return ok()


async def next_hand(request: Request) -> Response:
    """POST /api/bot/game/{room}/next {"hand": n}: deal the next hand after hand n ended."""
    found = await bearer_of(request)
    live, _seat = await seat_of(Api.of(request), found.player, request.path_params["room"])
    hand = (await read_body(request)).get("hand")
    try:
        await live.next_hand(hand)
    except OkginError as error:
        raise refused_by(error) from None
    return ok()


def api_routes() -> list[BaseRoute]:
    return [
        Route("/api/account", endpoint(account)),
        Route("/api/stream/event", endpoint(event_stream)),
        Route("/api/challenge/{challenge:id}/accept", endpoint(accept), methods=["POST"]),
        Route("/api/challenge/{challenge:id}/decline", endpoint(decline), methods=["POST"]),
        Route("/api/pool/seek", endpoint(api_pool.seek), methods=["POST"]),
        Route("/api/pool/seek/{seeker:id}", endpoint(api_pool.cancel), methods=["DELETE"]),
        Route("/api/tournament/{code:id}/join", endpoint(api_tournaments.join), methods=["POST"]),
        Route("/api/tournament/{code:id}/withdraw", endpoint(api_tournaments.withdraw), methods=["POST"]),
        Route("/api/bot/game/stream/{room:id}", endpoint(game_stream)),
        Route("/api/bot/game/{room:id}/act", endpoint(act), methods=["POST"]),
        Route("/api/bot/game/{room:id}/next", endpoint(next_hand), methods=["POST"]),
    ]
