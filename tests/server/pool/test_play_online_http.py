"""Play online over HTTP, on a real server: two seekers of Oklahoma are seated at one rated room
under the names they typed; and refused, with nothing changed, as an attacker or a bad page
would try: no CSRF token, another site's Origin, rules or seats not offered, a name too long,
another player's seeker (looked at, cancelled, or taken to a computer)."""

from __future__ import annotations

import json
import re
import sqlite3
import time

import httpx
import pytest
from server_process import Serve, ServerProcess, web_client

from okgin.server.pages.table_lists import playing
from okgin.server.pool.choices import PoolSettings
from okgin.server.pool.matchmaker import make_room
from okgin.server.pool.seekers import Seeker
from okgin.server.wire.limits import Limits


@pytest.fixture(scope="module")
def site(serve: Serve) -> ServerProcess:
    return serve(extra=("--pool-offer-seconds", "600"))


def browser(server: ServerProcess) -> httpx.Client:
    web = web_client(server.url, headers={"Origin": server.url})
    page = web.get("/play-online")
    assert page.status_code == 200
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    web.headers["X-CSRF-Token"] = found.group(1)
    return web


def seekers(server: ServerProcess) -> int:
    with sqlite3.connect(server.db) as db:
        return int(db.execute("SELECT count(*) FROM pool_seekers").fetchone()[0])


def seated(web: httpx.Client, seeker: str) -> dict[str, object]:
    deadline = time.monotonic() + 20
    while True:
        answer = web.post(f"/play-online/seek/{seeker}").json()
        if answer["state"] not in ("waiting", "pairing") or time.monotonic() > deadline:  # pairing:
            # claimed by a look at the pool, its room being made
            return dict(answer)
        time.sleep(0.5)  # a page's pace (its looks are limited to 3 a second)


def test_two_seekers_of_oklahoma_are_seated_at_one_rated_room_under_their_names(site: ServerProcess) -> None:
    ann, ben = browser(site), browser(site)
    first = ann.post("/play-online/seek", json={"rules": "oklahoma", "seats": 2, "name": "Ann"}).json()
    second = ben.post("/play-online/seek", json={"rules": "oklahoma", "seats": 2, "name": "Ben"}).json()
    assert first["state"] == "waiting" and first["window"] == 100 and first["rating"] == 1500
    a, b = seated(ann, first["seeker"]), seated(ben, second["seeker"])
    assert a["state"] == b["state"] == "seated" and a["room"] == b["room"]
    assert {a["seat"], b["seat"]} == {0, 1}
    with sqlite3.connect(site.db) as db:
        data = json.loads(db.execute("SELECT data FROM rooms WHERE code = ?", (a["room"],)).fetchone()[0])
        rows = db.execute("SELECT seat, player FROM room_players WHERE room = ?", (a["room"],)).fetchall()
    players = dict(rows)
    assert data["phase"] == "playing" and data["coach"] is False and data["timer"] == 60
    assert sorted(seat["name"] for seat in data["seats"]) == ["Ann", "Ben"]
    assert len(set(players.values())) == 2
    with sqlite3.connect(site.db) as db:  # a guest with no name keeps the one typed, as at a table
        names = {db.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()[0]
                 for player in players.values()}
    assert names == {"Ann", "Ben"}


def test_a_seek_without_our_page_or_its_token_is_refused_and_joins_nobody(site: ServerProcess) -> None:
    web = browser(site)
    before = seekers(site)
    body = {"rules": "gin", "seats": 2}
    assert web.post("/play-online/seek", json=body, headers={"X-CSRF-Token": "x"}).status_code == 403
    elsewhere = {"Origin": "https://elsewhere.example"}
    assert web.post("/play-online/seek", json=body, headers=elsewhere).status_code == 403
    assert httpx.post(site.url + "/play-online/seek", json=body).status_code == 403  # no session at all
    assert seekers(site) == before


@pytest.mark.parametrize("body", [{"rules": "gin", "seats": 3}, {"rules": "oklahoma-multiplayer", "seats": 2},
                                  {"rules": "house", "seats": 2}, {"rules": "gin", "seats": True},
                                  {"rules": "gin", "seats": 2, "name": "x" * 21}, {"seats": 2},
                                  {"rules": "gin", "seats": 2, "name": 7},
                                  {"rules": "gin", "seats": 2, "name": ["Ann"]}])
def test_a_choice_not_offered_or_a_bad_name_is_refused_with_the_reason(
        site: ServerProcess, body: dict[str, object]) -> None:
    web = browser(site)
    before = seekers(site)
    answer = web.post("/play-online/seek", json=body)
    assert answer.status_code == 400
    assert "Play online offers: oklahoma-big-gin with 2" in answer.json()["error"] or \
        "name must be 1 to 20" in answer.json()["error"] or \
        answer.json()["error"] == '"name" is text: the name the other players see at the table'
    assert seekers(site) == before


def test_another_players_seeker_is_not_theirs_to_look_at_cancel_or_seat(site: ServerProcess) -> None:
    cat, eve = browser(site), browser(site)
    mine = cat.post("/play-online/seek", json={"rules": "oklahoma-reshuffle", "seats": 4}).json()["seeker"]
    assert eve.post(f"/play-online/seek/{mine}").status_code == 404
    assert eve.post(f"/play-online/seek/{mine}/cancel").json()["state"] == "gone"
    assert eve.post(f"/play-online/seek/{mine}/computer").status_code == 400
    still = cat.post(f"/play-online/seek/{mine}").json()
    assert still["state"] == "waiting" and still["offer"] is False and still["offer_in"] > 500
    assert cat.post(f"/play-online/seek/{mine}/computer").status_code == 400  # offered after 600 s here
    assert cat.post(f"/play-online/seek/{mine}/cancel").json() == {"state": "cancelled"}
    assert cat.post(f"/play-online/seek/{mine}").json()["state"] == "gone"


def test_a_table_of_namesakes_tells_them_apart() -> None:
    now = time.time()
    table = [Seeker(f"s{i}", f"p{i}", "Guest", "oklahoma-multiplayer", 4, 1500, now, now + 10)
             for i in range(3)]
    room, write, seated_players = make_room("code", table, PoolSettings(), 60.0)
    assert room.names == ["Guest", "Guest 2", "Guest 3", "Ruby"]
    assert seated_players == {0: "p0", 1: "p1", 2: "p2"} and room.timer == 60 and not room.coach
    assert write.levels == [None, None, None, "normal"]


def test_a_flood_of_looks_is_limited_without_slowing_another_player(site: ServerProcess) -> None:
    """A page looks once a second; a flood of looks is refused (``Limits.pool_calls`` a second,
    a burst of ``pool_call_burst``) while another player's seek goes through, and the flood is
    still refused after it."""
    flooder, ann = browser(site), browser(site)
    started = time.monotonic()
    mine = flooder.post("/play-online/seek", json={"rules": "gin", "seats": 2}).json()["seeker"]
    looks = [flooder.post(f"/play-online/seek/{mine}") for _ in range(40)]
    other = ann.post("/play-online/seek", json={"rules": "oklahoma-reshuffle", "seats": 3})
    for _ in range(40):  # after it, the flood goes on until it is refused again
        looks.append(flooder.post(f"/play-online/seek/{mine}"))
        if looks[-1].status_code == 429:
            break
    elapsed = time.monotonic() - started
    codes = [look.status_code for look in looks]
    assert codes[:15] == [200] * 15 and set(codes) <= {200, 429}
    assert other.status_code == 200 and other.json()["state"] == "waiting"
    # The bucket (its burst, less the seek) can have refilled at most its rate for the `elapsed`
    # seconds this test measured, however slow the machine: no more looks than that answered.
    limits = Limits()
    assert codes.count(200) <= limits.pool_call_burst - 1 + limits.pool_calls * elapsed, (codes, elapsed)
    assert 429 in codes[:40] and codes[-1] == 429, (codes, elapsed)
    refused = {"error": "too many requests to the pool: wait a second"}
    assert all(look.json() == refused for look in looks if look.status_code == 429)


def test_a_play_online_table_is_among_the_games_being_played_now() -> None:
    """Issue 26: public tables are rated and watched from the list of games being played now."""
    now = time.time()
    table = [Seeker(f"s{i}", f"p{i}", f"P{i}", "oklahoma", 2, 1500, now, now + 10) for i in range(2)]
    room, _write, seated_players = make_room("code", table, PoolSettings(), 60.0)
    shown = playing(room, seated_players, {"p0": 1510, "p1": 1490})
    assert room.listed and shown is not None
    assert [(player.name, player.rating) for player in shown.players] == [("P0", 1510), ("P1", 1490)]


def test_the_choices_are_named_in_the_presets_words(site: ServerProcess) -> None:
    """A player reads the rules as the tournaments' form and the Tables page name them, never by
    a document's number ("003's game")."""
    page = browser(site).get("/play-online").text
    for label in ("2 players: Oklahoma Gin with Big Gin", "2 players: Oklahoma Gin, classic (no Big Gin)",
                  "2 players: Standard Gin Rummy (knock with 10 or less)",
                  "4 players: Oklahoma Gin, reshuffle the pile when the stock runs out"):
        assert label in page
    assert "003" not in page
