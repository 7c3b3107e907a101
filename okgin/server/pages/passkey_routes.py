"""The passkey endpoints the profile page's script calls (JSON), and the form that removes one.

``/account/passkeys/register/options`` and ``…/register``, ``/account/passkeys/sign-in/options``
and ``…/sign-in``: each a POST from our page (Origin and the ``X-CSRF-Token`` header checked by
``read_json``), answered with JSON: the options for the browser, or ``{"ok": …}`` and where to
go, or ``{"error": …}`` with its status, having changed nothing.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Awaitable, Callable

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.server.pages.account import Refused
from okgin.server.pages.forms import FormRefused, read_form, read_json
from okgin.server.players.accounts import AccountError, Accounts
from okgin.server.players.identity import Session
from okgin.server.players.passkeys import Party, Passkeys
from okgin.server.players.sessions import cookie_header, user_agent
from okgin.server.wire.headers import DEFAULT_PORTS, host_port

log = logging.getLogger("okgin.server")
Handler = Callable[[Request, Session, dict[str, object]], Awaitable[Response]]


def passkey_routes(profile: Refused) -> list[BaseRoute]:
    """The routes; the removal form's refusals are answered with ``profile``."""
    def route(path: str, handler: Handler) -> Route:
        async def endpoint(request: Request) -> Response:
            try:
                session, body = await read_json(request)
                return await handler(request, session, body)
            except (FormRefused, AccountError) as error:
                return JSONResponse({"error": str(error)}, status_code=error.status)
        return Route(path, endpoint, methods=["POST"])

    async def remove(request: Request) -> Response:
        try:
            session, fields = await read_form(request)
        except FormRefused as refused:
            return refused.page(request)
        try:
            await anyio.to_thread.run_sync(_passkeys(request).remove, session, fields.get("passkey"))
        except AccountError as error:
            return await profile(request, session, "/account/passkeys/remove", str(error), error.status)
        return RedirectResponse("/profile", status_code=303)

    return [route("/account/passkeys/register/options", _register_options),
            route("/account/passkeys/register", _register),
            route("/account/passkeys/sign-in/options", _sign_in_options),
            route("/account/passkeys/sign-in", _sign_in),
            Route("/account/passkeys/remove", remove, methods=["POST"])]


def party_of(request: Request) -> Party:
    """The relying party for this request: its host name, when that is one of the server's
    allowed host names and not an IP address (WebAuthn refuses those); the page's own origin,
    and those allowed with ``okgin serve --origin``."""
    parsed = host_port(request.headers.get("host"))
    hosts: frozenset[str] = request.app.state.hosts
    if parsed is None or parsed[0] not in hosts:
        raise AccountError("passkeys need this server reached by one of its host names")
    name, port = parsed
    try:
        ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        raise AccountError("passkeys need this server reached by its name (such as localhost), "
                           "not by an IP address")
    scheme = request.url.scheme
    shown = f":{port}" if port is not None and port != DEFAULT_PORTS.get(scheme) else ""
    allowed: frozenset[str] = request.app.state.settings.origins
    return Party(name, (f"{scheme}://{name}{shown}", *sorted(allowed)))


def _passkeys(request: Request) -> Passkeys:
    return Passkeys(Accounts(request.app.state.players))


def _json(text: str) -> Response:
    return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})


async def _register_options(request: Request, session: Session, _body: dict[str, object]) -> Response:
    party = party_of(request)
    return _json(await anyio.to_thread.run_sync(_passkeys(request).registration_options, session, party))


async def _register(request: Request, session: Session, body: dict[str, object]) -> Response:
    party = party_of(request)
    key = await anyio.to_thread.run_sync(
        _passkeys(request).register, session, party, body.get("credential"), body.get("name"))
    log.info("a passkey was added")
    return JSONResponse({"ok": f"the passkey “{key.name}” is added: sign in with it on any device that"
                         " holds it", "to": "/profile"})


async def _sign_in_options(request: Request, session: Session, _body: dict[str, object]) -> Response:
    party = party_of(request)
    return _json(await anyio.to_thread.run_sync(_passkeys(request).sign_in_options, session, party))


async def _sign_in(request: Request, session: Session, body: dict[str, object]) -> Response:
    party = party_of(request)
    address = request.client.host if request.client else "unknown"
    agent = user_agent(request.scope)
    _new, cookie = await anyio.to_thread.run_sync(
        _passkeys(request).sign_in, session, party, body.get("credential"), address, agent)
    answer = JSONResponse({"ok": "signed in with your passkey", "to": "/profile"})
    secure: bool = request.app.state.secure_cookies
    answer.raw_headers.append((b"set-cookie", cookie_header(cookie, secure)))
    return answer
