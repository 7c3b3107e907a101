"""The WebSocket endpoint: one connection per open page, watching one room from a seat or
as a spectator.

Each message type has one handler, listed in ``HANDLERS`` (the protocol's types, in
``messages``). Each connection has an outbox drained by one writer, so acknowledgements and
states go out in the order they were made. Bad messages get an error answer with its code
(``codes``) and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from okgin.errors import OkginError
from okgin.rules import Rules
from okgin.server.players.identity import Players
from okgin.server.players.sessions import session_of
from okgin.server.refusals import ProtocolError
from okgin.server.rooms.hall import Hall
from okgin.server.rooms.live import LiveRoom, Watcher
from okgin.server.rooms.room import PHRASES, RoomError
from okgin.server.store.chips import Wallets
from okgin.server.store.storage import StorageError
from okgin.server.wire.admission import returning_player
from okgin.server.wire.codes import Code, WireError, code_of, error_json
from okgin.server.wire.headers import origin_allowed
from okgin.server.wire.limits import ConnectionLimits, Limiter, RateLimited
from okgin.server.wire.messages import (
    Message,
    check_fields,
    int_field,
    is_id,
    opponents_field,
    parse_message,
    seed_field,
    text_field,
)
from okgin.server.wire.metrics import Metrics

log = logging.getLogger("okgin.server")
FLOOD_CLOSE = 50
"""Messages refused for a rate limit after which the connection is closed (a person's page,
far below the limits, is never refused at all)."""
MALFORMED_CLOSE = 5
"""Malformed frames (not JSON, too long or deep, not a message) after which the connection is
closed. The page never sends one, and a flood of 16 KB garbage costs the server its reading:
closed after 5 instead of after 100 read in the burst and 50 refused."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What `okgin serve` was told: seeds allowed, origins allowed besides the page's own."""

    allow_seeds: bool = False
    origins: frozenset[str] = frozenset()
    away_grace: float = 60.0


class Connection:
    """One open page: its socket, its outbox, its limits, and the room it watches."""

    def __init__(
        self, websocket: WebSocket, hall: Hall, limits: ConnectionLimits, settings: Settings,
    ) -> None:
        self.websocket = websocket
        self.hall = hall
        self.limits = limits
        self.settings = settings
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.watcher = Watcher(self.outbox.put_nowait, None)
        self.live: LiveRoom | None = None
        self._last_id: int | None = None
        self._refused = 0
        self._malformed = 0
        self.metrics: Metrics = websocket.app.state.metrics
        self.players: Players = websocket.app.state.players
        session = session_of(websocket)
        self.player_id = None if session is None else session.player
        self.name = None if session is None else session.name

    async def run(self, first: str | None = None) -> None:
        """Serve the page until it goes; ``first``: a message already read (see ``admission``)."""
        writer = asyncio.create_task(self._write())
        self.metrics.connections.inc()
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
        finally:
            self.metrics.connections.dec()
            await self._leave()
            self.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
        if self._closing is not None:  # closed once its answers are out, so it reads why
            with contextlib.suppress(Exception):
                await self.websocket.close(1008, self._closing)

    @property
    def _closing(self) -> str | None:
        """Why this connection is to be closed for flooding, if it is."""
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
        except RateLimited as error:  # a page that keeps sending past a limit is flooding: see ``run``
            self._refused += 1
            self.metrics.refused("rate_limited")
            self.outbox.put_nowait(error_json(str(error), code_of(error), ident))
        except StorageError as error:  # the store, not the page, failed: one line in the log too
            log.warning("%s", error)
            self.metrics.refused("storage")
            self.outbox.put_nowait(error_json(str(error), code_of(error), ident))
        except ProtocolError as error:
            self.metrics.refused("malformed")
            self.outbox.put_nowait(error_json(str(error), code_of(error), ident))
        except OkginError as error:
            self.metrics.refused("refused")
            self.outbox.put_nowait(error_json(str(error), code_of(error), ident))
        except Exception:  # never a traceback to the page; the server keeps running
            log.exception("error handling a message")
            self.metrics.refused("server_error")
            self.outbox.put_nowait(error_json("the server could not do that", Code.INTERNAL, ident))

    def _check_id(self, ident: int | None) -> None:
        """Ids only grow on a connection: a replayed or duplicated message is refused."""
        if ident is None:
            return
        if self._last_id is not None and ident <= self._last_id:
            raise ProtocolError(f"message id {ident} was already used: each message needs a larger id",
                                Code.ID_USED)
        self._last_id = ident

    async def _dispatch(self, message: Message) -> None:
        handler, budget = HANDLERS[message.type]
        check_fields(message)
        if budget is not None:
            budget(self.limits)
        answer = await handler(self, message)
        if answer is not None:
            self.outbox.put_nowait(answer)
        elif message.id is not None:
            self.outbox.put_nowait({"type": "ack", "id": message.id})

    # -- opening a game or a room ---------------------------------------------------------

    async def _on_options(self, message: Message) -> dict[str, Any] | None:
        self.watcher.coach = bool(message.data.get("coach", False))
        if self.live is not None:
            await self.live.show(self.watcher)
        return None

    async def _on_new(self, message: Message) -> dict[str, Any] | None:
        """A game against the computer: a room of its own, the person at seat 0 with a token."""
        rules = Rules.from_json(message.data.get("rules", "oklahoma"))
        levels = opponents_field(message)
        if rules.players != len(levels) + 1:
            rules = rules.replace(players=len(levels) + 1)
        live, token = await self.hall.solo(rules, levels, self._seed(message), self.player_id)
        if self.player_id is not None and live.room.game is not None:
            game_id, code = live.room.game, live.room.code
            await anyio.to_thread.run_sync(self.players.sat_in_game, game_id, {0: self.player_id})
            await anyio.to_thread.run_sync(self.players.sat_in_room, code, 0, self.player_id)
        await self._watch(live, 0, token)
        return None

    async def _on_open(self, message: Message) -> dict[str, Any] | None:
        """join (a game by its id) or enter (a room by its link's code): with a seat's token to
        play; without one, to watch. A game's id shows that game only (an id is not the room's
        link: see ``Watcher.only_game``)."""
        by_game = message.type == "join"
        key = text_field(message, "game" if by_game else "room")
        find = self.hall.by_game if by_game else self.hall.get
        live = await find(key) if is_id(key) else None
        if live is None:
            raise (WireError("no such game: start a new game", Code.NO_GAME) if by_game
                   else WireError("no such room: check the link", Code.NO_ROOM))
        seat = await self._seat_of(live, message)
        await self._watch(live, seat, None, only_game=key if by_game and seat is None else None)
        return None

    async def _on_create(self, message: Message) -> dict[str, Any] | None:
        rules = Rules.from_json(message.data.get("rules", "oklahoma"))
        players = int_field(message, "players", rules.players)
        timer = message.data.get("timer")
        name = self._name(message)
        live, token = await self.hall.open(rules, players, name, timer, self.settings.away_grace,
                                           self.player_id)
        await self._took(live.room.code, 0, name)
        await self._watch(live, 0, token)
        return None

    async def _seat_of(self, live: LiveRoom, message: Message) -> int | None:
        """The seat whose token ``message`` holds; without one, the seat this page's player took
        (from any device they are signed in on), else None (watching). A player coming back is
        counted against its seat's connection budget, not its address's (see ``limits``)."""
        token = message.data.get("token")
        if token is None:
            seat = await self._players_seat(live)
            if seat is None:
                return None
        else:
            seat = live.room.seat_for(token if isinstance(token, str) else None)
        if seat is None:
            raise WireError("that seat token is not valid here: open the link again to watch",
                            Code.BAD_TOKEN)
        self.limits.returned(f"{live.room.code}:{seat}")
        self.limits.player(self._owner(live, seat))
        return seat

    # -- in a room ------------------------------------------------------------------------

    async def _on_sit(self, message: Message) -> dict[str, Any] | None:
        live = self._room()
        if self.watcher.seat is not None:
            raise RoomError("you already have a seat")
        seat, name = int_field(message, "seat"), self._name(message)
        await self._can_stake(live)
        change = await live.sit(seat, name, self.player_id)
        await self._took(live.room.code, seat, name)
        await self._watch(live, seat, change.token)  # the token saved, if the change was re-run
        return None

    async def _can_stake(self, live: LiveRoom) -> None:
        """At a staked table: refuse a seat to a page without a player, or one short of chips
        (the start takes the stakes, all or none, and refuses then if chips went meanwhile)."""
        stake = live.room.stakes.stake
        if not stake:
            return
        if self.player_id is None:
            raise RoomError("this table plays for chips: open it in a browser to have a wallet")
        balance = await anyio.to_thread.run_sync(Wallets(self.hall.store.engine).balance, self.player_id)
        if balance < stake:
            raise RoomError(f"this table's stake is {stake} chips and you have {balance}: "
                            "you can watch, or come back tomorrow for more chips")

    async def _on_stake(self, message: Message) -> dict[str, Any] | None:
        """Host, in the lobby: the stake in chips per person and the prize rule."""
        data = message.data
        await self._room().set_stakes(self.watcher.seat, data.get("stake"), data.get("split", "scaled"),
                                      data.get("cutoff", 50))
        return None

    async def _on_computer(self, message: Message) -> dict[str, Any] | None:
        live, seat = self._room(), int_field(message, "seat")
        await live.set_computer(self.watcher.seat, seat, message.data.get("level", "normal"))
        return None

    async def _on_clear(self, message: Message) -> dict[str, Any] | None:
        await self._room().clear(self.watcher.seat, int_field(message, "seat"))
        return None

    async def _on_start(self, message: Message) -> dict[str, Any] | None:
        live = self._room()
        await live.begin(self.watcher.seat, self._seed(message), rematch=False)
        await self._game_began(live)
        return None

    async def _on_rematch(self, message: Message) -> dict[str, Any] | None:
        live = self._room()
        await live.begin(self.watcher.seat, self._seed(message), rematch=True)
        await self._game_began(live)
        return None

    async def _on_leave(self, message: Message) -> dict[str, Any] | None:
        """A person leaves the table for good; this page goes on watching it as a spectator."""
        live, seat = self._room(), self._seat()
        await live.leave(seat)
        await self._watch(live, None, None)
        return None

    async def _on_say(self, message: Message) -> dict[str, Any] | None:
        live, seat = self._room(), self._seat()
        phrase = message.data.get("phrase")
        if phrase not in PHRASES:
            raise RoomError("say one of: " + ", ".join(PHRASES))
        await live.say(seat, str(phrase))
        return None

    async def _on_act(self, message: Message) -> dict[str, Any] | None:
        live, seat = self._room(), self._seat()
        await live.apply(seat, text_field(message, "action"))
        return None

    async def _on_next(self, message: Message) -> dict[str, Any] | None:
        live = self._room()
        self._seat()
        await live.next_hand(message.data.get("hand"))
        return None

    async def _on_coach(self, message: Message) -> dict[str, Any] | None:
        """hint, advice and review: the coach's answers for this connection's own seat."""
        return await self._room().coach(self._seat(), message.type, message.id, message.data)

    # -- the player behind the page --------------------------------------------------------

    def _name(self, message: Message) -> Any:
        """The name typed at the table, or else the player's display name (``Room`` checks it)."""
        name = message.data.get("name")
        return name if isinstance(name, str) and name.strip() else (self.name or name or "")

    async def _players_seat(self, live: LiveRoom) -> int | None:
        room = live.room
        seat = await anyio.to_thread.run_sync(self.players.seat_in_room, self.player_id, room.code)
        if seat is None and room.game is not None:  # a game against the computer, by its id
            seat = await anyio.to_thread.run_sync(self.players.seat_in, self.player_id, room.game)
        if seat is None or not 0 <= seat < len(room.seats) or room.seats[seat].kind != "person":
            return None  # handed to a computer player or cleared since: watch
        return seat

    async def _took(self, room: str, seat: int, name: object) -> None:
        """This page's player took ``seat``: their room seat, and their name if they had none."""
        if self.player_id is None:
            return
        await anyio.to_thread.run_sync(self.players.sat_in_room, room, seat, self.player_id)
        if self.name is None and isinstance(name, str):
            await anyio.to_thread.run_sync(self.players.name_once, self.player_id, name)

    async def _game_began(self, live: LiveRoom) -> None:
        """A room's game began: its people's seats are theirs in the store."""
        room = live.room
        if room.game is not None:
            people = [i for i, seat in enumerate(room.seats) if seat.kind == "person"]
            await anyio.to_thread.run_sync(self.players.room_game_began, room.code, room.game, people)

    # -- helpers --------------------------------------------------------------------------

    def _owner(self, live: LiveRoom, seat: int) -> str:
        """Whose budgets a seated page spends: its session's player, else (a program that came
        back with a seat token) its seat's. A page without a session that only made a game is
        not known to be a person: it stays on its address's budgets (see ``limits``)."""
        return f"player {self.player_id}" if self.player_id is not None else f"seat {live.room.code}:{seat}"

    def _seed(self, message: Message) -> int | None:
        seed = seed_field(message)
        if seed is not None and not self.settings.allow_seeds:
            raise ProtocolError("seeds are off on this server (okgin serve --allow-seeds is for tests)",
                                Code.BAD_FIELD)
        return seed

    def _room(self) -> LiveRoom:
        if self.live is None:
            raise WireError('no game yet: send {"type": "new"} or {"type": "join", "game": id}',
                            Code.NOT_OPEN)
        return self.live

    def _seat(self) -> int:
        if self.watcher.seat is None:
            raise WireError("you are watching: only a seated player can do that", Code.WATCHING)
        if self.live is not None and self.live.room.seats[self.watcher.seat].kind != "person":
            # left from another tab, still open: this page watches now
            raise WireError("you left this table: you can watch", Code.WATCHING)
        return self.watcher.seat

    async def _watch(
        self, live: LiveRoom, seat: int | None, token: str | None, only_game: str | None = None,
    ) -> None:
        if self.live is not live or self.watcher.seat != seat:
            await self._leave(staying=self.live is live)
        live = self.hall.serving(live)  # (from here to the attach, nothing waits)
        self.live = live
        if seat is not None and self.player_id is not None:  # a session took a seat: a real player
            self.limits.player(self._owner(live, seat))
        self.watcher = Watcher(self.outbox.put_nowait, seat, self.watcher.coach, only_game)
        code = live.room.code if only_game is None else None  # an id never leads to the room
        joined: dict[str, Any] = {"type": "joined", "game": live.room.game, "room": code,
                                  "seat": seat, "solo": live.room.solo}
        if token is not None:
            joined["token"] = token
        self.outbox.put_nowait(joined)
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


Handler = Callable[[Connection, Message], Awaitable[dict[str, Any] | None]]
Budget = Callable[[ConnectionLimits], None]
HANDLERS: dict[str, tuple[Handler, Budget | None]] = {
    "new": (Connection._on_new, ConnectionLimits.new_game),
    "join": (Connection._on_open, None),
    "act": (Connection._on_act, None),
    "next": (Connection._on_next, None),
    "hint": (Connection._on_coach, ConnectionLimits.coach),
    "options": (Connection._on_options, None),
    "create": (Connection._on_create, ConnectionLimits.new_game),
    "enter": (Connection._on_open, None),
    "sit": (Connection._on_sit, None),
    "computer": (Connection._on_computer, None),
    "clear": (Connection._on_clear, None),
    "start": (Connection._on_start, None),
    "rematch": (Connection._on_rematch, None),
    "say": (Connection._on_say, None),
    "stake": (Connection._on_stake, None),
    "advice": (Connection._on_coach, ConnectionLimits.coach),
    "review": (Connection._on_coach, ConnectionLimits.coach),
    "leave": (Connection._on_leave, None),
}
"""Each message type (``messages.TYPES``, in its order): its handler, and the budget it spends
besides the message itself (a new game or room, or a coach's answer); a test walks it."""


async def game_socket(websocket: WebSocket) -> None:
    state = websocket.app.state
    settings: Settings = state.settings
    origin = websocket.headers.get("origin")
    await websocket.accept()
    if not origin_allowed(origin, websocket.scope.get("scheme", "ws"), websocket.headers.get("host"),
                          settings.origins):
        state.metrics.refused("origin")
        await websocket.close(1008, f"cross-site origin {origin[:60] if origin else ''} is not allowed")
        return
    limiter: Limiter = state.limiter
    address = websocket.client.host if websocket.client else "unknown"
    session = session_of(websocket)
    first: str | None = None
    try:
        limits = limiter.for_connection(address, None if session is None else session.player)
    except RateLimited as error:  # only a player coming back with its seat token is read on
        try:
            limits, first = await returning_player(websocket, state.hall, limiter, address, error)
        except RateLimited as refused:
            state.metrics.refused("connections")
            with contextlib.suppress(Exception):
                await websocket.close(1008, str(refused))
            return
    await Connection(websocket, state.hall, limits, settings).run(first)
