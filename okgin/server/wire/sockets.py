"""The WebSocket as transport: one connection per open page, which reads a frame, limits it
(``limits``), parses it (``messages``), dispatches it to its type's handler (``handlers``,
given by ``admission``, which lets a connection in) and writes the answers, in its state: idle,
watching one room, or seated in it.

Each connection has an outbox drained by one writer, so acknowledgements and states go out in
the order they were made, at most ``Limits.outbox_frames`` of them waiting. Bad messages get an
error answer with its code (``codes``) and change nothing."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio
import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from okgin.errors import OkginError
from okgin.server.players.identity import Players
from okgin.server.players.seating import Seating
from okgin.server.players.sessions import session_of
from okgin.server.refusals import ProtocolError
from okgin.server.rooms.hall import Hall
from okgin.server.rooms.live import LiveRoom, Watcher
from okgin.server.store.chips import Wallets
from okgin.server.store.storage import StorageError
from okgin.server.wire.codes import Code, WireError, code_of, error_json, reason_of
from okgin.server.wire.limits import CLOSE_WAIT, FLOOD_CLOSE, MALFORMED_CLOSE, ConnectionLimits, RateLimited
from okgin.server.wire.messages import Parsed, parse_message
from okgin.server.wire.metrics import Metrics
from okgin.server.wire.settings import Settings

log = logging.getLogger("okgin.server")

Handlers = Mapping[str, tuple[Callable[["Connection", Any], Awaitable[dict[str, Any] | None]],
                              Callable[[ConnectionLimits], None] | None]]  # handlers.HANDLERS


class State(enum.Enum):
    """Where a connection is: no room yet, watching one, or seated in it (``Connection.state``)."""

    IDLE = "idle"
    WATCHING = "watching"
    SEATED = "seated"


class Connection:
    """One open page: its socket, its outbox, its limits, and the room it watches."""

    def __init__(
        self, websocket: WebSocket, hall: Hall, limits: ConnectionLimits, settings: Settings,
        handlers: Handlers,
    ) -> None:
        self.websocket = websocket
        self.hall = hall
        self.limits = limits
        self.settings = settings
        self.handlers = handlers
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        """Frames to send, at most ``limits.outbox_frames`` of them (``_put``)."""
        self.watcher = Watcher(self._put, None)
        self._reading: asyncio.Task[None] | None = None
        self._behind = False
        self.live: LiveRoom | None = None
        self._last_id: int | None = None
        self._refused = 0
        self._malformed = 0
        self.metrics: Metrics = websocket.app.state.metrics
        self.players: Players = websocket.app.state.players
        session = session_of(websocket)
        self.player_id = None if session is None else session.player
        self.name = None if session is None else session.name
        self.seating = Seating(self.players, Wallets(hall.store.engine), self.player_id, self.name)

    async def run(self, first: str | None = None) -> None:
        """Serve the page until it goes; ``first``: a message already read (see ``admission``)."""
        writer = asyncio.create_task(self._write())
        self.metrics.connections.inc()
        self._reading = reading = asyncio.create_task(self._read(first))
        try:
            await asyncio.wait({reading})  # it ends when the page goes, or is cancelled by ``_put``
            if not reading.cancelled():
                reading.result()
        finally:
            reading.cancel()
            self.metrics.connections.dec()
            await self._leave()  # a seat nobody holds now is marked away (``LiveRoom.detach``)
            if self._behind:
                writer.cancel()  # its frames are not waited for: the page is not reading them
            else:
                self.outbox.put_nowait(None)
            await asyncio.wait({writer})
        if self._closing is not None:  # closed once its answers are out, so it reads why
            with contextlib.suppress(Exception), anyio.move_on_after(CLOSE_WAIT):
                await self.websocket.close(1008, self._closing)

    async def _read(self, first: str | None) -> None:
        """Read and handle the page's messages until it goes, or is to be closed."""
        try:
            if first is not None:
                await self._handle(first)
            while self._closing is None:
                received = await self.websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                await self._handle(received.get("text") if "text" in received else received.get("bytes"))
        except WebSocketDisconnect:
            pass

    def _put(self, frame: dict[str, Any]) -> None:
        """Queue ``frame`` for the page; a page ``limits.outbox_frames`` behind is let go: its
        reading stops, and ``run`` closes it."""
        if self._behind:
            return
        if self.outbox.qsize() >= self.limits.outbox_frames:
            self._behind = True
            self.metrics.refused("behind")
            if self._reading is not None:
                self._reading.cancel()
            return
        self.outbox.put_nowait(frame)

    @property
    def _closing(self) -> str | None:
        """Why this connection is to be closed for flooding, if it is."""
        if self._behind:
            return f"more than {self.limits.outbox_frames} frames behind: closed"
        if self._refused >= FLOOD_CLOSE:
            return "too many messages: closed"
        if self._malformed >= MALFORMED_CLOSE:
            return "too many malformed messages: closed"
        return None

    async def _write(self) -> None:
        while (message := await self.outbox.get()) is not None:
            try:  # orjson: the frames in a tenth of json.dumps's time (the same JSON)
                await self.websocket.send_text(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode())
            except Exception:  # the page went away; the reader will notice
                return

    async def _handle(self, text: Any) -> None:
        ident: int | None = None
        arrived = time.perf_counter()
        try:
            limited = self.limits.message()
            try:
                message = parse_message(text)
            except ProtocolError as error:
                ident = error.ident
                if limited is not None:
                    raise limited from None  # over the limit: that is the answer, whatever it was
                self._malformed += 1  # answered, and counted toward the close: see ``run``
                raise
            ident = message.id
            if limited is not None:
                raise limited  # refused, but answered with its id so the page knows which
            self._check_id(ident)
            await self._dispatch(message)
            if message.type in ("act", "next"):
                self.metrics.acted(time.perf_counter() - arrived)
        except OkginError as error:  # answered with its code; see ``codes.reason_of``
            if isinstance(error, RateLimited):  # a page that keeps sending past a limit floods: ``run``
                self._refused += 1
            elif isinstance(error, StorageError):  # the store, not the page, failed: one line in the log
                log.warning("%s", error)
            self.metrics.refused(reason_of(error))
            self._put(error_json(str(error), code_of(error), ident))
        except Exception:  # never a traceback to the page; the server keeps running
            log.exception("error handling a message")
            self.metrics.refused("server_error")
            self._put(error_json("the server could not do that", Code.INTERNAL, ident))

    def _check_id(self, ident: int | None) -> None:
        """Ids only grow on a connection: a replayed or duplicated message is refused."""
        if ident is None:
            return
        if self._last_id is not None and ident <= self._last_id:
            raise ProtocolError(f"message id {ident} was already used: each message needs a larger id",
                                Code.ID_USED)
        self._last_id = ident

    async def _dispatch(self, parsed: Parsed) -> None:
        handler, budget = self.handlers[parsed.type]
        message = parsed.fields()
        if budget is not None:
            budget(self.limits)
        answer = await handler(self, message)
        if answer is not None:
            self._put(answer)
        elif message.id is not None:
            self._put({"type": "ack", "id": message.id})

    # -- the connection's state: idle, watching a room, or seated in it --------------------

    @property
    def state(self) -> State:
        if self.live is None:
            return State.IDLE
        return State.WATCHING if self.watcher.seat is None else State.SEATED

    def room(self) -> LiveRoom:
        if self.live is None or self.state is State.IDLE:
            raise WireError('no game yet: send {"type": "new"} or {"type": "join", "game": id}',
                            Code.NOT_OPEN)
        return self.live

    def seat(self) -> int:
        if self.state is not State.SEATED or self.watcher.seat is None:
            raise WireError("you are watching: only a seated player can do that", Code.WATCHING)
        if self.live is not None and self.live.room.seats[self.watcher.seat].kind != "person":
            # left from another tab, still open: this page watches now
            raise WireError("you left this table: you can watch", Code.WATCHING)
        return self.watcher.seat

    async def watch(
        self, live: LiveRoom, seat: int | None, token: str | None, only_game: str | None = None,
    ) -> None:
        if self.live is not live or self.watcher.seat != seat:
            await self._leave(staying=self.live is live)
        live = self.hall.serving(live)  # (from here to the attach, nothing waits)
        self.live = live
        if seat is not None and self.player_id is not None:  # a session took a seat: a real player
            self.limits.player(f"player {self.player_id}")
        self.watcher = Watcher(self._put, seat, self.watcher.coach, only_game)
        code = live.room.code if only_game is None else None  # an id never leads to the room
        joined: dict[str, Any] = {"type": "joined", "game": live.room.game, "room": code,
                                  "seat": seat, "solo": live.room.solo}
        if token is not None:
            joined["token"] = token
        self._put(joined)
        await live.attach(self.watcher)

    async def _leave(self, staying: bool = False) -> None:
        """Stop watching the room (``staying``: to watch it again at once, from another seat)."""
        if self.live is not None:
            live, self.live = self.live, None
            await live.detach(self.watcher, staying)
            # Frames still being made for the seat this page leaves never reach it: after a
            # leave the seat is a computer player's, and its cards are no longer this page's.
            self.watcher.send = _dropped


def _dropped(frame: dict[str, Any]) -> None:
    """Where a detached watcher's late frames go."""
