"""The Tables page (``/tables``): the open tables waiting for players, each joined with one click,
and the public games being played now, best-rated first, each watched with one click; and its
live part (``/tables/live``), which the page's script fetches again every few seconds.

Both lists are read from the store (``table_lists``), the same for every process; a process reads
them at most once a second however many pages ask (``Latest``), so a thousand pages watching the
list cost the database one read a second.
"""

from __future__ import annotations

import asyncio
import time

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.server.pages.table_lists import Lists, read_lists
from okgin.server.pages.template import fragment, render
from okgin.server.players.rating_store import RatingStore
from okgin.server.rooms.hall import Hall

FRESH = 1.0
"""Seconds a process shows the lists it read before reading them again."""
REFRESH = 3
"""Seconds between two fetches of the live part by the page's script (static/tables.js)."""


def table_routes() -> list[BaseRoute]:
    return [Route("/tables", tables_page), Route("/tables/live", live_part)]


class Latest:
    """The lists as last read, read again when older than ``FRESH`` seconds (one read at a time)."""

    def __init__(self) -> None:
        self._read: tuple[float, Lists] | None = None
        self._lock = asyncio.Lock()

    async def lists(self, hall: Hall, ratings: RatingStore) -> Lists:
        async with self._lock:
            if self._read is None or time.monotonic() - self._read[0] >= FRESH:
                lists = await anyio.to_thread.run_sync(read_lists, hall.services.rooms, ratings)
                self._read = (time.monotonic(), lists)
            return self._read[1]


async def _lists(request: Request) -> Lists:
    state = request.app.state
    latest: Latest = state.table_lists
    return await latest.lists(state.hall, state.ratings)


async def tables_page(request: Request) -> Response:
    lists = await _lists(request)
    return render(request, "tables.html", lists=lists, refresh=REFRESH)


async def live_part(request: Request) -> Response:
    """Both lists alone, for the page's script to show again."""
    body = fragment("tables_live.html", lists=await _lists(request))
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})
