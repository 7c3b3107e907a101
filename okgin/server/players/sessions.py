"""The session cookie: every browser is a guest player from its first page, known on every request.

``Sessions`` is ASGI middleware. A request (HTTP or WebSocket) whose cookie names a live
session carries it in ``scope["okgin.session"]``; a page opened without one makes a new guest
and sets the cookie (HttpOnly, SameSite=Lax, Secure when served over https), if its address
may make one more (``may_make_guest``: a flooder could otherwise make itself players without
end; past it the page is served without a session, and plays as an anonymous page). Static
files, health and metrics never touch the sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from http.cookies import SimpleCookie

import anyio.to_thread
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from okgin.server.players.identity import Players, Session

COOKIE = "okgin_session"
KEY = "okgin.session"
MAX_AGE = 400 * 24 * 3600
"""The cookie's life (browsers cap it at 400 days); the session row lasts until signed out."""
PAGES = ("/", "/history", "/stats", "/profile", "/t", "/play-online", "/bots", "/daily", "/puzzles")
"""The pages that make a guest when opened without a session (and /r/<code>, a room's link,
/t/<code>, a tournament's, /bots/<username>, a bot's, to challenge it, and /puzzles/<id>, a
puzzle's, to answer it)."""
_SKIP = ("/static/", "/healthz", "/metrics")


class Sessions:
    """ASGI middleware: the request's session in ``scope[KEY]``; a new guest on a page's first visit."""

    def __init__(self, app: ASGIApp, players: Players, secure: bool = False,
                 may_make_guest: Callable[[str], bool] = lambda _address: True) -> None:
        self.app = app
        self.players = players
        self.secure = secure
        self.may_make_guest = may_make_guest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"].startswith(_SKIP):
            await self.app(scope, receive, send)
            return
        session_id = _cookie(scope)
        session = await anyio.to_thread.run_sync(self.players.session, session_id) if session_id else None
        new_id: str | None = None
        if session is None and _makes_guest(scope) and self.may_make_guest(_address(scope)):
            session, new_id = await anyio.to_thread.run_sync(self.players.new_guest, user_agent(scope))
        scope[KEY] = session
        if new_id is None:
            await self.app(scope, receive, send)
            return
        header = cookie_header(new_id, self.secure)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", header)]
            await send(message)

        await self.app(scope, receive, send_with_cookie)



def cookie_header(session_id: str | None, secure: bool) -> bytes:
    """The Set-Cookie value that gives a browser ``session_id`` (None: takes its cookie away)."""
    flags = f"Path=/; HttpOnly; SameSite=Lax{'; Secure' if secure else ''}"
    if session_id is None:
        return f"{COOKIE}=; Max-Age=0; {flags}".encode("latin-1")
    return f"{COOKIE}={session_id}; Max-Age={MAX_AGE}; {flags}".encode("latin-1")


def user_agent(scope: Scope) -> str:
    """The browser's own name for itself (User-Agent), cut to 120 characters, for the device list."""
    for name, value in scope.get("headers", ()):
        if name == b"user-agent":
            return str(value.decode("latin-1"))[:120]
    return ""


def session_of(connection: HTTPConnection) -> Session | None:
    """The session of a request or a WebSocket (None: no cookie, or one signed out)."""
    session = connection.scope.get(KEY)
    return session if isinstance(session, Session) else None


def player_of(connection: HTTPConnection) -> str | None:
    session = session_of(connection)
    return None if session is None else session.player


def player_or_address(connection: HTTPConnection) -> str:
    """Whose budget a request spends: its session's player, else its address."""
    return player_of(connection) or (connection.client.host if connection.client else "")


def _cookie(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header is no session, not an error page
                return None
            if COOKIE in jar:
                return jar[COOKIE].value
    return None


def _makes_guest(scope: Scope) -> bool:
    path: str = scope["path"]
    # A tournament's own page (/t/<code>), not its live part or its data: a program polling
    # those without a cookie makes no guest at every look.
    page = path.startswith(("/r/", "/bots/", "/puzzles/"))
    page = page or (path.startswith("/t/") and path.count("/") == 2)
    return scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and (path in PAGES or page)


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
