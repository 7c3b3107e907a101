"""The ASGI app: routes, and the store and games it shares with every request."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

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


def create_app(db_url: str = DEFAULT_URL, allow_seeds: bool = False) -> Starlette:
    """The web game, storing games at ``db_url`` (any SQLAlchemy URL).

    ``allow_seeds`` honours a client's ``seed`` (tests only: a seed lets a client know the deals).
    """
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
        WebSocketRoute("/ws", game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    app.state.store = store
    app.state.games = games
    app.state.allow_seeds = allow_seeds
    return app
