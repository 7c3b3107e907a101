"""A state-changing form from a page of ours: its Origin and its session's CSRF token checked.

Every POST that changes something goes through ``read_form``: the request must come with an
``Origin`` naming this server (or an origin allowed with ``--origin``; ``Origin: null`` only with
``Sec-Fetch-Site: same-origin``, see ``_from_our_page``), a live session, and
the session's CSRF token in the form's ``csrf`` field. Anything else is refused with 403 and
changes nothing: a form on another site, a program without the token, a stolen page's token
used from another session.
"""

from __future__ import annotations

import hmac
import html
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse

from okgin.server.pages.template import page
from okgin.server.players.identity import Session
from okgin.server.players.sessions import session_of
from okgin.server.wire.headers import origin_allowed

MAX_FORM = 4096
"""The largest form body read (the profile's forms are a few fields)."""


class FormRefused(Exception):
    """A form refused before anything changed; ``status`` and the message are the answer."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status

    def page(self) -> HTMLResponse:
        """The answer: the profile page saying why, with the refusal's status."""
        return page("Your profile", f"<p class=error role=alert>{html.escape(str(self))}</p>",
                    status=self.status)


def _from_our_page(request: Request) -> bool:
    """An Origin naming us; or, since our pages send no referrer (``Referrer-Policy:
    no-referrer`` makes a browser post ``Origin: null``), the browser's own word that the form
    came from this site (``Sec-Fetch-Site: same-origin``, a header no page can set)."""
    origin = request.headers.get("origin")
    allowed: frozenset[str] = request.app.state.settings.origins
    if origin is not None and origin != "null":
        scheme: str = request.scope.get("scheme", "http")
        return origin_allowed(origin, scheme, request.headers.get("host"), allowed)
    return request.headers.get("sec-fetch-site") == "same-origin"


async def read_form(request: Request) -> tuple[Session, dict[str, str]]:
    """The session and the fields of a form posted from one of our pages. Raises FormRefused."""
    if not _from_our_page(request):
        raise FormRefused("this form must be sent from okgin's own page")
    session = session_of(request)
    if session is None:
        raise FormRefused("your session has ended: open the page again")
    body = await request.body()
    if len(body) > MAX_FORM:
        raise FormRefused("the form is too large", 413)
    try:
        parsed = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=20)
        fields = {key: values[0] for key, values in parsed.items()}
    except (UnicodeDecodeError, ValueError):
        raise FormRefused("the form could not be read", 400) from None
    if not hmac.compare_digest(fields.get("csrf", "").encode(), session.csrf.encode()):
        raise FormRefused("the form is out of date: open the page again")
    return session, fields
