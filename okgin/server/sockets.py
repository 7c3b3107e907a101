"""The WebSocket endpoint: one connection per open page, watching one game's seat.

Each connection has an outbox drained by one writer, so acknowledgements and states go
out in the order they were made. Bad messages get an error answer and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from okgin.errors import OkginError
from okgin.rules import Rules
from okgin.server.games import Game, Games, Watcher
from okgin.server.protocol import (
    Message,
    ProtocolError,
    error_json,
    opponents_field,
    parse_message,
    seed_field,
    text_field,
)

log = logging.getLogger("okgin.server")


class Connection:
    """One open page: its socket, its outbox, and the game it watches."""

    def __init__(self, websocket: WebSocket, games: Games) -> None:
        self.websocket = websocket
        self.games = games
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.watcher = Watcher(self.outbox.put_nowait)
        self.game: Game | None = None

    async def run(self) -> None:
        await self.websocket.accept()
        writer = asyncio.create_task(self._write())
        try:
            while True:
                received = await self.websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                await self._handle(received.get("text") if "text" in received else received.get("bytes"))
        except WebSocketDisconnect:
            pass
        finally:
            self._leave()
            self.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer

    async def _write(self) -> None:
        while (message := await self.outbox.get()) is not None:
            try:
                await self.websocket.send_json(message)
            except Exception:  # the page went away; the reader will notice
                return

    async def _handle(self, text: Any) -> None:
        ident: int | None = None
        try:
            message = parse_message(text)
            ident = message.id
            await self._dispatch(message)
        except OkginError as error:
            self.outbox.put_nowait(error_json(str(error), ident))
        except Exception:  # never a traceback to the page; the server keeps running
            log.exception("error handling a message")
            self.outbox.put_nowait(error_json("the server could not do that", ident))

    async def _dispatch(self, message: Message) -> None:
        kind = message.type
        if kind == "options":
            self.watcher.coach = bool(message.data.get("coach", False))
            if self.game is not None:
                self.outbox.put_nowait(self.game.state(self.watcher))
            return
        if kind == "new":
            rules = Rules.from_json(message.data.get("rules", "oklahoma"))
            seed = seed_field(message) if self.websocket.app.state.allow_seeds else None
            game = self.games.new(rules, opponents_field(message), seed)
            self._watch(game)
            return
        if kind == "join":
            found = self.games.get(text_field(message, "game"))
            if found is None:
                raise ProtocolError("no such game: start a new game")
            self._watch(found)
            return
        game = self._current()
        if kind == "act":
            await game.act(text_field(message, "action"))
        elif kind == "next":
            await game.next_hand()
        else:
            self.outbox.put_nowait({"type": "hint", "id": message.id, "text": game.hint()})
            return
        self.outbox.put_nowait({"type": "ack", "id": message.id})

    def _current(self) -> Game:
        if self.game is None:
            raise ProtocolError('no game yet: send {"type": "new"} or {"type": "join", "game": id}')
        return self.game

    def _watch(self, game: Game) -> None:
        self._leave()
        self.game = game
        game.watchers.add(self.watcher)
        self.outbox.put_nowait({"type": "joined", "game": game.id})
        self.outbox.put_nowait(game.state(self.watcher))
        game.wake_bots()

    def _leave(self) -> None:
        if self.game is not None:
            self.game.leave(self.watcher)
            self.game = None


async def game_socket(websocket: WebSocket) -> None:
    games: Games = websocket.app.state.games
    await Connection(websocket, games).run()
