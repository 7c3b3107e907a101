"""The one frame of every plain HTML page (How to play, history, review, replay, statistics).

Every page works under ``default-src 'self'``: scripts and styles are static files."""

from __future__ import annotations

import html

from starlette.responses import HTMLResponse

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Oklahoma Gin</title>
<link rel="stylesheet" href="/static/page.css">{styles}</head>
<body class="page"><header class="site"><a class="home" href="/">Oklahoma Gin</a>
<nav aria-label="Site"><a href="/">Play</a><a href="/#friends">Play with friends</a>
<a href="/t">Tournaments</a><a href="/leaderboard">Leaderboard</a><a href="/profile">Your profile</a></nav>
</header><main>{links}<h1>{title}</h1>{body}</main>{scripts}</body></html>
"""
SITE = ("Play", "Play with friends", "Tournaments", "Leaderboard", "Your profile")
"""The site frame's links, on every page (the table's header has the same: static/index.html)."""
BACK = ""
COACH = ('<p class=links><a href="/history">Finished games</a>'
         ' · <a href="/stats">Your statistics</a></p>')
"""The links above a coach's or a player's page (review, replay, statistics, profile)."""


def page(
    title: str, body: str, scripts: tuple[str, ...] = (), styles: tuple[str, ...] = (),
    links: str = BACK, status: int = 200,
) -> HTMLResponse:
    """The page ``title`` around ``body`` (HTML, already escaped), with the static ``scripts``
    (ES modules, each importing what it needs) and ``styles`` it needs and the ``links`` above it,
    inside the site frame (Play, Play with friends, Tournaments, Leaderboard, Your profile)."""
    tags = "".join(f'<script type="module" src="/static/{name}"></script>' for name in scripts)
    sheets = "".join(f'<link rel="stylesheet" href="/static/{name}">' for name in styles)
    text = _PAGE.format(title=html.escape(title), body=body, scripts=tags, styles=sheets, links=links)
    return HTMLResponse(text, status_code=status)
