"""Bots in tournaments, on a real server (docs/api.md, docs/tournaments.md): a tournament its
host opened to bots takes a bot account's entry through the API (marked BOT among the entrants)
and lets it withdraw; one not opened refuses it, through the API or the page, changing nothing;
bad requests are refused with the reason; and a bot's table comes on its event stream, where
`okgin bot` finds it and plays it out against a scripted person."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import httpx
import orjson
import pytest
from scripted_client import person_plays, run
from server_process import ServerProcess
from test_bot_api import Stream, Web, api, bot, new_token, okgin_bot, signed_up

FORM = {"format": "swiss", "places": "4", "table": "2", "preset": "oklahoma", "target": "100",
        "levels": "normal"}


def make(host: Web, **change: str) -> str:
    made = host.post("/t", **{**FORM, **change})
    assert made.status_code == 303, made.text
    return str(made.headers["location"]).removeprefix("/t/")


def entrants(url: str, code: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{url}/t/{code}/state")
    assert answer.status_code == 200
    return list(answer.json()["entrants"])


def test_a_tournament_opened_to_bots_takes_a_bots_entry_marked_bot_and_lets_it_withdraw(
        server: ServerProcess) -> None:
    host = Web(server.url)
    code = make(host, bots="on", name="Open to bots")
    _robo, token = bot(server.url, "t.robo")
    joined = api(server.url, token, "POST", f"/api/tournament/{code}/join")
    assert joined.status_code == 200 and joined.json() == {"ok": True}
    assert entrants(server.url, code) == [{"seed": 0, "name": "t.robo", "level": None, "person": True,
                                           "bot": True}]
    live = httpx.get(f"{server.url}/t/{code}/live").text
    assert "t.robo <span class=bot-mark>BOT</span>" in live
    again = api(server.url, token, "POST", f"/api/tournament/{code}/join")
    assert again.status_code == 400 and again.json()["error"] == {
        "code": "refused", "message": "you have already joined this tournament"}
    assert api(server.url, token, "POST", f"/api/tournament/{code}/withdraw").json() == {"ok": True}
    assert entrants(server.url, code) == []
    twice = api(server.url, token, "POST", f"/api/tournament/{code}/withdraw")
    assert twice.status_code == 400 and "you have not joined" in twice.json()["error"]["message"]


def test_a_tournament_not_opened_to_bots_refuses_a_bot_and_changes_nothing(server: ServerProcess) -> None:
    host = Web(server.url)
    code = make(host, name="People only")
    assert host.post(f"/t/{code}/join", name="Hana").status_code == 303
    before = entrants(server.url, code)
    robo, token = bot(server.url, "t.closed")
    refused = api(server.url, token, "POST", f"/api/tournament/{code}/join")
    assert refused.status_code == 400 and refused.json()["error"] == {
        "code": "refused",
        "message": "this tournament is not open to bots: its host did not let bot accounts join"}
    on_page = robo.post(f"/t/{code}/join", name="t.closed")  # the people's form refuses it too
    assert on_page.status_code == 400 and "not open to bots" in on_page.text
    assert entrants(server.url, code) == before
    assert httpx.get(f"{server.url}/t/{code}/state").json()["settings"]["bots"] is False


def test_bad_requests_to_the_tournament_calls_are_refused_with_the_reason(server: ServerProcess) -> None:
    host = Web(server.url)
    code = make(host, bots="on")
    _robo, token = bot(server.url, "t.bad")
    unknown = api(server.url, token, "POST", "/api/tournament/" + "x" * 16 + "/join")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "no_tournament"
    person_token = new_token(signed_up(server.url, "t.person"))
    as_person = api(server.url, person_token, "POST", f"/api/tournament/{code}/join")
    assert as_person.status_code == 403 and as_person.json()["error"]["code"] == "not_bot"
    no_token = host.client.post(f"/api/tournament/{code}/join", headers={"Origin": server.url})
    assert no_token.status_code == 401 and no_token.json()["error"]["code"] == "no_token"
    assert entrants(server.url, code) == []


def test_okgin_bot_told_to_join_a_tournament_not_open_to_bots_ends_with_one_line(
        server: ServerProcess) -> None:
    code = make(Web(server.url), name="People only, again")
    _robo, token = bot(server.url, "t.joiner")
    process = okgin_bot("--server", server.url, "--token", token, "--join", code)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "joined tournament" not in out.decode()
    said = err.decode().strip().splitlines()
    assert len(said) == 1 and "not open to bots" in said[0], said
    assert entrants(server.url, code) == []


@pytest.mark.slow
def test_a_bots_table_comes_on_its_event_stream_and_okgin_bot_plays_it_out(server: ServerProcess) -> None:
    host = Web(server.url)
    code = make(host, bots="on", places="2", auto="on", target="25", preset="gin")
    assert host.post(f"/t/{code}/join", name="Ivy").status_code == 303
    _robo, token = bot(server.url, "t.player")
    events = Stream(server.url, token, "/api/stream/event")
    process = okgin_bot("--level", "normal", "--server", server.url, "--token", token, "--games", "1",
                        "--join", code)  # enters it itself
    try:
        started = events.wait_for(lambda f: f["type"] == "gameStart", "the tournament's table", timeout=30)
        room = started["game"]["room"]
        tables = httpx.get(f"{server.url}/t/{code}/state").json()["tables"]
        assert [t["room"] for t in tables] == [room]
        client = run(person_plays(server.ws_url, host.cookie, room))
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err.decode()
    assert f"t.player joined tournament {code}" in out.decode()
    assert f"game over in room {room}:" in out.decode()
    assert client.state is not None and client.state["final"] is not None
    with sqlite3.connect(server.db) as db:
        data = orjson.loads(db.execute("SELECT data FROM rooms WHERE code = ?", (room,)).fetchone()[0])
    assert data["seats"][started["game"]["seat"]]["bot"] is True
    assert sorted(seat["bot"] for seat in data["seats"]) == [False, True]
    give_up = time.monotonic() + 30
    while httpx.get(f"{server.url}/t/{code}/state").json()["status"] != "finished":
        assert time.monotonic() < give_up, "the tournament did not finish"
        time.sleep(0.2)
