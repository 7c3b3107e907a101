"""Every HTTP route of the app, sent hostile requests against one real `okgin serve`, as a guest
with a session and as a program without one: methods it does not take; path parameters that are
huge, negative, not digits, not ASCII, not UTF-8; query strings of the same; forms with fields
missing, repeated, overlong, not UTF-8 or of the wrong kind; JSON bodies malformed, oversized,
not objects, nested a thousand deep. Every answer is below 500 and holds no traceback (nor does
the server's log, read at the end); every refusal is a 4xx that says what was wrong; a write
refused changes nothing in the store. ``ROUTES`` is checked against the app's own routes, so a
new route cannot be left out of the sweep."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import html
import itertools
import json
import re
import sqlite3
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, run
from server_process import Serve, ServerProcess, web_client
from starlette.routing import Mount, Route, WebSocketRoute
from test_accounts import PASSWORD
from test_bot_api import Web, bot, challenge, new_token, signed_up

from okgin.server import create_app
from okgin.server.pages.analysis import EXAMPLE

# -- what the sweep sends ----------------------------------------------------------------------

HOSTILE_IN_PATH = ["9" * 30, "9" * 400, "-1", "abc", "%00", "%C3%A9", "%F0%9F%83%8F", "%FF", "%ED%A0%80",
                   "%C2%B2", "..", "%2F", "x" * 70, "2026-02-30"]
"""Path parameters: huge, negative, not digits, a NUL, not ASCII, not UTF-8, a surrogate, ², a dot
dot, a slash, longer than an id, a date that is not one."""
HOSTILE_IN_QUERY = ["9" * 400, "-1", "abc", "\u00b2", "\x00", "\U0001f0cf", "[" * 1200, '{"a":' * 40]
RAW_QUERIES = ["%FF", "hand=%FF&seat=%FF", "hand=1&hand=2", "rules=%FF", "game=%00", "seat=%C2%B2",
               "hand=" + "9" * 5000, "hand=%C2%B2", "seat=-1", "hand=0", "reported=%FF"]
QUERY_NAMES = ["rules", "game", "hand", "seat", "reported", "players", "target", "dealer", "upcard",
               "hand", "moves", "scores", "x"]
BAD_JSON = [b"{", b"[]", b"1", b"null", b'"x"', b"\xff\xfe", b"[" * 5000, b'{"a": ' + b"9" * 40 + b"}",
            b'{"a": "\\ud800"}', b'{"a": NaN}', b"x" * 20_000]
"""Bodies no JSON endpoint takes: not JSON, not an object, not UTF-8, nested a thousand deep, a
number of 40 digits, a lone surrogate, NaN, 20 kB."""
WRONG_KINDS: list[Any] = [None, True, 1.5, -1, [], {}, "x" * 1500, "\x00", "\u00b2"]
"""JSON values of the wrong kind for a field, or of the right kind and wrong."""
RECORD = json.loads((Path(__file__).resolve().parents[2] / "records" / "example.json").read_text())
UNREADABLE = copy.deepcopy(RECORD["hands"])
UNREADABLE[0]["actions"][0] = "\u00b2 draw"
"""A record's hands whose first action names seat ² (a digit to str.isdigit, not to int())."""


@dataclass(frozen=True)
class Spec:
    """How a route is swept. ``kind``: "page" (a GET), "form" (a form of our page's: Origin and
    CSRF token), "json" (our page's script), "upload" (a record), "api" (a bot's token), "stream"
    (a bot's token, an endless answer: never opened), "static", "socket". ``refused``: each
    field's hostile values (a page's: its query's), every one refused with the other fields as
    in ``good`` (``{game}`` and the like: the sweep's own game, tournament, ...); ``answered``:
    values that need only be answered (not 5xx, a 4xx saying why), some being a harmless yes."""

    kind: str
    good: dict[str, Any] = field(default_factory=dict)
    refused: dict[str, list[Any]] = field(default_factory=dict)
    answered: dict[str, list[Any]] = field(default_factory=dict)
    body: bool = True
    """Whether the route reads a body (an API call that reads none is swept by its path alone)."""
    fresh: bool = False
    """Swept as a guest of its own: the route spends a player's budget (positions analysed, calls
    to the pool), which the sweep's other requests would have spent, answering them all 429."""


SEAT = ["", "-1", "\u00b2", "\u2460", "9" * 40, "abc", "1.5"]
TOURNAMENT = {"format": "swiss", "table": "2", "places": "4", "preset": "oklahoma", "target": "25",
              "levels": "easy", "name": "Hostile cup", "rounds": "2", "fee": "10", "cutoff": "50",
              "split": "scaled", "house": "{}", "timer": "", "starts": ""}
"""A good tournament (its fields refused one at a time)."""
TEXT = ["", "x" * 3000, "\x00"]
NAME = ["", " ", "x" * 300, "\x00", "a\u202eb"]
ROUTES: dict[str, Spec] = {
    "GET /": Spec("page"),
    "GET /r/{code:id}": Spec("page"),
    "GET /how-to-play": Spec("page", refused={"rules": ["poker", "{", "[" * 1200, '{"players": 9}'],
                                              "game": ["\x00", "x" * 300]}),
    "GET /history": Spec("page"),
    "GET /games/{game:id}/record": Spec("page"),
    "GET /api/rules": Spec("page"),
    "GET /healthz": Spec("page"),
    "GET /metrics": Spec("page"),
    "GET /replay": Spec("page"),
    "GET /games/{game:id}/replay": Spec("page"),
    "GET /games/{game:id}/review": Spec("page", refused={
        "hand": ["abc", "0", "99", "-1", "\u00b2", "9" * 5000, "1.5"],
        "seat": ["abc", "-1", "\u00b2", "9" * 5]}),
    "GET /api/games/{game:id}/replay": Spec("page"),
    "POST /api/replay": Spec("upload", RECORD, {"format": [None, 1, "okgin/2"],
                                                "hands": [None, "x", [{}], UNREADABLE]},
                             {"players": [None, "x", [1, 2]]}, fresh=True),
    "GET /stats": Spec("page"),
    "GET /leaderboard": Spec("page"),
    "GET /analysis": Spec("page", EXAMPLE, {
        "players": ["1", "\u00b2"], "target": ["0", "\u00b2"], "seat": ["5", "\u00b2"],
        "dealer": ["-1", "\u2460"], "upcard": ["ZZ"], "hand": ["ZZ"], "moves": ["0 fly", "\u00b2 draw"],
        "scores": ["x", "\u00b2"]}, fresh=True),
    "GET /puzzles": Spec("page"),
    "GET /puzzles/{puzzle:str}": Spec("page", fresh=True),
    "POST /puzzles/{puzzle:str}": Spec("form", refused={"move": ["", "0 jump", "\u00b2 draw", *TEXT]},
                                       fresh=True),
    "GET /daily": Spec("page"),
    "POST /daily/start": Spec("form"),
    "POST /daily/move": Spec("form", {"move": "0 fly", "version": "{version}"}, {
        "move": ["", "<script>", "x" * 100, "1 draw", "\u00b2 draw", "0 knock ZZ"],
        "version": ["", "-1", "\u00b2", "\u2460", "1.5", "9" * 7, "abc"]}),
    "POST /daily/next": Spec("form", {"version": "{version}"},
                             {"version": ["", "-1", "\u00b2", "\u2460", "1.5", "9" * 7, "abc", "{version}"]}),
    "GET /daily/{day}": Spec("page"),
    "GET /daily/{day}/replay/{code:id}": Spec("page"),
    "GET /api/daily/{day}/{code:id}/replay": Spec("page"),
    "GET /profile": Spec("page"),
    "POST /profile/name": Spec("form", refused={"name": NAME}),
    "POST /profile/block": Spec("form", {"game": "{game}", "seat": "1"},
                                {"game": TEXT, "seat": [*SEAT, "0"]}),
    "POST /profile/unblock": Spec("form", refused={"key": [*TEXT, "nokey"]}),
    "POST /profile/report": Spec("form", {"game": "{game}", "seat": "1", "reason": "name", "text": "rude"}, {
        "game": TEXT, "seat": SEAT, "reason": ["", "spite", "x" * 3000], "text": ["x" * 301]}),
    "POST /account/create": Spec("form", {"username": "fresh_name", "password": "a long new password"}, {
        "username": ["", "x", "a" * 31, "\x00", "has space", "../x", "\u00e9\u00e9\u00e9"],
        "password": ["", "short", "x" * 257, "password123"]}),
    "POST /account/sign-in": Spec("form", {"username": "nobody_here", "password": "not the password"},
                                  {"username": ["", "\x00"], "password": ["x" * 257]}),
    "POST /account/sign-out": Spec("form"),
    "POST /account/sign-out-others": Spec("form"),
    "POST /account/password": Spec("form", {"current": PASSWORD, "password": "another long one"},
                                   {"current": TEXT, "password": ["", "short"]}),
    "POST /account/delete": Spec("form", refused={"password": [*TEXT, PASSWORD]}),
    "POST /account/bot": Spec("form", refused={"confirm": ["", "no", "YES", "x" * 3000]}),
    "POST /account/tokens": Spec("form"),
    "POST /account/tokens/revoke": Spec("form", refused={"token": [*TEXT, "abc"]}),
    "POST /account/passkeys/register/options": Spec("json"),
    "POST /account/passkeys/register": Spec("json", refused={"credential": [*WRONG_KINDS, {"id": 1}],
                                                             "name": WRONG_KINDS}),
    "POST /account/passkeys/sign-in/options": Spec("json"),
    "POST /account/passkeys/sign-in": Spec("json", refused={"credential": [*WRONG_KINDS, {"id": "x"}]}),
    "POST /account/passkeys/remove": Spec("form", refused={"passkey": [*TEXT, "abc"]}),
    "GET /t": Spec("page"),
    "POST /t": Spec("form", TOURNAMENT, {
        "format": ["", "ladder", "\x00"], "table": ["", "1", "5", "\u00b2", "\u2460", "9" * 40, "-2"],
        "places": ["1", "65", "\u00b2", "abc"], "preset": ["", "poker"],
        "target": ["4", "1001", "\u00b2", "25.5"], "levels": ["", "genius", "\x00"],
        "rounds": ["0", "4", "\u00b2", "-1"], "fee": ["-5", "1001", "\u00b2", "1.5"],
        "cutoff": ["0", "501", "\u2460"], "split": ["even"],
        "house": ["[1]", "[" * 1200, "{", '{"colour": 1}', '{"knock_limit": NaN}', '{"\\ud800": 1}'],
        "timer": ["45", "\u00b2"], "name": ["x" * 41, "\x00"],
        "starts": ["tomorrow", "2020-01-01T12:00Z", "0001-01-01T00:00+14:00", "9999-12-31T23:59"]}),
    "GET /t/{code:id}": Spec("page"),
    "GET /t/{code:id}/live": Spec("page"),
    "GET /t/{code:id}/state": Spec("page"),
    "POST /t/{code:id}/join": Spec("form", refused={"name": NAME}),
    # The guest neither hosts the tournament nor entered it: a plain form is refused.
    "POST /t/{code:id}/start": Spec("form", refused={"x": [""]}),
    "POST /t/{code:id}/leave": Spec("form", refused={"x": [""]}),
    "POST /t/{code:id}/cancel": Spec("form", refused={"x": [""]}),
    "GET /tables": Spec("page"),
    "GET /tables/live": Spec("page"),
    "POST /games/{game:id}/public": Spec("form", refused={"public": ["", "maybe", "YES", *TEXT]}),
    "GET /play-online": Spec("page"),
    "POST /play-online/seek": Spec("json", {"rules": "oklahoma", "seats": 2}, {
        "rules": [None, 1, [], {}, "x" * 1500, "poker"], "seats": [None, "2", 1.5, True, -1, 5, 10 ** 20],
        "name": ["x" * 1500, "\x00", 7, ["Ann"], {}], "bots": [1, "yes", []]}, fresh=True),
    "POST /play-online/seek/{seeker:id}": Spec("json", fresh=True),
    "POST /play-online/seek/{seeker:id}/cancel": Spec("json", fresh=True),
    "POST /play-online/seek/{seeker:id}/computer": Spec("json", fresh=True),
    "GET /bots": Spec("page"),
    "GET /bots/{username}": Spec("page"),
    "POST /bots/{username}/challenge": Spec("form", {"preset": "oklahoma", "target": "25"}, {
        "preset": ["", "poker", "oklahoma-multiplayer", "x" * 3000],
        "target": ["", "4", "1001", "\u00b2", "\u2460", "25.5", "abc", "9" * 40]}),
    "GET /challenges/{challenge:id}": Spec("page"),
    "GET /api/account": Spec("api", body=False),
    "GET /api/stream/event": Spec("stream"),
    "POST /api/challenge/{challenge:id}/accept": Spec("api", body=False),
    "POST /api/challenge/{challenge:id}/decline": Spec("api", body=False),
    "POST /api/pool/seek": Spec("api", {"rules": "oklahoma", "seats": 2},
                                {"rules": [*WRONG_KINDS, "poker"], "seats": [None, "2", 1.5, True, -1, 9]}),
    "DELETE /api/pool/seek/{seeker:id}": Spec("api", body=False),
    "POST /api/tournament/{code:id}/join": Spec("api", body=False),
    "POST /api/tournament/{code:id}/withdraw": Spec("api", body=False),
    "GET /api/bot/game/stream/{room:id}": Spec("stream"),
    "POST /api/bot/game/{room:id}/act": Spec("api", refused={"action": [
        *WRONG_KINDS, "", "fly", "0 draw", "9 draw", "\u00b2 draw", "1\u00b2 draw", "0 discard ZZ"]}),
    "POST /api/bot/game/{room:id}/next": Spec("api", answered={"hand": [*WRONG_KINDS, 0, 10 ** 20]}),
    "WS /ws": Spec("socket"),
    "MOUNT /static": Spec("static"),
}


# -- the server and what is in it ----------------------------------------------------------------

@dataclass
class World:
    """The server, and what the sweep's requests name: a guest's finished game, a tournament
    (someone else's, open to bots), a bot's table, the guest's daily deal, a puzzle, the guest's
    seek in Play online's pool."""

    server: ServerProcess
    guest: Web
    csrf: str
    tokens: list[str]
    values: dict[str, str]
    anonymous: httpx.Client
    calls: int = 0

    def fill(self, text: str) -> str:
        """``text``, or the value it names (``{game}``: the sweep's game)."""
        named = re.fullmatch(r"\{(\w+)\}", text)
        return self.values[named[1]] if named else text

    def token(self) -> str:
        """The bot's tokens in turn (each a budget of 60 requests at once)."""
        self.calls += 1
        return self.tokens[self.calls // 40 % len(self.tokens)]


@pytest.fixture(scope="module")
def world(serve: Serve) -> Iterator[World]:
    """One server for the module; after every route is swept, its log holds no traceback."""
    server = serve(allow_seeds=True, extra=("--no-address-limits",))
    url = server.url
    guest = Web(url)
    csrf = re.search(r'name="csrf" value="([^"]+)"', guest.client.get("/profile").text)
    assert csrf is not None
    host = signed_up(url, "sweep_host")
    bot_web, token = bot(url, "sweepbot")
    tokens = [token, *(new_token(bot_web) for _ in range(3))]
    made = host.post("/t", format="swiss", table="2", places="4", preset="oklahoma", target="25",
                     levels="easy", name="Sweep cup", bots="on")
    assert made.status_code == 303, made.text
    ident = challenge(guest, "sweepbot")
    room = httpx.post(f"{url}/api/challenge/{ident}/accept", headers={"Authorization": f"Bearer {token}"})
    assert room.status_code == 200, room.text
    assert guest.post("/daily/start").status_code == 303
    version = re.search(r'name=version value="([^"]+)"', guest.client.get("/daily").text)
    puzzle = guest.client.get("/puzzles").headers["location"].rsplit("/", 1)[1]
    seek = guest.client.post("/play-online/seek", json={"rules": "oklahoma", "seats": 2},
                             headers={"Origin": url, "X-CSRF-Token": csrf[1]})
    assert seek.status_code == 200, seek.text
    values = {"game": _finished_game(server, guest.cookie), "code": made.headers["location"].rsplit("/")[-1],
              "room": room.json()["room"], "version": version[1] if version else "0", "puzzle": puzzle,
              "username": "sweepbot", "challenge": ident, "seeker": seek.json()["seeker"],
              "day": "2026-01-01"}
    with web_client(url, follow_redirects=False) as anonymous:
        yield World(server, guest, csrf[1], tokens, values, anonymous)
    log = server.log()
    assert "Traceback" not in log, log


def _finished_game(server: ServerProcess, cookie: str) -> str:
    async def go() -> str:
        client = await Client.connect(server.ws_url, cookie)
        await client.open_game({"type": "new", "opponents": ["easy"], "seed": 3,
                                "rules": {"preset": "oklahoma", "target": 10}})
        await client.play()
        await client.close()
        assert client.game is not None
        return client.game

    return run(go())


# -- what is checked of every answer -------------------------------------------------------------

def said(answer: httpx.Response) -> str:
    """What a refusal says: a JSON error's message (or a seek's, gone), an HTML page's alert or its
    one sentence, a plain text's line."""
    kind = answer.headers.get("content-type", "")
    if kind.startswith("application/json"):
        data = answer.json()
        error = data.get("error") or data.get("message") if isinstance(data, dict) else None
        return str(error.get("message", "") if isinstance(error, dict) else error or "")
    if kind.startswith("text/html"):
        found = (re.search(r'role="?alert"?[^>]*>([^<]+)<', answer.text)
                 or re.search(r"</h1><p>([^<]+)</p></main>", answer.text)
                 or re.fullmatch(r"<p>([^<]+)</p>", answer.text))
        return html.unescape(found[1]).strip() if found else ""
    return answer.text.strip()


def checked(answer: httpx.Response, what: str, refused: bool) -> None:
    """Below 500, no traceback; a 4xx says why; ``refused``: it must be a 4xx."""
    assert answer.status_code < 500, (what, answer.status_code, answer.text)
    assert "Traceback" not in answer.text, (what, answer.text)
    if refused:
        assert 400 <= answer.status_code < 500, (what, answer.status_code, answer.text[-800:])
    if answer.status_code >= 400:
        assert said(answer), (what, answer.status_code, answer.text[-800:])


WATCHED = {
    "players": "SELECT id, name FROM players WHERE name IS NOT NULL",
    "accounts": "SELECT player, username, hash FROM accounts",
    "sessions": "SELECT player, id_hash FROM sessions WHERE player IN (SELECT player FROM accounts)",
    "tournaments": "SELECT code, status, version, data FROM tournaments",
    "entrants": "SELECT * FROM tournament_entrants",
    "challenges": "SELECT id, status, room FROM challenges",
    "blocks": "SELECT * FROM player_blocks",
    "reports": "SELECT * FROM player_reports",
    "public": "SELECT * FROM public_games",
    "passkeys": "SELECT id, player FROM passkeys",
    "bots": "SELECT * FROM bot_accounts",
    "tokens": "SELECT id_hash, player FROM api_tokens",
    "daily": "SELECT * FROM daily_attempts",
    "puzzles": "SELECT * FROM puzzle_attempts",
    "seekers": "SELECT id, player, preset, seats, state FROM pool_seekers",
}
"""What a refused write must leave as it was (not times a read renews: a seek's lease, a token's
last use)."""


def stored(world: World) -> dict[str, list[tuple[Any, ...]]]:
    """The watched rows now (the sweep's own seek left out: it leaves the pool when its lease ends)."""
    with contextlib.closing(sqlite3.connect(world.server.db)) as db:
        return {name: sorted((tuple(row) for row in db.execute(query) if world.values["seeker"] not in row),
                             key=repr) for name, query in WATCHED.items()}


# -- the sweep ----------------------------------------------------------------------------------

def _app_routes() -> set[str]:
    app = create_app("sqlite://")
    found = set()
    for route in app.routes:
        if isinstance(route, Route):
            found |= {f"{method} {route.path}" for method in route.methods or () if method != "HEAD"}
        elif isinstance(route, WebSocketRoute):
            found.add(f"WS {route.path}")
        elif isinstance(route, Mount):
            found.add(f"MOUNT {route.path}")
    app.state.hall.services.thinking.close()
    return found


def test_the_sweep_names_every_route_of_the_app() -> None:
    assert set(ROUTES) == _app_routes()


@pytest.mark.parametrize("route", list(ROUTES))
def test_hostile_requests_are_refused_saying_why_and_change_nothing(world: World, route: str) -> None:
    method, path = route.split(" ", 1)
    spec = ROUTES[route]
    if spec.fresh:
        world = _with_a_new_guest(world)
    before = stored(world)
    if spec.kind in ("socket", "static"):
        _edges(world, path)
    else:
        _wrong_methods(world, method, path)
        _hostile_paths(world, method, path, spec)
        if spec.kind == "page":
            _hostile_queries(world, path, spec)
        elif spec.kind == "form":
            _hostile_forms(world, path, spec)
        elif spec.kind in ("json", "upload") or (spec.kind == "api" and spec.body):
            _hostile_json(world, method, path, spec)
        if spec.kind in ("api", "stream"):
            _without_a_token(world, method, path)
    assert stored(world) == before, route


def _with_a_new_guest(world: World) -> World:
    """``world`` with a guest of its own and, for the requests without a session, an address of
    its own (the budgets of pages without a session are their address's)."""
    guest = Web(world.server.url)
    csrf = re.search(r'name="csrf" value="([^"]+)"', guest.client.get("/profile").text)
    assert csrf is not None
    address = f"127.0.0.{next(_ADDRESSES)}"
    anonymous = web_client(world.server.url, follow_redirects=False,
                           transport=httpx.HTTPTransport(local_address=address))
    return dataclasses.replace(world, guest=guest, csrf=csrf[1], anonymous=anonymous)


_ADDRESSES = itertools.count(2)
"""The loopback addresses (127.0.0.2 on) that fresh routes' requests without a session come from."""


def _path(world: World, path: str, hostile: dict[str, str] | None = None) -> str:
    def value(found: re.Match[str]) -> str:
        name = found[1]
        return (hostile or {}).get(name) or world.values[name]
    return re.sub(r"\{(\w+)(?::\w+)?\}", value, path)


def _send(world: World, client: httpx.Client, method: str, path: str, what: str, refused: bool,
          **options: Any) -> httpx.Response:
    answer = client.request(method, path, **options)
    if answer.status_code == 429 and client is world.guest.client and method == "GET":
        # The guest's budget for the coach's work is spent (a page of the analysis board or a
        # puzzle): a new guest asks the same, so that its fields are read, not answered 429 unread.
        fresh = Web(world.server.url).client
        try:
            answer = fresh.request(method, path, **options)
        finally:
            fresh.close()
    if client is world.anonymous:
        client.cookies.clear()  # a page makes a guest: the program stays without a session
    checked(answer, what, refused)
    return answer


def _as_our_page(world: World, json_body: bool = False) -> dict[str, str]:
    headers = {"Origin": world.server.url}
    if json_body:
        headers |= {"X-CSRF-Token": world.csrf, "Content-Type": "application/json"}
    return headers


TAKEN: dict[str, set[str]] = {}
for _route in ROUTES:
    TAKEN.setdefault(_route.split(" ", 1)[1], set()).add(_route.split(" ", 1)[0])


def _wrong_methods(world: World, method: str, path: str) -> None:
    """Methods no route of the path takes: 405 (or another route's 4xx: GET /daily/start is a day)."""
    for other in sorted({"GET", "POST", "PUT", "DELETE", "PATCH"} - TAKEN[path]):
        for client in (world.guest.client, world.anonymous):
            _send(world, client, other, _path(world, path), f"{other} {path}", refused=True,
                  headers=_as_our_page(world))


def _hostile_paths(world: World, method: str, path: str, spec: Spec) -> None:
    """Each path parameter in turn hostile: a page answers (most with 404), a write refuses."""
    for name in re.findall(r"\{(\w+)(?::\w+)?\}", path):
        for bad in HOSTILE_IN_PATH:
            target = _path(world, path, {name: bad})
            what = f"{method} {target}"
            # A slash (%2F) ends the path early: the router answers with a redirect to it without the slash.
            refused = spec.kind != "page" and bad != "%2F"
            if spec.kind in ("api", "stream"):
                headers = {"Authorization": f"Bearer {world.token()}"}
                _send(world, world.anonymous, method, target, what, refused, headers=headers)
                continue
            form = {"csrf": world.csrf} if spec.kind == "form" else None
            for client in (world.guest.client, world.anonymous):
                _send(world, client, method, target, what, refused,
                      headers=_as_our_page(world, spec.kind == "json"), data=form)


def _hostile_queries(world: World, path: str, spec: Spec) -> None:
    """A page's own query fields, each refused in turn; then every field at once, then raw bytes."""
    for name, values in spec.refused.items():
        for bad in values:
            _send(world, world.guest.client, "GET", _path(world, path), f"GET {path}?{name}={bad[:12]!r}",
                  refused=True, params={**spec.good, name: bad})
    for bad in HOSTILE_IN_QUERY:
        query = dict.fromkeys(QUERY_NAMES, bad)
        for client in (world.guest.client, world.anonymous):
            _send(world, client, "GET", _path(world, path), f"GET {path}?*={bad[:12]!r}", refused=False,
                  params=query)
    for raw in RAW_QUERIES:
        _send(world, world.guest.client, "GET", f"{_path(world, path)}?{raw}", f"GET {path}?{raw[:30]}",
              refused=False)


def _form(fields: dict[str, Any] | list[tuple[str, Any]]) -> bytes:
    """A form body as a browser sends it, brackets left as they are (a deep house rule fits 4 kB)."""
    return urllib.parse.urlencode(fields, safe="[{").encode()


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _hostile_forms(world: World, path: str, spec: Spec) -> None:
    """Forms read_form refuses, then each field's hostile values with the others good."""
    target = _path(world, path)
    csrf = f"csrf={world.csrf}".encode()
    ours = _as_our_page(world) | FORM
    refusals: list[tuple[str, httpx.Client, dict[str, str], bytes]] = [
        ("no session", world.anonymous, ours, csrf),
        ("no Origin", world.guest.client, FORM, csrf),
        ("another site", world.guest.client, {"Origin": "https://evil.example"} | FORM, csrf),
        ("no token", world.guest.client, ours, b"x=1"),
        ("a forged token", world.guest.client, ours, b"csrf=forged"),
        ("the token second", world.guest.client, ours, b"csrf=forged&" + csrf),
        ("not UTF-8", world.guest.client, ours, csrf + b"&x=\xff\xfe"),
        ("30 fields", world.guest.client, ours, b"a=1&" * 30 + csrf),
        ("5 kB", world.guest.client, ours, csrf + b"&x=" + b"y" * 5000),
        ("JSON", world.guest.client, _as_our_page(world, True), json.dumps({"csrf": world.csrf}).encode()),
    ]
    for what, client, headers, body in refusals:
        _send(world, client, "POST", target, f"{path}: {what}", refused=True, headers=headers, content=body)
    good = {name: world.fill(value) for name, value in spec.good.items()}
    for name, values in spec.refused.items():
        for bad in values:
            body = _form({**good, "csrf": world.csrf, name: world.fill(bad)})
            _send(world, world.guest.client, "POST", target, f"{path}: {name}={bad[:12]!r}", refused=True,
                  headers=ours, content=body)
        others = [(key, value) for key, value in good.items() if key != name]  # the first of two is read
        repeated = _form([(name, values[0]), (name, good.get(name, "x")), *others, ("csrf", world.csrf)])
        _send(world, world.guest.client, "POST", target, f"{path}: {name} twice", refused=True,
              headers=ours, content=repeated)


def _hostile_json(world: World, method: str, path: str, spec: Spec) -> None:
    """Bodies no JSON endpoint takes, then each field's wrong kinds with the others good."""
    target = _path(world, path)

    def send(body: bytes, what: str, refused: bool) -> None:
        if spec.kind == "api":
            headers = {"Authorization": f"Bearer {world.token()}", "Content-Type": "application/json"}
            _send(world, world.anonymous, method, target, what, refused, headers=headers, content=body)
        else:
            headers = _as_our_page(world, spec.kind == "json")
            _send(world, world.guest.client, method, target, what, refused, headers=headers, content=body)

    for body in BAD_JSON:
        send(body, f"{path}: {body[:20]!r}", refused=True)
    for values, refused in ((spec.refused, True), (spec.answered, False)):
        for name, kinds in values.items():
            for bad in kinds:
                body = json.dumps({**spec.good, name: bad}).encode()
                send(body, f"{path}: {name}={str(bad)[:12]}", refused)
    if spec.kind == "json":
        _send(world, world.anonymous, method, target, f"{path}: no session", refused=True,
              headers=_as_our_page(world, True), content=b"{}")
        _send(world, world.guest.client, method, target, f"{path}: no CSRF token", refused=True,
              headers=_as_our_page(world), content=b"{}")


def _without_a_token(world: World, method: str, path: str) -> None:
    target = _path(world, path)
    for headers in ({}, {"Authorization": "Basic c3dlZXA6c3dlZXA="}, {"Authorization": "Bearer"}):
        _send(world, world.anonymous, method, target, f"{method} {path} {headers}", refused=True,
              headers=headers)


def _edges(world: World, path: str) -> None:
    """The WebSocket's path over plain HTTP, and the static files' way out of their folder."""
    tries = ["/ws", "/ws?x=%FF"] if path == "/ws" else [
        "/static/%2e%2e/app.py", "/static/..%2F..%2Fapp.py", "/static/nothing-here", "/static/%00",
        "/static/%FF", "/static/" + "x" * 400]
    for target in tries:
        for client in (world.guest.client, world.anonymous):
            _send(world, client, "GET", target, target, refused=True)
