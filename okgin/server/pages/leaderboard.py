"""The leaderboard page (`/leaderboard`): the best 100 of each rating family, your own place, and
the daily deal's week's best (docs/daily.md)."""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from okgin.server.pages.daily_results import week_best, week_of
from okgin.server.pages.template import render
from okgin.server.players.rating_store import TOP, RatingStore
from okgin.server.players.ratings import FAMILIES, PROVISIONAL, SHOWN_NEW
from okgin.server.players.sessions import session_of

TITLES = {"two-player": "Two-player rules", "multi-player": "Multi-player rules (3 or 4 seats)"}
BOT_TITLES = {"bot-two-player": "Bots' pool, two-player rules",
              "bot-multi-player": "Bots' pool, multi-player rules (3 or 4 seats)"}
"""A bot account's own rating pool (``players.bots``): shown on its pages, never on the leaderboard."""


async def leaderboard_page(request: Request) -> Response:
    rated: RatingStore = request.app.state.ratings
    session = session_of(request)
    player = session.player if session is not None else None
    boards, standings = await anyio.to_thread.run_sync(rated.boards, player)
    today = request.app.state.settings.clock.today()
    week, yours = await anyio.to_thread.run_sync(week_best, request.app.state.daily, today, player)
    return render(request, "leaderboard.html", boards=boards, standings=standings, families=FAMILIES,
                  titles=TITLES, top=TOP, new=SHOWN_NEW, provisional=PROVISIONAL,
                  named=bool(session is not None and session.name), week=week,
                  monday=week_of(today)[0].isoformat(), yours=yours)
