"""A state-changing form from a page of ours: its Origin and its session's CSRF token checked.

Every POST that changes something goes through ``read_form``: the request must come with an
``Origin`` naming this server (or an origin allowed with ``--origin``; ``Origin: null`` only with
``Sec-Fetch-Site: same-origin``, see ``_from_our_page``), a live session, and
the session's CSRF token in the form's ``csrf`` field. Anything else is refused with 403 and
changes nothing: a form on another site, a program without the token, a stolen page's token
used from another session. ``read_json`` checks a page script's JSON request the same way,
its token in the ``X-CSRF-Token`` header.
"""

from __future__ import annotations

import hmac
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse

from okgin.errors import sentence
from okgin.server.pages.template import message
from okgin.server.players.identity import Session
from okgin.server.players.sessions import session_of
from okgin.server.wire.headers import origin_allowed
from okgin.server.wire.jsonbound import JSONBoundError, loads

MAX_FORM = 4096
"""The largest form body read (the profile's forms are a few fields)."""
MAX_FIELDS = 20
"""The most fields a form may have (ours have a handful)."""
MAX_JSON = 16_384
"""The largest JSON body read (a passkey's answer is about a kilobyte)."""


class FormRefused(Exception):
    """A form refused before anything changed; ``status`` and the message are the answer."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status

    def page(self, request: Request) -> HTMLResponse:
        """The answer: the profile page saying why (a sentence), with the refusal's status."""
        return message(request, "Your profile", sentence(str(self)), self.status, error=True)


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


def _checked_session(request: Request) -> Session:
    if not _from_our_page(request):
        raise FormRefused("this request must be sent from okgin's own page")
    session = session_of(request)
    if session is None:
        raise FormRefused("your session has ended: open the page again")
    return session


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, read no further than ``limit`` bytes: a huge one is refused (413)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise FormRefused(f"the request is too large: at most {limit} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request) -> tuple[Session, dict[str, object]]:
    """The session and the JSON object sent by one of our pages' scripts, its CSRF token in the
    ``X-CSRF-Token`` header. Raises FormRefused (403 not from us, 413 too large, 400 not a
    JSON object)."""
    session = _checked_session(request)
    token = request.headers.get("x-csrf-token", "")
    if not hmac.compare_digest(token.encode(), session.csrf.encode()):
        raise FormRefused("the page is out of date (its CSRF token is not this session's): open it again")
    body = await _body(request, MAX_JSON)
    try:
        value = loads(body.decode("utf-8")) if body else {}
    except (UnicodeDecodeError, JSONBoundError) as error:
        raise FormRefused(f"the request is not JSON: {error}", 400) from None
    if not isinstance(value, dict):
        raise FormRefused("the request must be a JSON object", 400)
    return session, value


async def read_form(request: Request) -> tuple[Session, dict[str, str]]:
    """The session and the fields of a form posted from one of our pages. Raises FormRefused."""
    session = _checked_session(request)
    body = await _body(request, MAX_FORM)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise FormRefused("the form is not UTF-8 text", 400) from None
    try:
        parsed = parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except ValueError:  # parse_qs's only refusal here: too many fields
        raise FormRefused(f"the form has more than {MAX_FIELDS} fields", 400) from None
    fields = {key: values[0] for key, values in parsed.items()}
    if not hmac.compare_digest(fields.get("csrf", "").encode(), session.csrf.encode()):
        raise FormRefused("the form is out of date: open the page again")
    return session, fields
