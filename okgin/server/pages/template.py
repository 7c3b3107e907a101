"""The pages' templates (``templates/``, Jinja2 through Starlette's ``Jinja2Templates``): every
value put into a page is escaped unless a template says otherwise, so a name is always text,
never markup. ``base.html`` is the one frame of every page off the table (Play, Play online,
Play with friends, Tables, Tournaments, Leaderboard, Puzzles, and your name or Sign in); each page's
template extends it.

Every page works under ``default-src 'self'``: scripts and styles are static files. Rendering
reads no database: each page reads its data in a worker thread first and hands it over."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
import jinja2.ext
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from okgin.server.players.sessions import session_of

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"
SITE = ("Play", "Play online", "Play with friends", "Tables", "Tournaments", "Leaderboard", "Puzzles")
"""The site frame's links, on every page (the table's header has the same: static/index.html),
and then your name (to your profile) or Sign in."""

class _Tight(jinja2.ext.Extension):
    """The templates' lines joined where one ends with a tag (or a value) and the next starts
    with one, so a template may be written a tag to a line and the page is sent as before (no text between
    its tags that was not there). The game page (index.html) is left as it is written."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return source if name == "index.html" else re.sub(r"(?<=[>}])\n+(?=[<{])", "", source)


_ENV = jinja2.Environment(
    extensions=[_Tight],
    # The game page (static/index.html) is a template too, read from the static files.
    loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(TEMPLATES), jinja2.FileSystemLoader(STATIC)]),
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
)


def _frame(request: Request) -> dict[str, Any]:
    """What the frame shows of ``request``'s player: the name they go by, or None (Sign in).
    The session was read, with its account, by the Sessions middleware off the event loop."""
    session = session_of(request)
    return {"you": session.shown if session is not None else None}


_PAGES = Jinja2Templates(env=_ENV, context_processors=[_frame])


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The page made by ``template`` from ``context`` (escaped as it is put in)."""
    return _PAGES.TemplateResponse(request, template, context, status_code=status)


def message(
    request: Request, title: str, text: str, status: int = 200, *, error: bool = False,
    coach: bool = False,
) -> HTMLResponse:
    """A page saying one thing: ``text`` under ``title`` (an error read out at once if ``error``),
    with the coach's links above it (``coach``) or not."""
    return render(request, "message.html", status, title=title, text=text, error=error, coach=coach)




def fragment(template: str, **context: Any) -> Markup:
    """A part of a page made by ``template`` (escaped as it is put in), to be put into
    a page's template as it is, or sent alone (a tournament's live part)."""
    return Markup(_ENV.get_template(template).render(**context))
