"""The coach on the server: hint and advice with reasons, a hand's review over the WebSocket,
the statistics written when a game finishes, the replay data, and pages under a strict CSP."""

from __future__ import annotations

import functools
import random
import re
import secrets
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, choose, new_guest, run
from server_process import Serve, ServerProcess
from stored_games import store_record

from okgin.bots import make_player
from okgin.hand import play_chance
from okgin.match import Match
from okgin.record import match_to_record
from okgin.rules import Rules
from okgin.server.coach import statistics
from okgin.server.coach.statistics import rows_of
from okgin.server.pages.charts import bar_chart, line_chart
from okgin.server.pages.statistics import stats_body
from okgin.server.players.identity import Players
from okgin.server.store.storage import Store

SHORT = {"preset": "oklahoma", "target": 40}
RECORDS = Path(__file__).parents[2] / "records"


@pytest.fixture(scope="module")
def server(serve: Serve) -> ServerProcess:
    """One server for the module (each test plays games of its own), without seeds."""
    return serve()


@pytest.mark.slow
def test_hint_advice_review_and_statistics_over_a_whole_game(server: ServerProcess) -> None:
    cookie = new_guest(server.url)

    async def go() -> dict[str, Any]:
        client = await Client.connect(server.ws_url, cookie)
        await client.open_game({"type": "new", "opponents": ["normal"], "rules": SHORT})
        state = await client.wait_my_move()
        legal = list(state["view"]["legal"])
        hint = await client.request({"type": "hint"})
        early = await client.request({"type": "review"})
        advice = await client.request({"type": "advice"})
        while not state["view"]["result"]:
            state = await client.wait_my_move()
            if state["view"]["result"]:
                break
            message = choose(state)
            assert message is not None
            await client.request(message)
        review = await client.request({"type": "review"})
        bad = await client.request({"type": "review", "hand": 99})
        final = await client.play()
        await client.close()
        return {"legal": legal, "hint": hint, "early": early, "advice": advice, "review": review, "bad": bad,
                "state": state, "final": final, "game": client.game}

    got = run(go())
    hint = got["hint"]
    assert hint["action"] in got["legal"]
    assert re.match(r"(Take|Pass|Draw|Discard|Knock|Go)\b[^:]*: \w", hint["text"]), hint["text"]
    assert got["early"]["message"] == "no hand is over yet: a review is of a finished hand"
    assert got["advice"]["suggestion"]["text"] == hint["text"]
    weighed = got["advice"]["suggestion"]["values"]  # best first, the suggestion at their head
    assert weighed[0]["action"] == hint["action"]
    assert [v["worth"] for v in weighed] == sorted((v["worth"] for v in weighed), reverse=True)
    rows = got["advice"]["discards"]
    if rows and hint["action"].startswith(("discard", "knock")):
        assert rows[0]["card"] == hint["action"].split()[1]  # the hint heads the discard table
    review = got["review"]
    assert review["hand"] == 1 and review["seat"] == 0 and review["decisions"] >= 1
    assert len(review["mistakes"]) <= 3
    assert got["bad"]["type"] == "error" and got["bad"]["message"].startswith("hand must be")
    assert got["final"]["final"] is not None
    _statistics_written(server, got["game"], cookie)


def player_of_cookie(store: Store, cookie: str) -> str:
    """The player id behind a browser's session cookie (the store keeps only its hash)."""
    session = Players(store.engine).session(cookie)
    assert session is not None
    return session.player


def _statistics_written(server: ServerProcess, game: str, cookie: str) -> None:
    """The finished game's rows reach the statistics (written from a worker thread)."""
    deadline = time.monotonic() + 60
    httpx_get = functools.partial(httpx.get, cookies={"okgin_session": cookie})
    while time.monotonic() < deadline:
        page = httpx_get(server.url + "/stats").text
        if "Game 1" in page:
            break
        time.sleep(0.5)
    assert "<svg" in page and "Points per hand" in page and "Game 1" in page
    assert httpx_get(server.url + "/history").text.count(f"/games/{game}/replay") == 1
    steps = httpx_get(f"{server.url}/api/games/{game}/replay").json()
    first = steps["hands"][0]["steps"][0]
    assert len(first["hands"]) == 2 and all(len(h) == 10 for h in first["hands"])
    review = httpx_get(f"{server.url}/games/{game}/review?hand=1")
    assert review.headers["content-security-policy"].startswith("default-src 'self';")
    assert "decisions this hand" in review.text and "<pre" not in review.text


def test_no_replay_of_a_game_in_play(server: ServerProcess) -> None:
    cookie = new_guest(server.url)

    async def go() -> str:
        client = await Client.connect(server.ws_url, cookie)
        state = await client.open_game({"type": "new", "opponents": ["normal"]})
        await client.close()
        return str(state["game"])

    game = run(go())
    answer = httpx.get(f"{server.url}/api/games/{game}/replay", cookies={"okgin_session": cookie})
    assert answer.status_code == 404 and answer.json() == {"error": "no finished game of yours with that id"}


def test_an_uploaded_record_replays_and_bad_ones_get_one_line(server: ServerProcess) -> None:
    text = (RECORDS / "coach_feed.json").read_text(encoding="utf-8")
    steps = httpx.post(server.url + "/api/replay", content=text).json()
    assert steps["names"] == ["You", "Ruby"] and steps["hands"][0]["steps"][1]["words"] == "You pass."
    bad = httpx.post(server.url + "/api/replay", content=text.replace('"0 pass"', '"0 fly"'))
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("not a game record: hand 1, action 1 '0 fly': ")
    assert httpx.post(server.url + "/api/replay", content=b"\xff").json() == {
        "error": "the record is not UTF-8 text"}


def finished_record(seed: int, target: int = 25) -> dict[str, Any]:
    """A whole game between two `simple` players (short: to ``target``)."""
    match = Match(Rules(target=target), first_dealer=0)
    rng = random.Random(seed)
    players = [make_player("simple", random.Random(seed + s)) for s in range(2)]
    while not match.over:
        hand = match.deal_next(rng)
        while not hand.over:
            seat = hand.to_act or 0
            match.apply(players[seat].act(match.view(seat)))
            play_chance(hand, rng)
    return match_to_record(match, ["You", "Ruby"])


def seed_games(db: Path, seeds: Iterable[int], cookie: str | None = None) -> list[str]:
    """Finished games in the store and their statistics, as the server writes them, one dealt
    from each of ``seeds``; played at seat 0 by the player whose session cookie is ``cookie``
    (None: nobody's). Their ids are new ones: a store shared by several tests holds each test's own."""
    store = Store(f"sqlite:///{db}")
    ids = []
    batch = secrets.token_hex(4)
    for seed in seeds:
        record = finished_record(seed)
        game = f"seeded-{batch}-{seed}"
        store_record(store, game, record, ["simple"])
        statistics.record_finished(store.engine, game, record)
        if cookie is not None:
            Players(store.engine).sat_in_game(game, {0: player_of_cookie(store, cookie)})
        ids.append(game)
    store.close()
    return ids


def test_rows_of_a_finished_game_are_the_persons(tmp_path: Path) -> None:
    record = finished_record(1)
    rows = rows_of("g", record)
    assert [row.hand for row in rows] == list(range(1, len(rows) + 1))
    assert all(row.preset == "house" or row.preset == "oklahoma" for row in rows)
    for row, hand in zip(rows, record["hands"], strict=True):
        assert row.mistakes is not None and 0 <= row.mistakes <= 3
        assert hand["dealer"] in (0, 1)
    store = Store(f"sqlite:///{tmp_path / 'r.db'}")
    statistics.write(store.engine, rows)
    statistics.write(store.engine, rows)  # a game is written once
    assert len(statistics.read(store.engine)) == len(rows)
    store.close()


def test_charts_are_svg_with_a_table_and_no_style_attribute() -> None:
    chart = line_chart("p", "Points", [("Game 1", 3.5), ("Game 2", -2)], "points")
    assert chart.count("<svg") == 1 and "<polyline" in chart and "style=" not in chart
    assert "<th scope=row>Game 2</th><td>-2</td>" in chart
    bars = bar_chart("b", "Won", [("Games won", 2), ("Games lost", 1)], "count")
    assert bars.count("<rect") == 2 and "<td>2</td>" in bars


@pytest.mark.slow
def test_statistics_body_from_rows() -> None:
    rows = rows_of("a", finished_record(2)) + rows_of("b", finished_record(3))
    body = stats_body(rows)
    assert "2 finished games" in body and body.count("<svg") == 5
    assert body.count("<table") == 5 and "How hands ended: " in body
