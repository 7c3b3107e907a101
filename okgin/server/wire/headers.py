"""HTTP security: the allowed host names, headers on every response (strict CSP, no framing,
nosniff), and the WebSocket's Origin check."""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_HOSTS = ("127.0.0.1", "localhost")
"""The host names served when none are given: the default listen address and localhost."""

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    # Scripts and styles come only from our own files: the pages hold no inline code.
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none';"
     b" form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
)


class SecurityHeaders:
    """ASGI middleware: ``HEADERS`` on every HTTP response, and every request (HTTP or WebSocket)
    refused with 400 (``_refuse``) unless its Host is one of ``hosts``: a page on a DNS-rebinding name
    (evil.example resolving to this server) never reaches the game. ``/healthz`` answers any
    Host: a proxy checks each process by whatever address it knows, and it holds nothing."""

    OPEN_PATHS = frozenset({"/healthz"})

    def __init__(self, app: ASGIApp, hosts: Collection[str] = DEFAULT_HOSTS) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host")
        refusal = None if scope["path"] in self.OPEN_PATHS else self._refusal(host)
        if refusal is not None:
            await _refuse(scope, receive, send, refusal)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _refusal(self, host: str | None) -> str | None:
        """Why a request with this Host header is refused, or None."""
        parsed = host_port(host)
        if parsed is None:
            return f"the Host header {(host or '')[:60]!r} is not a host name"
        if parsed[0] not in self.hosts:
            return (f"{parsed[0][:60]} is not one of this server's host names"
                    " (okgin serve --allowed-host NAME)")
        return None


async def _refuse(scope: Scope, receive: Receive, send: Send, refusal: str) -> None:
    """A 400 saying why. A WebSocket gets it before its upgrade only where the server has ASGI's
    ``websocket.http.response`` extension (uvicorn does); elsewhere it is closed before the
    accept, which the server answers 403 (ASGI's own refusal), so no server ever logs an error
    for a knock with a wrong Host."""
    if scope["type"] == "websocket" and "websocket.http.response" not in scope.get("extensions", {}):
        reason = refusal.encode()[:120].decode(errors="ignore")  # a close reason: at most 123 bytes
        await send({"type": "websocket.close", "code": 1008, "reason": reason})
        return
    await PlainTextResponse(refusal + "\n", status_code=400)(scope, receive, send)


def host_port(host: str | None) -> tuple[str, int | None] | None:
    """A Host header's name (lower case, IPv6 without brackets) and port; None if malformed."""
    if not host:
        return None
    try:
        split = urlsplit("//" + host)
        port = split.port
    except ValueError:
        return None
    name = split.hostname
    if not name or split.path or split.query or split.username is not None:
        return None
    return name, port


DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _origin(scheme: str, host: str | None) -> tuple[str, str, int | None] | None:
    """(scheme, host, port) with the scheme's default port filled in; None if malformed."""
    parsed = host_port(host)
    if parsed is None or scheme not in DEFAULT_PORTS:
        return None
    name, port = parsed
    return scheme, name, port if port is not None else DEFAULT_PORTS[scheme]


def origin_allowed(
    origin: str | None, scheme: str, host: str | None, allowed: Collection[str] = frozenset(),
) -> bool:
    """May a page from ``origin`` open our WebSocket, reached as ``scheme``://``host``?

    The page's own origin, compared in full (scheme, host and port: https://HOST is not
    http://HOST), or one of the ``allowed`` origins (okgin serve --origin). No Origin at all is a
    program, not a browser page (browsers always send one): a program could send any Origin it
    liked, so refusing it would protect nobody.
    """
    if origin is None:
        return True
    page = _origin_of(origin)
    if page is None:
        return False
    if page in {_origin_of(other) for other in allowed}:
        return True
    own = _origin("https" if scheme in ("https", "wss") else "http", host)
    return own is not None and page == own


def _origin_of(text: str) -> tuple[str, str, int | None] | None:
    try:
        split = urlsplit(text)
    except ValueError:
        return None
    if split.path or split.query or split.fragment:
        return None
    return _origin(split.scheme.lower(), split.netloc)
