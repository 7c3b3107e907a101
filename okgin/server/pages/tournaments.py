"""The tournaments' pages: the list and the create form (``/t``), a tournament's page
(``/t/<code>``: join, start, standings, rounds, each table's link), and its live part.

Every change is a form checked by ``forms.read_form`` (Origin and CSRF); bad input is answered
with 400 and the reason, and nothing is stored.
"""

from __future__ import annotations

import html
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from okgin.rules import PRESETS
from okgin.server.pages.forms import FormRefused, read_form
from okgin.server.pages.template import page
from okgin.server.pages.tournament_body import live_section, moment, summary
from okgin.server.players.sessions import player_of, session_of
from okgin.server.rooms.room import LEVELS, TIMERS
from okgin.server.rooms.stakes import MAX_CUTOFF, MAX_STAKE
from okgin.server.store.tournament_store import Listed, TournamentStore
from okgin.server.tournaments.events import Tournaments
from okgin.server.tournaments.plan import chips_won, final_order, table_standings
from okgin.server.tournaments.settings import (
    FORMATS,
    MAX_PLACES,
    TARGETS,
    Settings,
    TournamentError,
    read_settings,
)
from okgin.server.tournaments.words import MAX_NAME, default_name, format_name, preset_name, read_name

TITLE = "Tournaments"
STYLES = ("tournament.css",)


def tournament_routes() -> list[BaseRoute]:
    return [
        Route("/t", list_page),
        Route("/t", create, methods=["POST"]),
        Route("/t/{code:id}", tournament_page),
        Route("/t/{code:id}/live", live_part),
        Route("/t/{code:id}/state", state_json),
        Route("/t/{code:id}/join", join, methods=["POST"]),
        Route("/t/{code:id}/start", start, methods=["POST"]),
        Route("/t/{code:id}/leave", leave, methods=["POST"]),
        Route("/t/{code:id}/cancel", cancel, methods=["POST"]),
    ]


def _events(request: Request) -> Tournaments:
    events: Tournaments = request.app.state.tournaments
    return events


async def list_page(request: Request) -> Response:
    return await _list(request, "", 200)


async def _list(request: Request, error: str, status: int, form: dict[str, str] | None = None) -> Response:
    store = _events(request).store
    body = f"<p class=error role=alert>{html.escape(error)}</p>" if error else ""
    for status_name, heading in (("open", "Open for entries"), ("running", "Playing now")):
        listed = await anyio.to_thread.run_sync(store.listed, status_name)
        items = "".join(f"<li>{_listed(t)}</li>" for t in listed)
        listing = f"<ul class=tournaments-{status_name}>{items}</ul>" if items else "<p>None.</p>"
        body += f"<h2>{heading}</h2>{listing}"
    body += "<h2>Finished</h2>" + await anyio.to_thread.run_sync(_finished, store)
    session = session_of(request)
    if session is not None:
        form_html = _create_form(html.escape(session.csrf), form or {}, session.name)
        body += "<h2>Make a tournament</h2>" + form_html
    return page(request, TITLE, body, scripts=("tournament.js",), styles=STYLES, status=status)


def _listed(t: Listed) -> str:
    """One open or running tournament: its name (its link), format, places, entrants, fee, start."""
    n, starts = t.entrants, t.data.get("starts")
    return (f'<a href="/t/{html.escape(t.code)}">{html.escape(t.name or format_name(t.data["format"]))}</a>: '
            f'{format_name(t.data["format"])} for {t.data["places"]}, {n} entrant{"s" if n != 1 else ""}'
            f"{_fee(t.data)}" + (f", starts {moment(starts)}" if starts is not None else ""))


FINISHED = 10
"""The finished tournaments /t lists (the last to finish first)."""


def _finished(store: TournamentStore) -> str:
    """The last tournaments to finish, each with its winner. Blocking: run it in a thread."""
    items = []
    for t in store.listed("finished", FINISHED):
        event = store.load(t.code)
        if event is None:
            continue
        first = final_order(event, Settings.from_data(event.data))[0]
        winner = next(e.name for e in event.entrants if e.seed == first)
        title = html.escape(t.name or format_name(t.data["format"]))
        items.append(f'<li><a href="/t/{html.escape(t.code)}">{title}'
                     f"</a>: won by <strong class=winner>{html.escape(winner)}</strong> "
                     f'({format_name(t.data["format"])} for {t.data["places"]})</li>')
    return f"<ul class=tournaments-finished>{''.join(items)}</ul>" if items else "<p>None yet.</p>"


def _fee(data: dict[str, Any]) -> str:
    fee = int((data.get("stakes") or {}).get("stake", 0))
    return f", entry {fee} chips" if fee else ""


def _create_form(csrf: str, old: dict[str, str], host: str | None) -> str:
    """The host's form, holding what was sent when it was refused. Its start time is typed in
    the viewer's own time; the page's script sends it as UTC (``starts``)."""
    def number(name: str, label: str, least: int, most: int, default: str) -> str:
        value = html.escape(old.get(name, default))
        return (f'<label>{label} <input name="{name}" type="number" min="{least}" max="{most}" '
                f'value="{value}"{" required" if default else ""}></label> ')

    def choice(name: str, label: str, choices: dict[str, str], default: str) -> str:
        chosen = old.get(name, default)
        items = "".join(f'<option value="{html.escape(c)}"{" selected" if c == chosen else ""}>'
                        f"{html.escape(words)}</option>" for c, words in choices.items())
        return f'<label>{label} <select name="{name}" id="{name}">{items}</select></label> '

    checked = " checked" if old.get("auto") == "on" else ""
    fmt = old.get("format", "swiss")
    named = html.escape(default_name(fmt if fmt in FORMATS else "swiss", host))
    return (
        f'<form method="post" action="/t" class=tournament-form data-host="{html.escape(host or "")}">'
        f'<input type="hidden" name="csrf" value="{csrf}"><p>'
        f'<label>Name <input name="name" id="t-name" maxlength="{MAX_NAME}" placeholder="{named}" '
        f'value="{html.escape(old.get("name", ""))}"></label> <small>(empty: {named})</small></p><p>'
        + choice("format", "Format", {f: format_name(f) for f in FORMATS}, "swiss")
        + number("places", "Places", 2, MAX_PLACES, "8")
        + number("table", "Players at a table", 2, 4, "2") + "</p><p>"
        + choice("preset", "Rules", {p: preset_name(p) for p in PRESETS}, "oklahoma")
        + number("target", "Match target", *TARGETS, "100")
        + number("rounds", "Swiss rounds (empty: as needed)", 1, MAX_PLACES - 1, "")
        + choice("timer", "Turn timer (seconds)", {"off": "off", **{str(t): str(t) for t in TIMERS if t}},
                 "off")
        + "</p><p>" + number("fee", "Entry fee in chips (0: free)", 0, MAX_STAKE, "0")
        + choice("split", "Pool split", {"scaled": "scaled", "proportional": "proportional"}, "scaled")
        + number("cutoff", "Nothing beyond (penalty points)", 1, MAX_CUTOFF, "50")
        + "</p>" + _house_rules(old.get("house", ""))
        + f'<p><label>Computer players for empty places <input name="levels" '
        f'value="{html.escape(old.get("levels", "normal"))}" required></label> '
        f'<small>({", ".join(LEVELS)}, taken in turn)</small></p>'
        f'<p><label><input type="checkbox" name="auto"{checked}> Start when every place is taken</label> '
        f'<label>or at <input name="starts_local" id="starts-local" type="datetime-local" '
        f'value="{html.escape(old.get("starts_local", ""))}"></label> <small id="starts-zone">(UTC)</small>'
        '<input type="hidden" name="starts" id="starts" value=""></p>'
        "<p><button type=submit class=primary>Make the tournament</button></p></form>"
    )


def _house_rules(house: str) -> str:
    """The House rules panel (static/houserules.js, as in the game's Rules dialog): each rule in
    players' words, kept as JSON in the hidden field ``house`` that the form sends."""
    return (
        '<fieldset class=house-rules><legend>House rules</legend><p id="preset-text"></p>'
        '<div id="rule-fields"><noscript>The house rules need JavaScript; without it the tournament '
        "plays the rules chosen above as they are.</noscript></div>"
        '<p id="rules-error" class=error role=alert></p>'
        '<p><button type=button id="rules-reset">Back to these rules as they are</button></p>'
        f'<input type="hidden" name="house" id="house" value="{html.escape(house)}"></fieldset>'
    )


async def create(request: Request) -> Response:
    """POST /t: a new tournament from the form; its page next."""
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return _refused(request, refused)
    try:
        settings = read_settings(fields)
        name = read_name(fields.get("name"), settings.format, session.name)
    except TournamentError as error:
        return await _list(request, str(error), 400, fields)
    client = request.client.host if request.client else "unknown"
    if not request.app.state.limiter.may_make_tournament(client, session.player):
        return await _list(request, "too many tournaments made: wait a minute and try again", 429, fields)
    code = await anyio.to_thread.run_sync(_events(request).create, session.player, settings, name)
    return RedirectResponse(f"/t/{code}", status_code=303)


async def tournament_page(request: Request) -> Response:
    return await _tournament(request, "", 200)


async def _tournament(request: Request, error: str, status: int) -> Response:
    code = request.path_params["code"]
    event = await anyio.to_thread.run_sync(_events(request).store.load, code)
    if event is None:
        return page(request, TITLE, "<p>No such tournament: check the link.</p>", status=404)
    settings = Settings.from_data(event.data)
    title = event.name or format_name(settings.format)
    session = session_of(request)
    player = session.player if session is not None else None
    body = f"<p>{summary(settings)}</p>"
    body += f"<p class=error role=alert>{html.escape(error)}</p>" if error else ""
    if event.status == "open" and session is not None:
        csrf = html.escape(session.csrf)
        fee = f" (entry {settings.fee} chips)" if settings.fee else ""
        if not any(e.player == player for e in event.entrants):
            body += (f'<form method="post" action="/t/{html.escape(code)}/join" class=join>'
                     f'<input type="hidden" name="csrf" value="{csrf}"><label>Your name <input name="name" '
                     f'value="{html.escape(session.name or "")}" maxlength="20" required></label> '
                     f"<button type=submit class=primary>Join{fee}</button></form>")
        else:
            back = f" (your {settings.fee} chips back)" if settings.fee else ""
            body += _button(code, "leave", csrf, f"Withdraw your entry{back}")
        if player == event.host:
            body += _button(code, "start", csrf, "Start now (computer players take the empty places)")
            refunds = " (every entry fee given back)" if settings.fee else ""
            body += _button(code, "cancel", csrf, f"Cancel the tournament{refunds}")
    body += (f'<p>Its link: <a href="/t/{html.escape(code)}">/t/{html.escape(code)}</a> · '
             '<a href="/t">All tournaments</a></p>')
    made = await anyio.to_thread.run_sync(_events(request).store.rooms_made, event)
    pool = await anyio.to_thread.run_sync(_events(request).store.pool, code)
    body += (f'<section id=live data-code="{html.escape(code)}" aria-live=polite>'
             f"{live_section(event, settings, player, made, pool)}</section>")
    return page(request, title, body, scripts=("tournament.js",), styles=STYLES, status=status)


async def live_part(request: Request) -> Response:
    """The live part of the page alone, for its script to show again."""
    event = await anyio.to_thread.run_sync(_events(request).store.load, request.path_params["code"])
    if event is None:
        return HTMLResponse("<p>No such tournament.</p>", status_code=404)
    made = await anyio.to_thread.run_sync(_events(request).store.rooms_made, event)
    pool = await anyio.to_thread.run_sync(_events(request).store.pool, event.code)
    body = live_section(event, Settings.from_data(event.data), player_of(request), made, pool)
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})


async def state_json(request: Request) -> Response:
    """The tournament as data: status, round, entrants, standings, each round's tables."""
    event = await anyio.to_thread.run_sync(_events(request).store.load, request.path_params["code"])
    if event is None:
        return JSONResponse({"error": "no such tournament"}, status_code=404)
    settings = Settings.from_data(event.data)
    made = await anyio.to_thread.run_sync(_events(request).store.rooms_made, event)
    standing = [{"entrant": s.entrant, "score": float(s.score), "buchholz": float(s.buchholz),
                 "difference": float(s.difference), "played": s.played, "byes": s.byes}
                for s in table_standings(event)]
    data: dict[str, Any] = {
        "code": event.code, "name": event.name, "status": event.status, "round": event.round,
        "settings": event.data,
        "entrants": [{"seed": e.seed, "name": e.name, "level": e.level, "person": e.player is not None}
                     for e in event.entrants],
        "standings": standing, "byes": {str(n): list(b) for n, b in event.byes.items()},
        "tables": [{"round": t.round, "number": t.number, "room": t.room, "seats": list(t.seats),
                    "result": t.result, "game": t.game, "ready": t.round < event.round or t.room in made}
                   for t in event.tables],
        "final": final_order(event, settings) if event.status == "finished" else None,
    }
    pool = await anyio.to_thread.run_sync(_events(request).store.pool, event.code)
    if pool is not None:
        won = chips_won(event, pool[1]) or {}
        data["pool"] = {"fee": settings.fee, "chips": pool[0],
                        "won": {str(seed): chips for seed, chips in won.items()}}
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def join(request: Request) -> Response:
    return await _change(request, "join")


async def start(request: Request) -> Response:
    return await _change(request, "start")


async def leave(request: Request) -> Response:
    return await _change(request, "leave")


async def cancel(request: Request) -> Response:
    return await _change(request, "cancel")


async def _change(request: Request, what: str) -> Response:
    code = request.path_params["code"]
    try:
        session, fields = await read_form(request)
    except FormRefused as refused:
        return _refused(request, refused)
    events = _events(request)
    try:
        if what == "join":
            await anyio.to_thread.run_sync(events.join, code, session.player, fields.get("name"))
        else:
            change = {"start": events.start, "leave": events.leave, "cancel": events.cancel}[what]
            await anyio.to_thread.run_sync(change, code, session.player)
    except TournamentError as error:
        status = 404 if str(error).startswith("no such") else 400
        return await _tournament(request, str(error), status)
    request.app.state.director.poke()
    return RedirectResponse(f"/t/{code}", status_code=303)


def _button(code: str, what: str, csrf: str, label: str) -> str:
    return (f'<form method="post" action="/t/{html.escape(code)}/{what}" class={what}>'
            f'<input type="hidden" name="csrf" value="{csrf}"><button type=submit>{html.escape(label)}'
            "</button></form>")


def _refused(request: Request, refused: FormRefused) -> Response:
    return page(request, TITLE, f"<p class=error role=alert>{html.escape(str(refused))}</p>",
                status=refused.status)
