"""Tournaments for bots (docs/api.md): a bot account joins, and withdraws from, a tournament
whose host opened it to bots ("Bots may join"); one not opened refuses it, changing nothing.
Its tables come to it on its event stream (``gameStart``) and it plays them as any table.
The store's work runs in worker threads, never on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from okgin.server.pages.api_common import Api, ApiRefused, bearer_of, ok
from okgin.server.players.bots import BotAccounts
from okgin.server.tournaments.events import Tournaments
from okgin.server.tournaments.settings import TournamentError


async def join(request: Request) -> Response:
    """POST /api/tournament/{code}/join: the bot takes the next place under its own name."""
    found = await bearer_of(request)
    api = Api.of(request)
    name = await anyio.to_thread.run_sync(BotAccounts(api.players.engine).name_of, found.player)
    await _change(request, lambda events, code: events.join(code, found.player, name))
    return ok()


async def withdraw(request: Request) -> Response:
    """POST /api/tournament/{code}/withdraw: the bot's entry is withdrawn before the start."""
    found = await bearer_of(request)
    await _change(request, lambda events, code: events.leave(code, found.player))
    return ok()


async def _change(request: Request, change: Callable[[Tournaments, str], None]) -> None:
    events: Tournaments = request.app.state.tournaments
    code = request.path_params["code"]
    try:
        await anyio.to_thread.run_sync(change, events, code)
    except TournamentError as error:
        if str(error).startswith("no such"):
            raise ApiRefused(404, "no_tournament", str(error)) from None
        raise ApiRefused(400, "refused", str(error)) from None
    request.app.state.director.poke()
