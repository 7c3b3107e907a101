"""The one frame of every plain HTML page (How to play, history, review, replay, statistics).

Every page works under ``default-src 'self'``: scripts and styles are static files."""

from __future__ import annotations

import html

from starlette.requests import Request
from starlette.responses import HTMLResponse

from okgin.server.players.identity import Session
from okgin.server.players.sessions import session_of

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Oklahoma Gin</title>
<link rel="stylesheet" href="/static/page.css">{styles}</head>
<body class="page"><header class="site"><a class="home" href="/">Oklahoma Gin</a>
<nav aria-label="Site"><a href="/">Play</a><a href="/#friends">Play with friends</a>
<a href="/t">Tournaments</a><a href="/leaderboard">Leaderboard</a>{you}</nav>
</header><main>{links}<h1>{title}</h1>{body}</main>{scripts}</body></html>
"""
SITE = ("Play", "Play with friends", "Tournaments", "Leaderboard")
"""The site frame's links, on every page (the table's header has the same: static/index.html),
and then ``you_link``: the signed-in player's name, or Sign in."""
BACK = ""
COACH = ('<p class=links><a href="/history">Finished games</a>'
         ' · <a href="/stats">Your statistics</a></p>')
"""The links above a coach's or a player's page (review, replay, statistics, profile)."""


def you_link(session: Session | None) -> str:
    """The frame's last link: a signed-in player's name (escaped) to their profile, or Sign in
    (the profile's sign-in form) for a guest. The session was read, with its account, by the
    Sessions middleware off the event loop: this reads no database."""
    shown = session.shown if session is not None else None
    if shown is None:
        return '<a href="/profile#sign-in" class="you">Sign in</a>'
    return f'<a href="/profile" class="you">{html.escape(shown)}</a>'


def page(
    request: Request, title: str, body: str, scripts: tuple[str, ...] = (), styles: tuple[str, ...] = (),
    links: str = BACK, status: int = 200,
) -> HTMLResponse:
    """The page ``title`` around ``body`` (HTML, already escaped), with the static ``scripts``
    (ES modules, each importing what it needs) and ``styles`` it needs and the ``links`` above it,
    inside the site frame (Play, Play with friends, Tournaments, Leaderboard, and the name of
    ``request``'s signed-in player or Sign in)."""
    tags = "".join(f'<script type="module" src="/static/{name}"></script>' for name in scripts)
    sheets = "".join(f'<link rel="stylesheet" href="/static/{name}">' for name in styles)
    text = _PAGE.format(title=html.escape(title), body=body, scripts=tags, styles=sheets, links=links,
                        you=you_link(session_of(request)))
    return HTMLResponse(text, status_code=status)
