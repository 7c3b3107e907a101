"""The history page (``/history``): your finished games, each with its record, replay, review
and whether it is public."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from okgin.server.pages.public_games import Public, public_cell
from okgin.server.pages.template import render
from okgin.server.players.identity import Players
from okgin.server.players.sessions import session_of
from okgin.server.players.sharing import Shared, Sharing, people
from okgin.server.store.storage import Store


@dataclass(frozen=True)
class Finished:
    """One row of the page: a finished game as the page shows it."""
    id: str
    when: str
    winner: str
    scores: list[tuple[str, int]]
    hands: int
    public: Public


async def history_page(request: Request) -> Response:
    store: Store = request.app.state.store
    players: Players = request.app.state.players
    session = session_of(request)
    player = session.player if session else None
    finished = await anyio.to_thread.run_sync(store.finished, player) if player else []
    said = await anyio.to_thread.run_sync(Sharing(players.engine).said_in, [g.id for g in finished])
    mine = await anyio.to_thread.run_sync(players.games_of, player) if player else {}
    rows = []
    for game in finished:
        names = game.record.get("players", [])
        rows.append(Finished(
            id=game.id, when=datetime.datetime.fromtimestamp(game.updated).strftime("%Y-%m-%d %H:%M"),
            winner=names[game.winner] if game.winner is not None else "?",
            scores=list(zip(names, game.scores or (), strict=False)),
            hands=len(game.record.get("hands", [])),
            public=public_cell(Shared(people(game.levels), said[game.id]), mine.get(game.id))))
    return render(request, "history.html", games=rows, csrf=session.csrf if session else "")
