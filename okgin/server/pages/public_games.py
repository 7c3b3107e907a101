"""Making a game public: each player's yes (or taking it back) from History, and what it says."""

from __future__ import annotations

import html

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.template import page
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
        return page(request, "Finished games", "<p class=error role=alert>public must be yes or no</p>",
                    status=400)
    players: Players = request.app.state.players
    try:
        await anyio.to_thread.run_sync(Sharing(players.engine).say, session.player,
                                       request.path_params["game"], choice == "yes")
    except NotYours:
        return page(request, "Finished games", "<p class=error role=alert>No game of yours with that id.</p>",
                    status=404)
    return RedirectResponse("/history", status_code=303)


def public_cell(game: str, shared: Shared, mine: int | None, csrf: str) -> str:
    """History's cell for a game: whether it is public, who is still to say yes, and the
    button that says yes (or takes it back) for the seat ``mine``."""
    if shared.public:
        said = "public: anyone with its link may see it"
    elif shared.waiting and mine in shared.said:
        others = "player says" if shared.waiting == 1 else "players say"
        said = f"private until {shared.waiting} more {others} yes"
    else:
        said = "private"
    if mine is None or mine not in shared.people:
        return said
    yes = mine not in shared.said
    return (f'{said} <form method="post" action="/games/{html.escape(game)}/public" class=inline>'
            f'<input type="hidden" name="csrf" value="{html.escape(csrf)}">'
            f'<input type="hidden" name="public" value="{"yes" if yes else "no"}">'
            f'<button type=submit>{"Make public" if yes else "Make private"}</button></form>')
