"""Bots in Play online's pool, on a real server (docs/api.md): a bot account seeks through the
API and is seated only with a person who allows bot opponents, never with one who does not; its
table comes to it on its event stream; `okgin bot --seek` plays a whole rated game against a
scripted person; a person's choice is kept for their next visit; and every bad request (rules
or seats not offered, a person's token or none, a bot on the people's page, another bot's seek)
is refused with the reason and nothing changed."""

from __future__ import annotations

import re
import sqlite3
import time
from typing import Any

import httpx
import orjson
import pytest
from scripted_client import person_plays, run
from server_process import Serve, ServerProcess
from test_bot_api import Stream, api, bot, new_token, okgin_bot, signed_up
from test_play_online_http import browser, seated


@pytest.fixture(scope="module")
def site(serve: Serve) -> ServerProcess:
    return serve(extra=("--pool-offer-seconds", "600"))


def pool_rows(server: ServerProcess) -> list[tuple[Any, ...]]:
    with sqlite3.connect(server.db) as db:
        return db.execute("SELECT player, preset, seats, bot, bots, state FROM pool_seekers "
                          "ORDER BY joined").fetchall()


def seek(web: httpx.Client, rules: str, bots: bool) -> str:
    answer = web.post("/play-online/seek", json={"rules": rules, "seats": 2, "bots": bots})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["seeker"])


def waiting_for(web: httpx.Client, seeker: str, seconds: float) -> dict[str, Any]:
    """The page's looks for ``seconds`` (its place kept): the last answer."""
    give_up = time.monotonic() + seconds
    answer: dict[str, Any] = {}
    while time.monotonic() < give_up:
        answer = web.post(f"/play-online/seek/{seeker}").json()
        if answer["state"] != "waiting":
            return answer
        time.sleep(0.5)
    return answer


def test_a_bot_is_seated_with_a_person_who_allows_bots_and_never_with_one_who_does_not(
        site: ServerProcess) -> None:
    _web, token = bot(site.url, "pool.robo")
    events = Stream(site.url, token, "/api/stream/event")
    sought = api(site.url, token, "POST", "/api/pool/seek", {"rules": "oklahoma", "seats": 2})
    assert sought.status_code == 200, sought.text
    assert sought.json()["ok"] is True and sought.json()["rating"] == 1500
    refuses = browser(site)
    theirs = seek(refuses, "oklahoma", bots=False)
    # Ten looks at the pool (a tick each half second), past the bot's 10 s lease: both still wait,
    # the bot's place kept by its open event stream.
    assert waiting_for(refuses, theirs, 11.0)["state"] == "waiting"
    assert [row[3:] for row in pool_rows(site)] == [(1, 0, "waiting"), (0, 0, "waiting")]
    allows = browser(site)
    mine = seated(allows, seek(allows, "oklahoma", bots=True))
    assert mine["state"] == "seated"
    started = events.wait_for(lambda f: f["type"] == "gameStart", "the pool's table", timeout=20)
    assert started["game"]["room"] == mine["room"]
    assert started["game"]["seat"] == 1 - int(str(mine["seat"]))
    with sqlite3.connect(site.db) as db:
        row = db.execute("SELECT data FROM rooms WHERE code = ?", (mine["room"],)).fetchone()
    data = orjson.loads(row[0])
    assert [seat["bot"] for seat in data["seats"]][::1 if mine["seat"] == 1 else -1] == [True, False]
    assert data["coach"] is False and data["pool"] is True
    assert waiting_for(refuses, theirs, 1.0)["state"] == "waiting"  # still waiting for a person
    assert refuses.post(f"/play-online/seek/{theirs}/cancel").json() == {"state": "cancelled"}


def test_a_bot_seek_without_its_event_stream_lapses_and_cancelling_one_is_for_its_own_bot_only(
        site: ServerProcess) -> None:
    _web, token = bot(site.url, "pool.quiet")
    _other, other_token = bot(site.url, "pool.other")
    sought = api(site.url, token, "POST", "/api/pool/seek", {"rules": "oklahoma-reshuffle", "seats": 3})
    ident = sought.json()["seeker"]
    refused = api(site.url, other_token, "DELETE", f"/api/pool/seek/{ident}")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "no_seek"
    assert ("oklahoma-reshuffle", 3, 1, 0, "waiting") in [row[1:] for row in pool_rows(site)]
    assert api(site.url, token, "DELETE", f"/api/pool/seek/{ident}").json() == {"ok": True}
    assert api(site.url, token, "DELETE", f"/api/pool/seek/{ident}").status_code == 404
    assert all(row[1] != "oklahoma-reshuffle" for row in pool_rows(site))
    api(site.url, token, "POST", "/api/pool/seek", {"rules": "oklahoma-reshuffle", "seats": 4})
    give_up = time.monotonic() + 15

    def lease() -> float:  # once it runs out, the seeker is no longer among those the pool pairs
        with sqlite3.connect(site.db) as db:
            return float(db.execute("SELECT max(lease) FROM pool_seekers WHERE seats = 4").fetchone()[0])

    while lease() > time.time():
        assert time.monotonic() < give_up, "a bot's seek with no event stream open kept its place"
        time.sleep(0.5)


@pytest.mark.parametrize("body", [{"rules": "house", "seats": 2}, {"rules": "gin", "seats": 9},
                                  {"rules": "gin", "seats": "2"}, {"rules": "gin", "seats": True},
                                  {"seats": 2}])
def test_a_bot_seek_for_rules_or_seats_not_offered_is_refused_with_the_reason(
        site: ServerProcess, body: dict[str, object]) -> None:
    _web, token = bot(site.url, f"pool.bad{abs(hash(repr(body))) % 10_000}")
    before = pool_rows(site)
    answer = api(site.url, token, "POST", "/api/pool/seek", body)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_field"
    assert "Play online offers: oklahoma-big-gin with 2" in answer.json()["error"]["message"]
    assert pool_rows(site) == before


def test_the_bot_calls_refuse_people_and_the_people_s_page_refuses_bots(site: ServerProcess) -> None:
    before = pool_rows(site)
    person = signed_up(site.url, "pool.person")
    person_token = new_token(person)
    answer = api(site.url, person_token, "POST", "/api/pool/seek", {"rules": "gin", "seats": 2})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_bot"
    page = browser(site)  # a person's session, no token
    assert page.post("/api/pool/seek", json={"rules": "gin", "seats": 2}).status_code == 401
    assert api(site.url, "okgin_" + "x" * 43, "POST", "/api/pool/seek",
               {"rules": "gin", "seats": 2}).status_code == 401
    robo, _token = bot(site.url, "pool.page")
    found = re.search(r'name="csrf" value="([^"]+)"', robo.client.get("/play-online").text)
    assert found
    on_page = robo.client.post("/play-online/seek", json={"rules": "gin", "seats": 2},
                               headers={"Origin": site.url, "X-CSRF-Token": found.group(1)})
    assert on_page.status_code == 400 and "seeks through the API" in on_page.json()["error"]
    not_yes_or_no = page.post("/play-online/seek", json={"rules": "gin", "seats": 2, "bots": "yes"})
    assert not_yes_or_no.status_code == 400 and '"bots" is true or false' in not_yes_or_no.json()["error"]
    assert pool_rows(site) == before


def test_a_persons_choice_of_bot_opponents_is_kept_and_off_until_chosen(site: ServerProcess) -> None:
    box = re.compile(r"<input type=checkbox name=bots id=seek-bots( checked)?>")
    web = browser(site)
    first = box.search(web.get("/play-online").text)
    assert first is not None and first.group(1) is None  # rated tables: no bots until chosen
    web.post(f"/play-online/seek/{seek(web, 'oklahoma-big-gin', bots=True)}/cancel")
    chosen = box.search(web.get("/play-online").text)
    assert chosen is not None and chosen.group(1) == " checked"
    web.post(f"/play-online/seek/{seek(web, 'oklahoma-big-gin', bots=False)}/cancel")
    again = box.search(web.get("/play-online").text)
    assert again is not None and again.group(1) is None


@pytest.mark.slow
def test_okgin_bot_seeking_in_the_pool_plays_a_whole_rated_game_against_a_person(site: ServerProcess) -> None:
    _web, token = bot(site.url, "pool.normal")
    process = okgin_bot("--level", "normal", "--server", site.url, "--token", token, "--games", "1",
                        "--seek", "gin:2")
    try:
        give_up = time.monotonic() + 30
        while not any(row[1] == "gin" and row[3] == 1 for row in pool_rows(site)):
            assert time.monotonic() < give_up and process.poll() is None, "the bot did not seek"
            time.sleep(0.2)
        dana = browser(site)
        table = seated(dana, seek(dana, "gin", bots=True))
        assert table["state"] == "seated"
        client = run(person_plays(site.ws_url, str(dana.cookies["okgin_session"]), str(table["room"])))
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err.decode()
    said = out.decode()
    assert "seeking gin with 2 in the pool" in said and f"game over in room {table['room']}:" in said, said
    assert client.state is not None and client.state["final"] is not None
    give_up = time.monotonic() + 60
    with sqlite3.connect(site.db) as db:
        while not db.execute("SELECT 1 FROM rated_games WHERE game = ?", (client.game,)).fetchall():
            assert time.monotonic() < give_up, "the game was not rated"
            time.sleep(0.1)
        families = dict(db.execute(
            "SELECT r.family, count(*) FROM ratings r JOIN rating_history h ON h.player = r.player "
            "AND h.game = ? GROUP BY r.family", (client.game,)).fetchall())
    assert families == {"two-player": 1, "bot-two-player": 1}


def test_okgin_bot_with_a_seek_not_offered_says_so_in_one_line(site: ServerProcess) -> None:
    _web, token = bot(site.url, "pool.typo")
    before = pool_rows(site)
    not_offered = okgin_bot("--server", site.url, "--token", token, "--seek", "house:2")
    _out, err = not_offered.communicate(timeout=60)
    said = err.decode().strip().splitlines()
    assert not_offered.returncode == 2 and len(said) == 1 and "Play online offers:" in said[0], said
    unreadable = okgin_bot("--server", site.url, "--token", token, "--seek", "gin")
    _out, err = unreadable.communicate(timeout=60)
    assert unreadable.returncode == 2 and "give RULES:SEATS, e.g. oklahoma:2" in err.decode()
    assert pool_rows(site) == before
