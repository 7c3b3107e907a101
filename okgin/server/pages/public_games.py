"""Making a game public: each player's yes (or taking it back) from History, and what it says."""

from __future__ import annotations

from dataclasses import dataclass

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.template import message
from okgin.server.players.identity import Players
from okgin.server.players.sharing import NotYours, Shared, Sharing


def public_routes() -> list[BaseRoute]:
    return [Route("/games/{game:id}/public", say_public, methods=["POST"])]


async def say_public(request: Request) -> Response:
    """POST /games/<id>/public, ``public=yes`` or ``no``: this player's seat says so."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return refused.page(request)
    choice = fields.get("public")
    if choice not in ("yes", "no"):
        return message(request, "Finished games", "Public must be yes or no.", 400, error=True)
    players: Players = request.app.state.players
    try:
        await anyio.to_thread.run_sync(Sharing(players.engine).say, session.player,
                                       request.path_params["game"], choice == "yes")
    except NotYours:
        return message(request, "Finished games", "No game of yours with that id.", 404, error=True)
    return RedirectResponse("/history", status_code=303)


@dataclass(frozen=True)
class Public:
    """History's cell for a game: whether it is public (``said``), and the button of the seat
    looking (``button``: the ``public`` its form sends, "yes" or "no"; None: no button)."""
    said: str
    button: str | None


def public_cell(shared: Shared, mine: int | None) -> Public:
    """Whether a game is public, who is still to say yes, and what the seat ``mine`` may say."""
    if shared.public:
        said = "public: anyone with its link may see it"
    elif shared.waiting and mine in shared.said:
        others = "player says" if shared.waiting == 1 else "players say"
        said = f"private until {shared.waiting} more {others} yes"
    else:
        said = "private"
    if mine is None or mine not in shared.people:
        return Public(said, None)
    return Public(said, "yes" if mine not in shared.said else "no")
