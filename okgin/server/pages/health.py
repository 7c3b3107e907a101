"""/healthz: whether this process can serve a game now (its database answers), for a proxy."""

from __future__ import annotations

import anyio.to_thread
from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from okgin.server.rooms.live import PROCESS
from okgin.server.store.storage import Store


async def healthz(request: Request) -> Response:
    """200 with this process's name when its database answers a query; 503 when it does not."""
    store: Store = request.app.state.store
    try:
        await anyio.to_thread.run_sync(_ping, store)
    except Exception as error:  # any failure of the store: unhealthy, and why, in one line
        return JSONResponse({"status": "unavailable", "why": type(error).__name__,
                             "process": PROCESS}, status_code=503)
    return JSONResponse({"status": "ok", "process": PROCESS})


def _ping(store: Store) -> None:
    with store.engine.connect() as connection:
        connection.execute(text("SELECT 1"))
