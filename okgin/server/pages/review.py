"""The coach's pages: a hand's review, the replay viewer (with its data), for finished games
and uploaded records."""

from __future__ import annotations

import html
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from okgin.advice.review import HandReview, review_match
from okgin.errors import OkginError, sentence
from okgin.record import loads, replay
from okgin.server.pages import template
from okgin.server.pages.review_body import review_body
from okgin.server.players.access import shown_from
from okgin.server.players.identity import Players
from okgin.server.players.sharing import Sharing
from okgin.server.store.storage import Store, StoredGame
from okgin.server.wire.jsonbound import JSONBoundError, check_unicode_in
from okgin.steps import game_steps

MAX_UPLOAD = 2_000_000


def page(
    request: Request, title: str, body: str, scripts: tuple[str, ...] = (), styles: tuple[str, ...] = (),
    status: int = 200,
) -> HTMLResponse:
    """A coach's or a player's page: the house frame, with their links and styles."""
    return template.page(request, title, body, scripts, (*styles, "coach.css"), links=template.COACH,
                         status=status)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _finished(request: Request, asked: int | None = None) -> tuple[StoredGame, int] | None:
    """The finished game in the path and the seat it is shown from (``shown_from``); None to
    anyone not at its table while it is not public."""
    store: Store = request.app.state.store
    game_id = request.path_params["game"]
    seat = await shown_from(request, game_id, asked)
    if seat is None:
        return None
    game = await anyio.to_thread.run_sync(store.load, game_id)
    return (game, seat) if game is not None and game.finished else None


def _asked_seat(request: Request) -> int | None:
    """``?seat=N``, the seat a public game's review is written from. Raises ValueError."""
    text = request.query_params.get("seat")
    if text is None:
        return None
    if not text.isdigit() or len(text) > 2:
        raise ValueError(f"the seat (?seat=) must be a seat number, not {text[:20]}")
    return int(text)


# -- the replay viewer ------------------------------------------------------------------------

_VIEWER = """<p id="replay-intro">{intro}</p>
<form id="upload" class="{upload}"><label>A game record (JSON)
<input type="file" id="record-file" accept=".json,application/json"></label></form>
<p id="replay-error" class="error" role="alert"></p>
<section id="viewer" data-game="{game}" hidden aria-label="Replay">
<div class="replay-controls" role="group" aria-label="Replay controls">
<label>Hand <select id="replay-hand"></select></label>
<button type="button" id="replay-first" aria-keyshortcuts="Home">First move</button>
<button type="button" id="replay-back" aria-keyshortcuts="ArrowLeft">Back</button>
<button type="button" id="replay-forward" aria-keyshortcuts="ArrowRight">Forward</button>
<button type="button" id="replay-last" aria-keyshortcuts="End">Last move</button>
<label>Move <input type="range" id="replay-jump" min="0" value="0"></label>
<span id="replay-position"></span></div>
<p id="replay-move" class="replay-move" aria-live="polite"></p>
<div id="replay-table"></div></section>
<p class="small">Keys: ← back, → forward, Home the deal, End the last move.</p>"""


async def replay_page(request: Request) -> Response:
    game = request.path_params.get("game", "")
    if game and await _finished(request) is None:
        return page(request, "Replay", "<p>No finished game of yours with that id.</p>", status=404)
    intro = ("Step through the game move by move, every hand face up." if game
             else "Choose a game record to step through it move by move, every hand face up.")
    body = _VIEWER.format(intro=intro, upload="hidden" if game else "",
                          game=html.escape(game))
    return page(request, "Replay", body, ("replay.js",), ("table.css",))


async def replay_data(request: Request) -> Response:
    """Every finished hand of a finished game, move by move (hidden cards: finished only)."""
    found = await _finished(request)
    if found is None:
        return _error("no finished game of yours with that id", 404)
    return JSONResponse(await anyio.to_thread.run_sync(_steps, found[0].record))


async def replay_upload(request: Request) -> Response:
    """The same for a record the player uploads (it is theirs: every card may be shown)."""
    body = await request.body()
    if len(body) > MAX_UPLOAD:
        return _error(f"the record is too large: at most {MAX_UPLOAD // 1000} kB", 413)
    try:
        record = loads(body.decode("utf-8"))
        check_unicode_in(record)  # a lone surrogate (\ud800) could not be sent back
        return JSONResponse(await anyio.to_thread.run_sync(_steps, record))
    except UnicodeDecodeError:
        return _error("the record is not UTF-8 text", 400)
    except (OkginError, JSONBoundError) as error:
        return _error(f"not a game record: {error}", 400)


def _steps(record: dict[str, Any]) -> dict[str, Any]:
    match, names = replay(record)
    return game_steps(match, names)


# -- a hand's review --------------------------------------------------------------------------


async def review_page(request: Request) -> Response:
    """The asker's review of one hand of a finished game they played, or of a public game from
    the seat they choose (``?hand=N``, default 1; ``?seat=N``, default 0)."""
    try:
        asked = _asked_seat(request)
    except ValueError as error:
        return page(request, "Review", f"<p class=error>{html.escape(sentence(str(error)))}</p>", status=400)
    found = await _finished(request, asked)
    if found is None:
        return page(request, "Review", "<p>No finished game of yours with that id.</p>", status=404)
    game, seat = found
    if not 0 <= seat < len(game.record.get("players", [])):
        return page(request, "Review", f"<p class=error>No seat {seat}: the game had "
                    f"{len(game.record.get('players', []))}.</p>", status=400)
    try:
        number = int(request.query_params.get("hand", "1"))
        review, names, count = await anyio.to_thread.run_sync(_review, game.record, number, seat)
    except (ValueError, OkginError) as error:
        return page(request, "Review", f"<p class=error>{html.escape(sentence(str(error)))}</p>")
    players: Players = request.app.state.players
    public = await anyio.to_thread.run_sync(Sharing(players.engine).is_public, game.id)
    also = f"&amp;seat={seat}" if public and asked is not None else ""
    links = " ".join(
        f'<a href="?hand={n}{also}"{" aria-current=page" if n == number else ""}>Hand {n}</a>'
        for n in range(1, count + 1)
    )
    replay_link = f'<p class=go><a href="/games/{html.escape(game.id)}/replay">Replay this game</a></p>'
    body = (f"<nav aria-label=Hands class=hands>{links}</nav>"
            f"{_seats(names, number, seat) if public else ''}{replay_link}"
            f"{review_body(review, names, game.id)}")
    return page(request, f"Review of hand {number}", body)


def _seats(names: list[str], number: int, seat: int) -> str:
    """A public game's review may be read from any seat: a link to each."""
    links = " ".join(
        f'<a href="?hand={number}&amp;seat={n}"{" aria-current=page" if n == seat else ""}>'
        f"{html.escape(name)}</a>" for n, name in enumerate(names))
    return f"<nav aria-label='Seen from' class=hands>A public game: seen from {links}</nav>"


def _review(record: dict[str, Any], number: int, seat: int) -> tuple[HandReview, list[str], int]:
    match, names = replay(record)
    if not 1 <= number <= len(match.hands):
        raise OkginError(f"no hand {number}: the game had {len(match.hands)}")
    return review_match(match, seat, names, hand=number)[0], list(names), len(match.hands)


def history_links(game_id: str) -> str:
    """The links the history page shows beside each finished game."""
    quoted = html.escape(game_id)
    return f'<a href="/games/{quoted}/replay">replay</a> · <a href="/games/{quoted}/review">review</a>'
