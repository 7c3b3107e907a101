"""The profile's forms for computer players written by others (docs/api.md): make the account a
bot account (for ever), make a personal API token (shown once), revoke one (at once).

Each is a POST from the profile page's own forms (Origin and CSRF token checked by
``read_form``); a refusal is the profile page again with one line beside the form, nothing changed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.errors import sentence
from okgin.server.pages.account import Handler, Refused
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.template import message
from okgin.server.players.api_tokens import ApiTokens, TokenError
from okgin.server.players.bots import BotAccounts, BotError
from okgin.server.players.identity import Session

log = logging.getLogger("okgin.server")
Shown = Callable[[Request, Session, str], Awaitable[Response]]
"""The profile page showing a new token once: the request, its session, the token."""


def bot_account_routes(refused: Refused, shown: Shown) -> list[BaseRoute]:
    async def make_bot(request: Request) -> Response:
        return await _form(request, refused, "/account/bot", _make_bot)

    async def make_token(request: Request) -> Response:
        async def made(request: Request, session: Session, fields: dict[str, str]) -> Response:
            tokens = ApiTokens(request.app.state.players.engine)
            token = await anyio.to_thread.run_sync(tokens.create, session.player)
            log.info("an API token was made")
            return await shown(request, session, token)
        return await _form(request, refused, "/account/tokens", made)

    async def revoke(request: Request) -> Response:
        return await _form(request, refused, "/account/tokens/revoke", _revoke)

    return [Route("/account/bot", make_bot, methods=["POST"]),
            Route("/account/tokens", make_token, methods=["POST"]),
            Route("/account/tokens/revoke", revoke, methods=["POST"])]



async def _form(request: Request, refused: Refused, action: str, handler: Handler) -> Response:
    try:
        session, fields = await read_form(request)
    except FormRefused as refusal:
        return refusal.page(request)
    try:
        return await handler(request, session, fields)
    except (BotError, TokenError) as error:
        status = getattr(error, "status", 400)
        if session.username is None or not getattr(error, "beside", True):  # no form to say it beside
            return message(request, "Your profile", sentence(str(error)), status, error=True)
        return await refused(request, session, action, str(error), status)


async def _make_bot(request: Request, session: Session, fields: dict[str, str]) -> Response:
    if fields.get("confirm") != "yes":
        raise BotError("tick the box to say you understand it cannot be undone")
    await anyio.to_thread.run_sync(BotAccounts(request.app.state.players.engine).make_bot, session.player)
    log.info("an account was made a bot account")
    return RedirectResponse("/profile", status_code=303)


async def _revoke(request: Request, session: Session, fields: dict[str, str]) -> Response:
    tokens = ApiTokens(request.app.state.players.engine)
    await anyio.to_thread.run_sync(tokens.revoke, session.player, fields.get("token", ""))
    return RedirectResponse("/profile", status_code=303)
