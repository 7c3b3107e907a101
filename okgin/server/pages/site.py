"""The HTTP side: the page, How to play, the history of finished games and their records."""

from __future__ import annotations

import contextlib
import datetime
import html
import typing
from dataclasses import fields
from pathlib import Path
from string import Template
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from okgin.errors import OkginError, sentence
from okgin.record import dumps
from okgin.rules import PRESET_DESCRIPTIONS, PRESETS, Rules
from okgin.server.pages.howto import how_to_play
from okgin.server.pages.public_games import public_cell
from okgin.server.pages.review import history_links
from okgin.server.pages.template import page, you_link
from okgin.server.players.access import shown_from
from okgin.server.players.identity import Players
from okgin.server.players.sessions import session_of
from okgin.server.players.sharing import Shared, Sharing, people
from okgin.server.rooms.room import LEVELS
from okgin.server.store.storage import Store
from okgin.server.wire.jsonbound import JSONBoundError, loads
from okgin.server.wire.messages import is_id

STATIC = Path(__file__).parent / "static"

async def index(request: Request) -> Response:
    """The game page (also at /r/<code>, a room's invite link): static/index.html, a template
    whose fields are ``$name``, the player's display name (rooms prefill it), and ``$you``, the
    frame's last link (``you_link``: the signed-in player's name, or Sign in); its modules
    (game.js, coach.js, room.js) are named in the page itself. Read at each request, as the
    static files are, so an edited page is served at once."""
    page = Template((STATIC / "index.html").read_text(encoding="utf-8"))
    session = session_of(request)
    name = html.escape(session.name or "") if session is not None else ""
    return HTMLResponse(page.substitute(name=name, you=you_link(session)),
                        headers={"Cache-Control": "no-cache"})


def _rules_from_query(request: Request) -> Rules:
    """The rules in ``?rules=`` (a preset name or JSON). Raises OkginError saying what was wrong."""
    text = request.query_params.get("rules")
    if not text:
        return Rules()
    if len(text) > 4096:
        raise OkginError("rules: at most 4096 characters")
    try:
        return Rules.from_json(loads(text) if text.lstrip().startswith("{") else text)
    except (JSONBoundError, OkginError) as error:
        raise OkginError(f"rules: {error}") from None


async def howto_page(request: Request) -> Response:
    try:
        rules = _rules_from_query(request)
    except OkginError as error:
        return page(request, "How to play", f"<p>{html.escape(sentence(str(error)))}</p>", status=400)
    store: Store = request.app.state.store
    game_id = request.query_params.get("game")
    if game_id and not is_id(game_id):
        return page(request, "How to play", "<p>No such game.</p>", status=404)
    if game_id and (game := await anyio.to_thread.run_sync(store.load, game_id)) is not None:
        with contextlib.suppress(OkginError):  # a stored game's rules were valid when it began
            rules = Rules.from_json(game.record.get("rules", "oklahoma"))
    body = f"<p class=lead>Rules in force: {html.escape(PRESET_DESCRIPTIONS.get(rules.preset, ''))}"
    body += " (with house rules)" if rules.changes() else ""
    body += "</p>" + "".join(
        f"<h2>{html.escape(head)}</h2><p>{html.escape(text)}</p>" for head, text in how_to_play(rules)
    )
    return page(request, "How to play", body)


async def history_page(request: Request) -> Response:
    store: Store = request.app.state.store
    players: Players = request.app.state.players
    session = session_of(request)
    player = session.player if session else None
    finished = await anyio.to_thread.run_sync(store.finished, player) if player else []
    said = await anyio.to_thread.run_sync(Sharing(players.engine).said_in, [g.id for g in finished])
    mine = await anyio.to_thread.run_sync(players.games_of, player) if player else {}
    rows = []
    for game in finished:
        shared = Shared(people(game.levels), said[game.id])
        public = public_cell(game.id, shared, mine.get(game.id), session.csrf if session else "")
        names = game.record.get("players", [])
        when = datetime.datetime.fromtimestamp(game.updated).strftime("%Y-%m-%d %H:%M")
        scores = ", ".join(f"{html.escape(n)} {s}" for n, s in zip(names, game.scores or (), strict=False))
        winner = html.escape(names[game.winner]) if game.winner is not None else "?"
        rows.append(
            f"<tr><td>{when}</td><td>{winner}</td><td>{scores}</td>"
            f"<td>{len(game.record.get('hands', []))}</td>"
            f'<td><a href="/games/{html.escape(game.id)}/record" download>record</a> · '
            f"{history_links(game.id)}</td><td>{public}</td></tr>"
        )
    table = (
        "<table><thead><tr><th>Finished</th><th>Winner</th><th>Final scores</th><th>Hands</th>"
        "<th>Record</th><th>Public</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        if rows else "<p>No finished games yet.</p>"
    ) + ('<p><a href="/replay">Replay a record file</a> · <a href="/stats">Your statistics</a>'
         ' · <a href="/leaderboard">Leaderboard</a> · <a href="/t">Tournaments</a></p>')
    return page(request, "Finished games", table)


async def record_download(request: Request) -> Response:
    store: Store = request.app.state.store
    game_id = request.path_params["game"]
    if await shown_from(request, game_id) is None:  # not its player, not public: as if there were none
        return JSONResponse({"error": "no such game"}, status_code=404)
    game = await anyio.to_thread.run_sync(store.load, game_id)
    if game is None:
        return JSONResponse({"error": "no such game"}, status_code=404)
    if not game.finished:
        # An unfinished record holds the deal, and so the hidden cards: never sent.
        return JSONResponse({"error": "the game is not finished"}, status_code=403)
    return Response(
        dumps(game.record), media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="okgin-{game.id}.json"'},
    )


def _choices(hint: object) -> list[str]:
    """The strings a rule field may only be (its Literal), or none for a number or a switch."""
    if typing.get_origin(hint) is typing.Literal and all(isinstance(a, str) for a in typing.get_args(hint)):
        return [str(a) for a in typing.get_args(hint)]
    return []


async def rules_api(_request: Request) -> Response:
    """Every rule field (its kind, choices and default) and the presets, for the panel; and the
    computer levels, for the options' opponents."""
    base = Rules()
    hints = typing.get_type_hints(Rules)
    described: list[dict[str, Any]] = []
    for f in fields(Rules):
        if f.name == "preset":
            continue
        described.append({"name": f.name, "type": str(f.type), "default": getattr(base, f.name),
                          "choices": _choices(hints[f.name])})
    presets = {name: {f.name: getattr(r, f.name) for f in fields(Rules)} for name, r in PRESETS.items()}
    return JSONResponse({"fields": described, "presets": presets, "descriptions": PRESET_DESCRIPTIONS,
                         "levels": list(LEVELS)})
