"""What every API endpoint shares (docs/api.md): the token read and its budget spent, the body
read, the seat a bot holds, and a refusal as JSON with its HTTP status.

A refusal is ``{"error": {"code", "message"}}`` and changes nothing. Each token has its own
request budget (``Limiter.api_call``): a flood from one program is refused (429) and slows
nobody else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from okgin.errors import OkginError
from okgin.server.players.api_tokens import ApiTokens, Bearer
from okgin.server.players.challenges import ChallengeError
from okgin.server.players.identity import Players
from okgin.server.pool.matchmaker import Matchmaker
from okgin.server.refusals import Code
from okgin.server.rooms.changes import Stale
from okgin.server.rooms.hall import Hall
from okgin.server.rooms.live import LiveRoom, RoomClosed
from okgin.server.store.storage import StorageError
from okgin.server.wire.codes import code_of
from okgin.server.wire.jsonbound import JSONBoundError, loads
from okgin.server.wire.limits import Limiter
from okgin.server.wire.messages import is_id
from okgin.server.wire.settings import Stopping

MAX_BODY = 2048
"""The largest request body read (a move is a few words)."""
_STATUS = {Code.RATE_LIMITED: 429, Code.NOT_SAVED: 503, Code.INTERNAL: 500, Code.STALE: 409,
           Code.ROOM_CLOSED: 404}


class ApiRefused(Exception):
    """A request refused before or as it was judged: its HTTP status, code and sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code

    def answer(self) -> JSONResponse:
        headers = {"Retry-After": "1"} if self.status == 429 else None
        if self.status == 401:
            headers = {"WWW-Authenticate": 'Bearer realm="okgin"'}
        return JSONResponse({"error": {"code": self.code, "message": str(self)}}, self.status, headers)


def refused_by(error: OkginError) -> ApiRefused:
    """A room's or the engine's refusal as the API answers it (its wire code, its status)."""
    code = Code.STALE if isinstance(error, Stale) else code_of(error)
    return ApiRefused(_STATUS.get(code, 400), str(code), str(error))


@dataclass(frozen=True, slots=True)
class Api:
    """What every endpoint uses: the app's players' store, rooms and limits."""

    players: Players
    hall: Hall
    limiter: Limiter
    away_grace: float
    pool: Matchmaker
    stopping: Stopping

    @classmethod
    def of(cls, request: Request) -> Api:
        state = request.app.state
        return cls(state.players, state.hall, state.limiter, state.settings.away_grace, state.pool,
                   state.settings.stopping)


async def bearer_of(request: Request, bot: bool = True) -> Bearer:
    """The token's player (``bot``: who must be a bot account), one request spent from its
    budget. Raises ApiRefused: 401 no token or a bad one, 403 not a bot, 429 over the limit."""
    api = Api.of(request)
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiRefused(401, "no_token", 'send your token as "Authorization: Bearer <token>" '
                                          "(made on your profile page)")
    address = request.client.host if request.client else "unknown"
    if not api.limiter.may_check_token(address):
        raise ApiRefused(429, "rate_limited", "too many bad tokens from your address: wait a few seconds")
    found = await anyio.to_thread.run_sync(ApiTokens(api.players.engine).bearer, token.strip())
    if found is None:
        api.limiter.token_failed(address)
        raise ApiRefused(401, "bad_token", "that token is not valid: revoked, or never made")
    limited = api.limiter.api_call(found.token_hash)
    if limited is not None:
        raise ApiRefused(429, "rate_limited", str(limited))
    if bot and not found.bot:
        raise ApiRefused(403, "not_bot", "this account is not a bot account: "
                                         "make it one on your profile page")
    return found


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (empty body: {}). Raises ApiRefused 400."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiRefused(413, "malformed", f"the body is longer than {MAX_BODY} bytes")
    if not body.strip():
        return {}
    try:
        data = loads(body.decode("utf-8"))
    except (JSONBoundError, UnicodeDecodeError) as error:
        raise ApiRefused(400, "malformed", f"the body is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiRefused(400, "malformed", "the body is a JSON object")
    return data


async def seat_of(api: Api, player: str, code: str) -> tuple[LiveRoom, int]:
    """The live room ``code`` and the seat ``player`` holds in it. Raises ApiRefused 404 when
    they hold none (a table not theirs answers exactly as one that does not exist)."""
    none = ApiRefused(404, "no_game", "you hold no seat at that table")
    if not is_id(code):
        raise none
    seat = await anyio.to_thread.run_sync(api.players.seat_in_room, player, code)
    live = await api.hall.get(code) if seat is not None else None
    if live is None or seat is None or not 0 <= seat < len(live.room.seats) \
            or live.room.seats[seat].kind != "person":
        raise none
    return live, seat


def ok(**more: Any) -> JSONResponse:
    return JSONResponse({"ok": True, **more})


def endpoint(handler: Any) -> Any:
    """An API endpoint: its refusals answered as JSON with their status, never a page."""
    async def run(request: Request) -> Response:
        try:
            answer: Response = await handler(request)
            return answer
        except ApiRefused as refused:
            return refused.answer()
        except ChallengeError as error:
            code = "no_challenge" if error.status == 404 else "refused"
            return ApiRefused(error.status, code, str(error)).answer()
        except RoomClosed as error:
            return refused_by(error).answer()
        except StorageError as error:
            return ApiRefused(503, "not_saved", str(error)).answer()
    return run


