"""The HTTP side: the game page, How to play, finished games' records, the rules for the panel."""

from __future__ import annotations

import contextlib
import typing
from dataclasses import fields
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from okgin.errors import OkginError, sentence
from okgin.record import dumps
from okgin.rules import PRESET_DESCRIPTIONS, PRESETS, Rules
from okgin.server.pages.howto import how_to_play
from okgin.server.pages.template import message, render
from okgin.server.players.access import shown_from
from okgin.server.players.sessions import session_of
from okgin.server.rooms.room import LEVELS
from okgin.server.store.storage import Store
from okgin.server.wire.jsonbound import JSONBoundError, loads
from okgin.server.wire.messages import is_id

STATIC = Path(__file__).parent / "static"

async def index(request: Request) -> Response:
    """The game page (also at /r/<code>, a room's invite link): static/index.html, a template
    given ``name``, the player's display name (rooms prefill it), and the frame's ``you`` (the
    signed-in player's name, or Sign in); its modules (game.js, coach.js, room.js) are named in
    the page itself. Its template is read again whenever the file changes, as the static files
    are, so an edited page is served at once."""
    session = session_of(request)
    answer = render(request, "index.html", name=session.name or "" if session is not None else "")
    answer.headers["Cache-Control"] = "no-cache"
    return answer


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
        return message(request, "How to play", sentence(str(error)), 400)
    store: Store = request.app.state.store
    game_id = request.query_params.get("game")
    if game_id and not is_id(game_id):
        return message(request, "How to play", "No such game.", 404)
    if game_id and (game := await anyio.to_thread.run_sync(store.load, game_id)) is not None:
        with contextlib.suppress(OkginError):  # a stored game's rules were valid when it began
            rules = Rules.from_json(game.record.get("rules", "oklahoma"))
    return render(request, "howto.html", rules=PRESET_DESCRIPTIONS.get(rules.preset, ""),
                  house=bool(rules.changes()), parts=how_to_play(rules))


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
