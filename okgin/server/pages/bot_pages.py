"""The bots' pages: the list of bot accounts (``/bots``), a bot's page (``/bots/<username>``,
marked BOT, its rating in the bots' pool, the form to challenge it: rules and target), and a
challenge's own page (``/challenges/<id>``, its challenger's only), which waits for the bot's
answer and, once it accepts, leads to the table (a friends' room, the coach off: rated).
"""

from __future__ import annotations

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.errors import sentence
from okgin.rules import PRESETS
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.leaderboard import BOT_TITLES
from okgin.server.pages.template import message, render
from okgin.server.players.bots import Bot, BotAccounts
from okgin.server.players.challenges import (
    CHALLENGE_LIFE,
    TARGETS,
    TWO_SEATS,
    ChallengeError,
    Challenges,
    read_rules,
)
from okgin.server.players.rating_store import RatingStore
from okgin.server.players.ratings import PROVISIONAL
from okgin.server.players.sessions import session_of
from okgin.server.tournaments.words import preset_name

WAIT_REFRESH = 2
"""Seconds between a waiting challenge page's looks (a refresh: no script)."""


def bot_routes() -> list[BaseRoute]:
    return [
        Route("/bots", bots_page),
        Route("/bots/{username}", bot_page),
        Route("/bots/{username}/challenge", challenge, methods=["POST"]),
        Route("/challenges/{challenge:id}", challenge_page),
    ]


async def bots_page(request: Request) -> Response:
    bots = await anyio.to_thread.run_sync(BotAccounts(request.app.state.players.engine).listed)
    return render(request, "bots.html", bots=bots)


async def _bot(request: Request) -> Bot | None:
    username = request.path_params["username"]
    if not 3 <= len(username) <= 30:
        return None
    return await anyio.to_thread.run_sync(BotAccounts(request.app.state.players.engine).by_username, username)


async def bot_page(request: Request, refusal: str = "", status: int = 200) -> Response:
    bot = await _bot(request)
    if bot is None:
        return message(request, "No such bot", "There is no bot account by that name.", 404)
    rated: RatingStore = request.app.state.ratings
    ratings = await anyio.to_thread.run_sync(rated.ratings_of, bot.player)
    session = session_of(request)
    return render(request, "bot.html", status, bot=bot, ratings=ratings, titles=BOT_TITLES,
                  provisional=PROVISIONAL, presets=[(name, preset_name(name), PRESETS[name].target)
                                                    for name in TWO_SEATS],
                  targets=TARGETS, csrf=session.csrf if session is not None else None,
                  own=session is not None and session.player == bot.player,
                  refusal=sentence(refusal) if refusal else "")


async def challenge(request: Request) -> Response:
    """POST /bots/<username>/challenge: a pending challenge; its page waits for the answer."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return refused.page(request)
    bot = await _bot(request)
    if bot is None:
        return message(request, "No such bot", "There is no bot account by that name.", 404)
    try:
        rules = read_rules(fields.get("preset"), fields.get("target"))
        ident = await anyio.to_thread.run_sync(
            Challenges(request.app.state.players.engine).create, session.player, bot.player, rules)
    except ChallengeError as error:
        return await bot_page(request, str(error), error.status)
    return RedirectResponse(f"/challenges/{ident}", status_code=303)


async def challenge_page(request: Request) -> Response:
    session = session_of(request)
    engine = request.app.state.players.engine
    found = await anyio.to_thread.run_sync(Challenges(engine).get, request.path_params["challenge"])
    if found is None or session is None or found.challenger != session.player:
        return message(request, "No such challenge", "There is no challenge of yours by that link.", 404)
    if found.status == "accepted" and found.room is not None:
        return RedirectResponse(f"/r/{found.room}", status_code=303)
    bot = await anyio.to_thread.run_sync(BotAccounts(engine).name_of, found.bot)
    return render(request, "challenge.html", challenge=found, bot=bot, refresh=WAIT_REFRESH,
                  minutes=round(CHALLENGE_LIFE / 60), preset=preset_name(found.rules.preset or "house"))
