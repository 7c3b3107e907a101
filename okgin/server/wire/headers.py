"""HTTP security: headers on every response (strict CSP, no framing, nosniff), and the Origin check."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
    """ASGI middleware adding ``HEADERS`` to every HTTP response (WebSockets pass through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str] = frozenset()) -> bool:
    """May a page from ``origin`` open our WebSocket? Same host as the page, or a listed origin.

    No Origin at all is a program, not a browser page (browsers always send one): a program
    could send any Origin it liked, so refusing it would protect nobody.
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()
