"""The API's streams (docs/api.md), newline-delimited JSON over HTTP, one JSON object a line
and an empty line now and then to keep the connection open:

- the bot's events (``/api/stream/event``): each challenge waiting for its answer, each game
  it is seated in as it starts (a challenge's, or the pool's), and each as it ends; while it is
  open, the bot's seek in the pool (``api_pool``) keeps its place. Read from the store every ``POLL``
  seconds (in a worker thread), so a challenge made or a game started on another process
  behind the same proxy is seen as well; it ends at its next look once its token is revoked;
- one game (``/api/bot/game/stream/{room}``): the room and state frames the web page gets,
  made for the bot's own seat by the room (``rooms.watchers``: a seat's view, never the full
  state), from the first one to the game's final state, where the stream ends.

A token holds at most ``Limits.api_streams`` streams open at once. Both end within a second of
the process being asked to stop (``Settings.stopping``), so a restart is not held up by them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.to_thread
import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from okgin.server.pages.api_common import Api, ApiRefused, bearer_of, seat_of
from okgin.server.players.api_tokens import ApiTokens, Bearer
from okgin.server.players.bots import BotAccounts
from okgin.server.players.challenges import Challenges
from okgin.server.rooms.broker import BrokerError
from okgin.server.rooms.watchers import Watcher
from okgin.server.store.storage import StorageError

POLL = 1.0
"""Seconds between the event stream's looks at the store, and at most between a game stream's
looks at whether the process is stopping."""
KEEP_ALIVE = 10.0
"""Seconds of silence after which a stream sends an empty line (proxies close idle ones)."""
NDJSON = "application/x-ndjson"


def line(frame: dict[str, Any]) -> bytes:
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS) + b"\n"


def _streaming(api: Api, found: Bearer, body: AsyncIterator[bytes]) -> Response:
    """``body`` as a stream, counted against the token's open streams (429 past them)."""
    if not api.limiter.open_stream(found.token_hash):
        raise ApiRefused(429, "rate_limited", f"this token holds {api.limiter.limits.api_streams} streams "
                                              "open already: close one first")

    async def counted() -> AsyncIterator[bytes]:
        try:
            async for chunk in body:
                yield chunk
        finally:
            api.limiter.close_stream(found.token_hash)

    return StreamingResponse(counted(), media_type=NDJSON, headers={"Cache-Control": "no-store",
                                                                    "X-Accel-Buffering": "no"})


async def event_stream(request: Request) -> Response:
    """GET /api/stream/event: the bot's challenges and games, as they come."""
    found = await bearer_of(request)
    api = Api.of(request)
    return _streaming(api, found, _events(api, found))


async def _events(api: Api, found: Bearer) -> AsyncIterator[bytes]:
    player, tokens, pool = found.player, ApiTokens(api.players.engine), api.pool
    bots, challenges = BotAccounts(api.players.engine), Challenges(api.players.engine)
    told: set[str] = set()
    started: set[tuple[str, str | None]] = set()
    ended: set[tuple[str, str | None]] = set()
    names: dict[str, str] = {}
    quiet = 0.0
    first = True
    while not api.stopping.asked:
        if not await anyio.to_thread.run_sync(tokens.alive, found.token_hash):
            return  # revoked: the stream ends at its next look
        with contextlib.suppress(StorageError, BrokerError):  # the next look renews it (1 s of 10)
            await anyio.to_thread.run_sync(pool.renew, player)  # a seek waits while its bot listens
        sent = False
        for challenge in await anyio.to_thread.run_sync(challenges.pending_for, player):
            if challenge.id in told:
                continue
            told.add(challenge.id)
            who = challenge.challenger
            if who not in names:
                names[who] = await anyio.to_thread.run_sync(bots.name_of, who)
            yield line({"type": "challenge", "challenge": challenge.to_json(names[who])})
            sent = True
        for table in await anyio.to_thread.run_sync(bots.tables_of, player):
            key = (table.room, table.game)
            game = {"room": table.room, "game": table.game, "seat": table.seat}
            if table.phase == "playing" and key not in started:
                started.add(key)
                yield line({"type": "gameStart", "game": game})
                sent = True
            elif table.phase == "finished" and key not in ended and (key in started or not first):
                ended.add(key)
                yield line({"type": "gameFinish", "game": game})
                sent = True
        first = False
        quiet = 0.0 if sent else quiet + POLL
        if quiet >= KEEP_ALIVE:
            quiet = 0.0
            yield b"\n"
        await asyncio.sleep(POLL)


async def game_stream(request: Request) -> Response:
    """GET /api/bot/game/stream/{room}: the bot's seat's frames, to the game's end."""
    found = await bearer_of(request)
    api = Api.of(request)
    live, seat = await seat_of(api, found.player, request.path_params["room"])
    return _streaming(api, found, _game(api, live.room.code, seat))


async def _game(api: Api, code: str, seat: int) -> AsyncIterator[bytes]:
    frames: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    bound = api.limiter.limits.outbox_frames

    def put(frame: dict[str, Any]) -> None:
        if frames.qsize() >= bound:  # a program that stopped reading: its stream is ended
            frames.put_nowait(None)
            return
        frames.put_nowait(frame)

    watcher = Watcher(put, seat)
    live = await api.hall.get(code)
    if live is None:
        return
    live = api.hall.serving(live)
    try:
        await live.attach(watcher)
        quiet = 0.0
        while not api.stopping.asked:
            try:
                frame = await asyncio.wait_for(frames.get(), POLL)
            except TimeoutError:
                quiet += POLL
                if quiet >= KEEP_ALIVE:
                    quiet = 0.0
                    yield b"\n"
                continue
            quiet = 0.0
            if frame is None:
                return
            yield line(frame)
            if frame.get("type") == "state" and frame.get("final") is not None:
                return  # the game is over: its final state was the last frame
    finally:
        watcher.send = _dropped
        with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
            await live.detach(watcher)


def _dropped(frame: dict[str, Any]) -> None:
    """Where a finished stream's late frames go."""
