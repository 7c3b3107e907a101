"""Play online's pool for bots (docs/api.md): a bot account seeks a table of rules and seats
through the API, and is seated only with people who allow bot opponents, never with another
bot (``pool.window.bots_agree``). Its seek keeps its place while its event stream is open
(``api_streams``: each look renews it), and the table it is seated at comes to it there as a
``gameStart``. The pool's work runs in worker threads, never on the event loop.
"""

from __future__ import annotations

from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from okgin.server.pages.api_common import Api, ApiRefused, bearer_of, ok, read_body
from okgin.server.players.bots import BotAccounts, bot_family
from okgin.server.players.rating_store import RatingStore
from okgin.server.players.ratings import Rating, family
from okgin.server.pool.choices import ChoiceError
from okgin.server.pool.matchmaker import Matchmaker, PoolError
from okgin.server.pool.seekers import Seeker
from okgin.server.rooms.broker import BrokerError


def _join(api: Api, pool: Matchmaker, player: str, rules: object, seats: object) -> Seeker:
    name = BotAccounts(api.players.engine).name_of(player)
    count = seats if isinstance(seats, int) and not isinstance(seats, bool) and 2 <= seats <= 4 else 2
    pool_of_bots = bot_family(family(count))  # its rating in its own pool
    rating = RatingStore(api.players.engine).ratings_in(pool_of_bots, [player]).get(player, Rating()).shown
    return pool.join(player, name, rules, seats, bot_rating=rating)


async def seek(request: Request) -> Response:
    """POST /api/pool/seek {"rules": preset, "seats": n}: the bot waits in the pool."""
    found = await bearer_of(request)
    api = Api.of(request)
    pool = api.pool
    body = await read_body(request)
    try:
        seeker = await anyio.to_thread.run_sync(_join, api, pool, found.player, body.get("rules"),
                                                body.get("seats"))
    except ChoiceError as error:  # rules or seats not offered: the message names what is
        raise ApiRefused(400, "bad_field", str(error)) from None
    except PoolError as error:  # the wait after abandoned games, saying how long
        raise ApiRefused(400, "refused", str(error)) from None
    except BrokerError as error:  # the pool in Redis unreachable: nothing joined
        raise ApiRefused(503, "not_saved", str(error)) from None
    return ok(**_waiting(pool, seeker))


async def cancel(request: Request) -> Response:
    """DELETE /api/pool/seek/{seeker}: the bot leaves the pool (404 once seated or gone)."""
    found = await bearer_of(request)
    pool = Api.of(request).pool
    ident = request.path_params["seeker"]
    try:
        cancelled = await anyio.to_thread.run_sync(pool.cancel, ident, found.player)
    except BrokerError as error:
        raise ApiRefused(503, "not_saved", str(error)) from None
    if not cancelled:
        raise ApiRefused(404, "no_seek", "you have no seek waiting by that id: seated already, or gone")
    return ok()


def _waiting(pool: Matchmaker, seeker: Seeker) -> dict[str, Any]:
    status = pool.status(seeker, seeker.joined)
    return {key: status[key] for key in ("seeker", "rules", "seats", "rating", "window")}
