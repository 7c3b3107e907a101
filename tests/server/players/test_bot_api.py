"""The API for computer players written by others (docs/api.md), through a real `okgin serve`:
bot accounts, personal tokens, challenges, the event and game streams, moves, limits."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import assert_fair, person_plays, run
from server_process import ServerProcess, web_client
from sqlalchemy import create_engine, insert, text
from starlette.applications import Starlette
from test_accounts import PASSWORD, Browser

from okgin.actions import parse_action
from okgin.cards import cards_of_mask
from okgin.match import Match
from okgin.record import deal_from_json
from okgin.rules import Rules
from okgin.server.players.challenges import ChallengeError, read_rules
from okgin.server.store.schema import rating_history

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "api_bot.py"


def okgin_bot(*args: str) -> subprocess.Popen[bytes]:
    """`okgin bot ...` as a process of its own (this tree's okgin)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "okgin.cli", "bot", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


class Web:
    """A browser over real HTTP: its cookie, and the profile's CSRF token for its forms."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.client = web_client(url, follow_redirects=False)
        self.client.get("/")

    def post(self, path: str, **form: str) -> httpx.Response:
        found = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/profile").text)
        assert found
        return self.client.post(path, data={"csrf": found.group(1), **form}, headers={"Origin": self.url})

    @property
    def cookie(self) -> str:
        return str(self.client.cookies["okgin_session"])


def signed_up(url: str, username: str) -> Web:
    web = Web(url)
    assert web.post("/account/create", username=username, password=PASSWORD).status_code == 303
    return web


def new_token(web: Web) -> str:
    page = web.post("/account/tokens")
    assert page.status_code == 200, page.text
    found = re.search(r'<code id="new-token">([^<]+)</code>', page.text)
    assert found
    return found.group(1)


def bot(url: str, username: str) -> tuple[Web, str]:
    """A new bot account and its token."""
    web = signed_up(url, username)
    assert web.post("/account/bot", confirm="yes").status_code == 303
    return web, new_token(web)


def api(url: str, token: str, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return httpx.request(method, url + path, json=body, headers={"Authorization": f"Bearer {token}"})


def challenge(person: Web, username: str, preset: str = "oklahoma", target: str = "25") -> str:
    made = person.post(f"/bots/{username}/challenge", preset=preset, target=target)
    assert made.status_code == 303, made.text
    return made.headers["location"].removeprefix("/challenges/")


class Stream:
    """A stream read on a thread of its own: every line kept, as text."""

    def __init__(self, url: str, token: str, path: str) -> None:
        self.lines: list[str] = []
        self.status: int | None = None
        self.done = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(url + path, token), daemon=True)
        self._thread.start()

    def _read(self, url: str, token: str) -> None:
        try:
            with httpx.stream("GET", url, headers={"Authorization": f"Bearer {token}"},
                              timeout=httpx.Timeout(120.0)) as answer:
                self.status = answer.status_code
                for line in answer.iter_lines():
                    if line.strip():
                        self.lines.append(line)
        except httpx.HTTPError:  # the server stopped at the module's end, the stream open
            pass
        finally:
            self.done.set()

    def frames(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in list(self.lines)]

    def wait_for(self, test: Any, what: str, timeout: float = 60.0) -> dict[str, Any]:
        give_up = time.monotonic() + timeout
        while time.monotonic() < give_up:
            for frame in self.frames():
                if test(frame):
                    return frame
            if self.done.is_set() and not any(test(f) for f in self.frames()):
                raise AssertionError(f"the stream ended without {what}: {self.status} {self.lines[-3:]}")
            time.sleep(0.02)
        raise AssertionError(f"no {what} within {timeout} s")


def table_of(person: Web, ident: str, timeout: float = 60.0) -> str:
    """The room an accepted challenge made (its page leads there)."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        page = person.client.get(f"/challenges/{ident}")
        if page.status_code == 303:
            return page.headers["location"].removeprefix("/r/")
        time.sleep(0.05)
    raise AssertionError("the challenge was not accepted")


def check_against_record(frames: list[dict[str, Any]], record: dict[str, Any], seat: int) -> int:
    """Every state frame the seat was streamed shows its own hand exactly as the record holds it at
    that move, and no card it could not see (the other's hand, the stock): ``assert_fair``.
    Returns how many states were checked."""
    assert_fair([json.dumps(f) for f in frames])
    rules = Rules.from_json(record["rules"])
    checked = 0
    for frame in frames:
        if frame["type"] != "state" or frame["view"]["result"] is not None or frame["final"] is not None:
            continue
        view = frame["view"]
        assert view["seat"] == seat and "stock" not in view
        hand_data = record["hands"][frame["hand_number"] - 1]
        match = Match(rules, first_dealer=hand_data["dealer"])
        hand = match.start_hand(deal_from_json(hand_data["deal"]), hand_data["dealer"])
        for action in hand_data["actions"][:len(view["history"])]:
            match.apply(parse_action(action))
        assert view["hand"] == [str(c) for c in cards_of_mask(hand.hand_mask(seat))]
        other = {str(c) for c in cards_of_mask(hand.hand_mask(1 - seat))}
        hidden = other - set(view["discards"]) - {c for taken in view["picked"] for c in taken}
        assert not hidden & set(re.findall(r"\b[A2-9TJQK][CDHS]\b", json.dumps(frame)))
        checked += 1
    return checked


def states_since(first: dict[str, Any], record: dict[str, Any]) -> int:
    """How many states of a live hand a stream is sent from its ``first`` state on: one for
    each move, as in each hand the deal and every move but the one ending it have their own
    (a game of one short hand has few, never none)."""
    before = sum(len(h["actions"]) for h in record["hands"][:first["hand_number"] - 1])
    return sum(len(h["actions"]) for h in record["hands"]) - before - len(first["view"]["history"])


@pytest.mark.slow
def test_the_example_bot_plays_a_whole_rated_game_against_a_person_through_http_only(
    server: ServerProcess,
) -> None:
    """examples/api_bot.py (HTTP only, no okgin import) accepts Ann's challenge and plays the
    game out against her scripted page; the game is rated (the coach off), Ann in the people's
    pool and the bot in its own; every frame the bot's seat was streamed is checked against the
    game's record: its own hand exact, the other's hand and the stock never shown."""
    source = EXAMPLE.read_text()
    assert "import okgin" not in source and "from okgin" not in source
    _robo, token = bot(server.url, "robo.one")
    ann = Web(server.url)
    bot_process = subprocess.Popen([sys.executable, str(EXAMPLE), "--server", server.url, "--token", token,
                                    "--games", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        room = table_of(ann, challenge(ann, "robo.one"))
        watching = Stream(server.url, token, f"/api/bot/game/stream/{room}")
        first = watching.wait_for(lambda f: f["type"] == "state", "the first state")
        client = run(person_plays(server.ws_url, ann.cookie, room))
        assert client.seat == 0  # the challenger's seat
        out, err = bot_process.communicate(timeout=120)
    finally:
        bot_process.kill()
    assert bot_process.returncode == 0, err.decode()
    assert f"game over in room {room}" in out.decode()
    assert client.state is not None and client.state["final"] is not None
    watching.wait_for(lambda f: f["type"] == "state" and f["final"] is not None, "the final state")
    frames = watching.frames()
    rooms = [f for f in frames if f["type"] == "room"]
    assert rooms and rooms[0]["seats"][1]["bot"] is True and rooms[0]["seats"][0]["bot"] is False
    assert rooms[0]["coach"] is False and rooms[0]["you"] == 1
    record = ann.client.get(f"/games/{client.game}/record").json()
    assert check_against_record(frames, record, seat=1) >= states_since(first, record) > 0
    engine = create_engine(f"sqlite:///{server.db}")
    give_up = time.monotonic() + 60
    with engine.connect() as db:
        rated_query = text("SELECT family FROM rated_games WHERE game = :g")
        while not db.execute(rated_query, {"g": client.game}).all():
            assert time.monotonic() < give_up, "the game was not rated"
            time.sleep(0.05)
        families = dict(db.execute(text(
            "SELECT r.family, count(*) FROM ratings r JOIN rating_history h ON h.player = r.player "
            "AND h.game = :g GROUP BY r.family"), {"g": client.game}).all())
        rated = db.execute(rated_query, {"g": client.game}).scalar()
    engine.dispose()
    assert rated == "two-player" and families == {"two-player": 1, "bot-two-player": 1}
    assert "robo.one" not in httpx.get(server.url + "/leaderboard").text


@pytest.mark.slow
def test_okgin_bot_plays_a_whole_game_against_a_person_as_the_normal_player(server: ServerProcess) -> None:
    """`okgin bot --level normal` (a process: HTTP only, the player given the seat's streamed
    view) accepts Bea's challenge and plays the game out against her scripted page, to its final
    state; what its seat was streamed never showed the other's hand or the stock."""
    _robo, token = bot(server.url, "robo.normal")
    bea = Web(server.url)
    process = okgin_bot("--level", "normal", "--server", server.url, "--token", token, "--games", "1")
    try:
        room = table_of(bea, challenge(bea, "robo.normal", preset="gin", target="25"))
        watching = Stream(server.url, token, f"/api/bot/game/stream/{room}")
        first = watching.wait_for(lambda f: f["type"] == "state", "the first state")
        client = run(person_plays(server.ws_url, bea.cookie, room))
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err.decode()
    said = out.decode()
    assert "okgin bot: robo.normal plays as normal" in said and f"game over in room {room}:" in said, said
    assert client.state is not None and client.state["final"] is not None
    watching.wait_for(lambda f: f["type"] == "state" and f["final"] is not None, "the final state")
    record = bea.client.get(f"/games/{client.game}/record").json()
    assert check_against_record(watching.frames(), record, seat=1) >= states_since(first, record) > 0
    assert all(any(a.startswith("1 ") for a in hand["actions"]) for hand in record["hands"])
    bot_moves = [a for hand in record["hands"] for a in hand["actions"] if a.startswith("1 ")]
    assert any(" discard " in a or " knock " in a for a in bot_moves)


def test_okgin_bot_with_a_bad_or_revoked_token_says_so_in_one_line(server: ServerProcess) -> None:
    """A token never made, or one revoked while the bot listens, ends `okgin bot` with one line
    saying the token was refused (status 2, no traceback); so do a person's token (not a bot), a
    level that does not exist, a server that is not there and one that is not the API."""
    never = okgin_bot("--server", server.url, "--token", "okgin_" + "x" * 43)
    _out, err = never.communicate(timeout=60)
    assert never.returncode == 2 and err.decode().count("\n") == 1, err.decode()
    assert "the token was refused (bad_token" in err.decode() and "Traceback" not in err.decode()
    web, token = bot(server.url, "robo.revoked")
    listening = okgin_bot("--server", server.url, "--token", token)
    try:
        assert listening.stdout is not None
        assert "waiting for challenges" in listening.stdout.readline().decode()
        ident = re.search(r"Token ([0-9a-f]{12})", web.client.get("/profile").text)
        assert ident
        assert web.post("/account/tokens/revoke", token=ident.group(1)).status_code == 303
        _out, err = listening.communicate(timeout=60)
    finally:
        listening.kill()
    assert listening.returncode == 2 and err.decode().count("\n") == 1, err.decode()
    assert "the token was refused (bad_token" in err.decode()
    nowhere = okgin_bot("--server", "http://127.0.0.1:9", "--token", token)
    _out, err = nowhere.communicate(timeout=60)
    assert nowhere.returncode == 2 and err.decode().startswith("okgin bot: cannot reach http://127.0.0.1:9")
    person_token = new_token(signed_up(server.url, "not.a.bot"))
    person = okgin_bot("--server", server.url, "--token", person_token)
    _out, err = person.communicate(timeout=60)
    assert person.returncode == 2 and err.decode() == (
        "okgin bot: not.a.bot is not a bot account: make it one on its profile page\n")
    no_level = okgin_bot("--level", "genius", "--server", server.url, "--token", person_token)
    _out, err = no_level.communicate(timeout=60)
    assert no_level.returncode == 2 and "no player 'genius'; the players are random" in err.decode()
    not_api = okgin_bot("--server", server.url + "/bots", "--token", token)
    _out, err = not_api.communicate(timeout=60)
    assert not_api.returncode == 2 and "not as okgin's API does" in err.decode()
    assert "Traceback" not in err.decode()


@pytest.mark.slow
def test_a_token_acts_only_for_its_own_seat_and_reads_only_its_own_events(server: ServerProcess) -> None:
    """Bot A's table: bot B's token can neither stream it nor move in it nor accept A's
    challenge, and B's event stream shows B's own challenge and nothing of A's; A's token cannot
    play the person's seat (a clear error, nothing changed); a person's token is no bot's."""
    _a, token_a = bot(server.url, "robo.a")
    _b, token_b = bot(server.url, "robo.b")
    ann, bea = Web(server.url), Web(server.url)
    to_a = challenge(ann, "robo.a")
    assert api(server.url, token_b, "POST", f"/api/challenge/{to_a}/accept").status_code == 404
    accepted = api(server.url, token_a, "POST", f"/api/challenge/{to_a}/accept")
    assert accepted.status_code == 200, accepted.text
    room = accepted.json()["room"]
    assert api(server.url, token_a, "POST", f"/api/challenge/{to_a}/accept").status_code == 409
    assert table_of(ann, to_a) == room
    for method, path, body in (("POST", f"/api/bot/game/{room}/act", {"action": "draw"}),
                               ("POST", f"/api/bot/game/{room}/next", {"hand": 1}),
                               ("GET", f"/api/bot/game/stream/{room}", None)):
        refused = api(server.url, token_b, method, path, body)
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "no_game"
    theirs = Stream(server.url, token_a, f"/api/bot/game/stream/{room}")
    state = theirs.wait_for(lambda f: f["type"] == "state", "a state")
    wrong_seat = api(server.url, token_a, "POST", f"/api/bot/game/{room}/act", {"action": "0 pass"})
    assert wrong_seat.status_code == 400 and "seat 1" in wrong_seat.json()["error"]["message"]
    for body in ({"action": "discard ZZ"}, {"action": 7}, {}):
        bad = api(server.url, token_a, "POST", f"/api/bot/game/{room}/act", body)
        assert bad.status_code == 400 and bad.json()["error"]["message"], bad.text
    garbage = httpx.post(server.url + f"/api/bot/game/{room}/act", content=b"{not json",
                         headers={"Authorization": f"Bearer {token_a}"})
    assert garbage.status_code == 400 and garbage.json()["error"]["code"] == "malformed"
    last = [f for f in theirs.frames() if f["type"] == "state"][-1]  # (Ann, never here, went away)
    assert state["view"]["seat"] == 1 and last["view"]["history"] == state["view"]["history"]
    assert last["view"]["hand"] == state["view"]["hand"]  # nothing changed
    to_b = challenge(bea, "robo.b")
    events = Stream(server.url, token_b, "/api/stream/event")
    events.wait_for(lambda f: f["type"] == "challenge" and f["challenge"]["id"] == to_b, "B's challenge")
    assert all(f.get("challenge", {}).get("id") != to_a and f.get("game", {}).get("room") != room
               for f in events.frames())
    person = signed_up(server.url, "plain.person")
    person_token = new_token(person)
    assert api(server.url, person_token, "GET", "/api/account").json() == {
        "username": "plain.person", "name": "plain.person", "bot": False}
    refused = api(server.url, person_token, "GET", "/api/stream/event")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_bot"


@pytest.mark.parametrize("target", ["", "x", "4", "1001", "25.5", "\u00b2", "\u2460"])
def test_a_challenge_with_a_target_that_is_not_a_whole_number_in_range_is_refused(target: str) -> None:
    with pytest.raises(ChallengeError, match="the target is a whole number from 5 to 1000"):
        read_rules("oklahoma", target)


@pytest.mark.parametrize(("target", "why"), [("25", "A bot does not challenge itself."),
                                            ("x", "The target is a whole number from 5 to 1000.")])
def test_a_bot_accounts_challenge_to_itself_is_refused_saying_why(
    app: Starlette, target: str, why: str,
) -> None:
    """Its own page shows it no challenge form (it is the bot); the refusal is said there all the same."""
    me = Browser(app)
    me.go("GET", "/")
    assert me.post("/account/create", username="selfbot", password=PASSWORD).status_code == 303
    assert me.post("/account/bot", confirm="yes").status_code == 303
    answer = me.post("/bots/selfbot/challenge", preset="oklahoma", target=target)
    assert answer.status_code == 400
    assert f'role="alert">{why}</p>' in answer.text, answer.text[-800:]


def test_a_declined_challenge_says_so_to_its_challenger(server: ServerProcess) -> None:
    _c, token = bot(server.url, "robo.c")
    ann = Web(server.url)
    ident = challenge(ann, "robo.c", preset="gin", target="50")
    events = Stream(server.url, token, "/api/stream/event")
    seen = events.wait_for(lambda f: f["type"] == "challenge", "the challenge")["challenge"]
    assert seen["id"] == ident and seen["rules"] == {"preset": "gin", "target": 50} and seen["target"] == 50
    assert api(server.url, token, "POST", f"/api/challenge/{ident}/decline").json() == {"ok": True}
    assert "declined your challenge" in ann.client.get(f"/challenges/{ident}").text
    assert Web(server.url).client.get(f"/challenges/{ident}").status_code == 404  # Ann's page only
    bad = ann.post("/bots/robo.c/challenge", preset="oklahoma-multiplayer", target="50")
    assert bad.status_code == 400 and "The rules are one of" in bad.text


def test_a_revoked_token_is_refused_at_once_and_its_event_stream_ends(server: ServerProcess) -> None:
    web, token = bot(server.url, "robo.d")
    assert api(server.url, token, "GET", "/api/account").status_code == 200
    events = Stream(server.url, token, "/api/stream/event")
    ident = re.search(r"Token ([0-9a-f]{12})", web.client.get("/profile").text)
    assert ident
    assert web.post("/account/tokens/revoke", token=ident.group(1)).status_code == 303
    refused = api(server.url, token, "GET", "/api/account")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "bad_token"
    assert events.done.wait(30), "the open event stream did not end"
    assert "Token " + ident.group(1) not in web.client.get("/profile").text


@pytest.mark.slow
def test_a_flood_from_one_token_is_limited_and_others_still_play(server: ServerProcess) -> None:
    _e, flooder = bot(server.url, "robo.e")
    _f, other = bot(server.url, "robo.f")

    async def flood() -> list[httpx.Response]:
        async with httpx.AsyncClient(headers={"Authorization": f"Bearer {flooder}"}) as web:
            return [await web.get(server.url + "/api/account") for _ in range(120)]

    answers = run(flood())
    limited = [a for a in answers if a.status_code == 429]
    assert limited, [a.status_code for a in answers]
    assert limited[0].json()["error"] == {"code": "rate_limited",
                                          "message": "too many requests with this token: at most 10 a second"}
    assert limited[0].headers["retry-after"] == "1"
    started = time.perf_counter()
    assert api(server.url, other, "GET", "/api/account").status_code == 200  # another bot: not slowed
    person = Web(server.url)
    assert person.client.get("/bots/robo.f").status_code == 200
    assert time.perf_counter() - started < 5


def test_no_token_or_a_bad_one_is_refused_with_a_clear_error(server: ServerProcess) -> None:
    missing = httpx.get(server.url + "/api/account")
    assert missing.status_code == 401 and missing.json()["error"]["code"] == "no_token"
    assert missing.headers["www-authenticate"].startswith("Bearer")
    wrong = api(server.url, "okgin_" + "x" * 43, "GET", "/api/account")
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_token"


def test_only_an_account_that_played_no_rated_game_becomes_a_bot_and_it_never_goes_back(
    app: Starlette, db: Path,
) -> None:
    ann = Browser(app)
    ann.go("GET", "/")
    refused = ann.post("/account/bot", confirm="yes")
    assert refused.status_code == 400 and "make an account first" in refused.text.lower()
    assert ann.post("/account/create", username="ann.rated", password=PASSWORD).status_code == 303
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as rows:
        player = rows.execute(text("SELECT player FROM accounts WHERE username = 'ann.rated'")).scalar()
        rows.execute(insert(rating_history).values(player=player, game="g", family="two-player", rated=1.0,
                                                   place=1, weight=1.0, mu=25.0, sigma=8.0, ordinal=1.0))
    engine.dispose()
    refused = ann.post("/account/bot", confirm="yes")
    assert refused.status_code == 400 and "played rated games as a person" in refused.text.lower()
    bob = Browser(app, address="10.0.0.2")
    bob.go("GET", "/")
    assert bob.post("/account/create", username="bob.bot", password=PASSWORD).status_code == 303
    assert "cannot be undone" in bob.post("/account/bot").text  # the box not ticked: refused
    assert bob.post("/account/bot", confirm="yes").status_code == 303
    page = bob.go("GET", "/profile").text
    assert 'class=bot-mark>BOT</span> account' in page and "/account/bot" not in page
    again = bob.go("POST", "/account/bot", {"csrf": bob.csrf(), "confirm": "yes"})
    assert again.status_code == 400 and "a bot account already" in again.text.lower()
    listed = bob.go("GET", "/bots").text
    assert 'href="/bots/bob.bot"' in listed and "BOT" in listed
    assert "BOT" in bob.go("GET", "/bots/bob.bot").text


@pytest.mark.slow
def test_a_server_stopped_with_a_bots_streams_open_ends_them_and_exits(tmp_path: Path) -> None:
    """SIGTERM (a deploy's restart) ends `okgin serve` while a bot holds its event and game
    streams open (each a response that never ends by itself): the streams end on their own, so
    nothing is cut and nothing is logged as an error."""
    own = ServerProcess(tmp_path / "games.db").start()
    try:
        _robo, token = bot(own.url, "robo.stopped")
        events = Stream(own.url, token, "/api/stream/event")
        web = signed_up(own.url, "stopped.person")
        accepted = api(own.url, token, "POST", f"/api/challenge/{challenge(web, 'robo.stopped')}/accept")
        room = accepted.json()["room"]
        game = Stream(own.url, token, f"/api/bot/game/stream/{room}")
        game.wait_for(lambda f: f["type"] == "state", "the first state")
        assert own.process is not None
        own.process.terminate()
        own.process.wait(timeout=30)  # before, the process waited for the streams for ever
    finally:
        own.kill()
    assert own.process.returncode in (0, -signal.SIGTERM), own.log()
    assert "ERROR" not in own.log() and "Traceback" not in own.log(), own.log()
    assert events.done.wait(10) and game.done.wait(10)
