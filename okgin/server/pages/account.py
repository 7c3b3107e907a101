"""The account forms behind the profile page: make one, sign in and out, password, delete.

Each is a POST from the profile page's own forms (Origin and CSRF token checked by
``read_form``); each answers with a redirect to a page, or the profile page with one line
saying what was wrong, having changed nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.players.accounts import AccountError, Accounts
from okgin.server.players.identity import Session
from okgin.server.players.sessions import cookie_header, user_agent

log = logging.getLogger("okgin.server")
Handler = Callable[[Request, Session, dict[str, str]], Awaitable[Response]]


Refused = Callable[[Request, Session, str, str, int], Awaitable[Response]]
"""The profile page answering a refusal: the request, its session, the refused form's action,
the message (beside that form) and the status."""


def account_routes(profile: Refused) -> list[BaseRoute]:
    """The routes, answering refusals with ``profile``."""
    def route(path: str, handler: Handler) -> Route:
        async def endpoint(request: Request) -> Response:
            try:
                session, fields = await read_form(request)
            except FormRefused as refused:
                return refused.page(request)
            try:
                return await handler(request, session, fields)
            except AccountError as error:
                return await profile(request, session, path, str(error), error.status)
        return Route(path, endpoint, methods=["POST"])

    return [route("/account/create", _create), route("/account/sign-in", _sign_in),
            route("/account/sign-out", _sign_out), route("/account/sign-out-others", _sign_out_others),
            route("/account/password", _password), route("/account/delete", _delete)]


def _accounts(request: Request) -> Accounts:
    return Accounts(request.app.state.players)


def _to(path: str, request: Request, session_id: str | bool | None = False) -> Response:
    """A redirect; with ``session_id`` a new cookie (None: the cookie taken away)."""
    answer = RedirectResponse(path, status_code=303)
    if session_id is not False:
        assert not isinstance(session_id, bool)
        secure: bool = request.app.state.secure_cookies
        answer.raw_headers.append((b"set-cookie", cookie_header(session_id, secure)))
    return answer


async def _create(request: Request, session: Session, fields: dict[str, str]) -> Response:
    agent = user_agent(request.scope)
    _new, cookie = await anyio.to_thread.run_sync(
        _accounts(request).create, session, fields.get("username"), fields.get("password", ""), agent)
    log.info("an account was made")
    return _to("/profile", request, cookie)


async def _sign_in(request: Request, session: Session, fields: dict[str, str]) -> Response:
    accounts = _accounts(request)
    username, password = fields.get("username"), fields.get("password", "")
    address = request.client.host if request.client else "unknown"
    await anyio.to_thread.run_sync(accounts.check_address, address)  # refused at once: no delay
    await asyncio.sleep(await anyio.to_thread.run_sync(accounts.delay, username))
    _new, cookie = await anyio.to_thread.run_sync(
        accounts.sign_in, session, username, password, address, user_agent(request.scope))
    return _to("/profile", request, cookie)


async def _sign_out(request: Request, session: Session, _fields: dict[str, str]) -> Response:
    await anyio.to_thread.run_sync(_accounts(request).sign_out, session, False)
    return _to("/", request, None)


async def _sign_out_others(request: Request, session: Session, _fields: dict[str, str]) -> Response:
    await anyio.to_thread.run_sync(_accounts(request).sign_out, session, True)
    return _to("/profile", request)


async def _password(request: Request, session: Session, fields: dict[str, str]) -> Response:
    await anyio.to_thread.run_sync(_accounts(request).change_password, session,
                                   fields.get("current", ""), fields.get("password", ""))
    return _to("/profile", request)


async def _delete(request: Request, session: Session, fields: dict[str, str]) -> Response:
    await anyio.to_thread.run_sync(_accounts(request).delete, session, fields.get("password", ""))
    log.info("an account was deleted")
    return _to("/", request, None)
