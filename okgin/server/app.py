"""The ASGI app: routes, and the store and games it shares with every request."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from okgin.server.coach_routes import coach_routes
from okgin.server.games import Games
from okgin.server.pages import (
    STATIC,
    history_page,
    howto_page,
    index,
    record_download,
    rules_api,
)
from okgin.server.sockets import game_socket
from okgin.server.storage import DEFAULT_URL, Store


def create_app(db_url: str = DEFAULT_URL) -> Starlette:
    """The web game, storing games at ``db_url`` (any SQLAlchemy URL)."""
    store = Store(db_url)
    games = Games(store)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        games.thinking.close()
        store.close()

    app = Starlette(lifespan=lifespan, routes=[
        Route("/", index),
        Route("/how-to-play", howto_page),
        Route("/history", history_page),
        Route("/games/{game}/record", record_download),
        Route("/api/rules", rules_api),
        *coach_routes(),
        WebSocketRoute("/ws", game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.store = store
    app.state.games = games
    return app
