"""The leaderboard, and ratings on the profile and statistics pages: a room game between people
and a solo game rated once each, names and ratings shown and nothing else, your own figures only."""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, new_guest, open_room, run, take_seat, wait_for
from server_process import ServerProcess
from sqlalchemy import insert
from test_players import browse, db_rows

from okgin.server import create_app
from okgin.server.players.identity import Players
from okgin.server.players.rating_store import bucket
from okgin.server.players.ratings import shown_rating
from okgin.server.store.schema import ratings

SHORT = {"preset": "oklahoma", "target": 10}


def _get(server: ServerProcess, path: str, cookie: str | None) -> str:
    return httpx.get(server.url + path, cookies={"okgin_session": cookie} if cookie else None).text


def _player(server: ServerProcess, cookie: str) -> str:
    """The player id behind a session cookie (the store keeps the cookie's SHA-256)."""
    hashed = hashlib.sha256(cookie.encode()).hexdigest()
    return str(db_rows(server.db, "SELECT player FROM sessions WHERE id_hash = ?", hashed)[0][0])


def _rated(server: ServerProcess, count: int) -> None:
    """Wait until ``count`` games are rated (the rating is written in a thread after the last move)."""
    deadline = time.monotonic() + 60
    while db_rows(server.db, "SELECT count(*) FROM rated_games")[0][0] < count:
        assert time.monotonic() < deadline, "the games were not rated"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def played(server: ServerProcess) -> dict[str, str]:
    """Ann and Bob <3 finish a room game and start a rematch; Ann then plays Ruby (solo, the
    coach allowed: not rated), and Cy a game of gin in a room of her own with a computer player.
    Their cookies, by name."""
    cookies = {name: new_guest(server.url) for name in ("Ann", "Bob <3", "Cy")}

    async def go() -> None:
        host = await open_room(server.ws_url, 2, "Ann", SHORT, cookie=cookies["Ann"])
        assert host.room
        guest = await take_seat(server.ws_url, host.room, 1, "Bob <3", cookie=cookies["Bob <3"])
        assert (await host.request({"type": "start", "seed": 5}))["type"] == "ack"
        await asyncio.gather(host.play(), guest.play())
        first = host.game
        assert (await guest.request({"type": "rematch"}))["type"] == "ack"  # Bob offers
        assert (await host.request({"type": "rematch"}))["type"] == "ack"  # Ann says yes: begun, not finished
        if host.room_state["game"] == first:  # the new game's frame may come before the ack
            await wait_for(host, lambda m: m["type"] == "room" and m["game"] != first)
        solo = await Client.connect(server.ws_url, cookies["Ann"])
        await solo.open_game({"type": "new", "opponents": ["easy"], "seed": 3, "rules": SHORT})
        assert (await solo.play())["final"] is not None
        cy = await open_room(server.ws_url, 2, "Cy", {"preset": "gin", "target": 10}, cookie=cookies["Cy"])
        assert (await cy.request({"type": "computer", "seat": 1, "level": "easy"}))["type"] == "ack"
        assert (await cy.request({"type": "start", "seed": 3}))["type"] == "ack"
        assert (await cy.play())["final"] is not None
        for client in (host, guest, solo, cy):
            await client.close()

    run(go())
    _rated(server, 3)
    return cookies


def test_room_games_are_rated_once_each_and_a_solo_game_with_the_coach_not(
    server: ServerProcess, played: dict[str, str],
) -> None:
    ids = {name: _player(server, cookie) for name, cookie in played.items()}
    rows = db_rows(server.db, "SELECT player, family, games FROM ratings")
    assert sorted(rows) == sorted([(ids["Ann"], "two-player", 1), (ids["Bob <3"], "two-player", 1),
                                   (ids["Cy"], "two-player", 1)])
    weights = db_rows(server.db, "SELECT h.player, r.solo, h.weight FROM rating_history h JOIN rated_games r "
                      "ON r.game = h.game WHERE h.player IN (?, ?) ORDER BY h.rated", ids["Ann"], ids["Cy"])
    assert weights == [(ids["Ann"], 0, 1.0), (ids["Cy"], 0, 0.5)]  # people in full, a computer at half
    assert db_rows(server.db, "SELECT solo, family FROM rated_games ORDER BY rated") == [
        (0, "two-player"), (1, None), (0, "two-player")]  # Ann's game against Ruby: the coach, not rated


def test_the_leaderboard_shows_names_and_ratings_only(server: ServerProcess, played: dict[str, str]) -> None:
    page = _get(server, "/leaderboard", played["Ann"])
    assert "<h1>Leaderboard</h1>" in page and "Two-player rules" in page
    assert "Bob" not in page and "(you)" not in page  # nobody past 5 games: nobody listed
    assert "Nobody is listed here yet" in page
    assert page.count(", provisional: ") == 1  # your own line
    assert "Your place: <b>" in page and "of 3 rated" in page
    for (player,) in db_rows(server.db, "SELECT id FROM players"):
        assert player not in page
    stranger = _get(server, "/leaderboard", new_guest(server.url))
    assert "You have no rating here yet" in stranger and "(you)" not in stranger


def test_the_profile_shows_your_rating_and_links_the_leaderboard(
    server: ServerProcess, played: dict[str, str],
) -> None:
    page = _get(server, "/profile", played["Bob <3"])
    assert "<h2>Your rating</h2>" in page and "Two-player rules: <b>" in page
    assert ", provisional: 1 of 5 games" in page and 'href="/leaderboard"' in page
    (place, rating), = db_rows(server.db, "SELECT place, ordinal FROM rating_history WHERE player = ?",
                               _player(server, played["Bob <3"]))
    assert re.search(r"<h3>Your last results</h3><ul class=recent><li>[^<]* UTC: "
                     f"{('1st', '2nd')[int(place) - 1]} of 2 \\(two-player rules\\), rating after it "
                     f"{shown_rating(float(rating))}</li></ul>", page)
    ann = _get(server, "/profile", played["Ann"])  # the room game (the solo game is not rated)
    assert ann.count("of 2 (two-player rules)") == 1
    assert "No rating yet" in _get(server, "/profile", new_guest(server.url))
    for path in ("/history", "/stats"):
        assert 'href="/leaderboard"' in _get(server, path, played["Ann"])


def test_your_statistics_show_your_rating_history_and_results_and_nobody_elses(
    server: ServerProcess, played: dict[str, str],
) -> None:
    ann = _get(server, "/stats", played["Ann"])
    assert 'id="rating-1"' in ann and "Your rating after each rated game" in ann
    assert ("<td data-label=Rules>oklahoma</td><td data-label=Where>a room</td><td data-label=Seats>2</td>"
            "<td data-label=Games>1</td>") in ann
    assert "solo, against the computer" not in ann  # played with the coach: not rated
    assert "<td data-label=Rules>gin</td>" not in ann  # Cy's game
    cy = _get(server, "/stats", played["Cy"])
    assert "<td data-label=Rules>gin</td><td data-label=Where>a room</td>" in cy
    assert "<td data-label=Rules>oklahoma</td>" not in cy
    bob = _get(server, "/stats", played["Bob <3"])
    assert "a room" in bob and "<td data-label=Rules>gin</td>" not in bob
    assert "No finished games yet" in _get(server, "/stats", new_guest(server.url))


def test_the_best_100_and_your_own_place_below_them(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    engine = app.state.store.engine
    players = Players(engine)
    people = [players.new_guest() for _ in range(130)]
    for number, (session, _) in enumerate(people):
        players.set_name(session.player, f"Player {number}")
    with engine.begin() as db:
        db.execute(insert(ratings), [
            {"player": s.player, "family": "multi-player", "mu": 40.0 - n * 0.1, "sigma": 2.0,
             "ordinal": 34.0 - n * 0.1, "bucket": bucket(34.0 - n * 0.1), "games": 10 + n % 2,
             "updated": 0.0}
            for n, (s, _) in enumerate(people)])
    app.state.ratings.recount()
    (page,) = browse(app, "http://127.0.0.1", ["/leaderboard"], people[-1][1])
    table = page.text[page.text.index("Multi-player rules"):]
    assert table.count("<tr><td>") == 100  # and its heading row
    assert "Player 99<" in table and "Player 100<" not in table
    assert "Your place: <b>130th</b> of 130 rated, rating 2555." in table  # 10 games: not provisional
    assert "You have no rating here yet" in page.text  # in the two-player family


def _rated_players(tmp_path: Path, people: list[tuple[str | None, float, int]]) -> tuple[Any, list[str]]:
    """An app whose two-player family holds ``people`` (name or None, ordinal, games); their cookies."""
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    players = Players(app.state.store.engine)
    made = [players.new_guest() for _ in people]
    for (session, _), (name, _ordinal, _games) in zip(made, people, strict=True):
        if name is not None:
            players.set_name(session.player, name)
    with app.state.store.engine.begin() as db:
        db.execute(insert(ratings), [
            {"player": s.player, "family": "two-player", "mu": ordinal + 6.0, "sigma": 2.0,
             "ordinal": ordinal, "bucket": bucket(ordinal), "games": games, "updated": 0.0}
            for (s, _), (_name, ordinal, games) in zip(made, people, strict=True)])
    app.state.ratings.recount()
    return app, [cookie for _, cookie in made]


def test_ratings_show_near_1500_and_the_board_lists_only_named_players_past_5_games(tmp_path: Path) -> None:
    app, cookies = _rated_players(tmp_path, [
        ("Dora", 0.0, 5), ("Eli <3", 3.44, 12), ("Two games", 9.0, 2), (None, 8.0, 30), ("Fay", -1.83, 6)])
    (page,) = browse(app, "http://127.0.0.1", ["/leaderboard"], cookies[0])
    table = page.text[page.text.index("<table class=leaderboard>"):]
    rows = re.findall(r"<tr[^>]*><td>(\d+)</td><td>([^<]*)</td><td>([^<]*)</td><td>(\d+)</td></tr>", table)
    assert rows == [("1", "Eli &lt;3", "1672", "12"), ("2", "Dora (you)", "1500", "5"),
                    ("3", "Fay", "1408", "6")]
    assert "Two games" not in page.text and "(no name yet)" not in page.text
    assert "provisional" not in table  # nobody listed is provisional
    (two,) = browse(app, "http://127.0.0.1", ["/leaderboard"], cookies[2])
    assert "rating 1950<span class=provisional>, provisional: 2 of 5 games</span>." in two.text
    assert "You are listed after 3 more rated games." in two.text
    (nameless,) = browse(app, "http://127.0.0.1", ["/leaderboard"], cookies[3])
    assert "You are listed once you choose a name" in nameless.text


def test_the_profile_shows_a_provisional_rating_as_such(tmp_path: Path) -> None:
    app, cookies = _rated_players(tmp_path, [("Gus", 0.24, 3), ("Hal", 1.0, 5)])
    gus, = browse(app, "http://127.0.0.1", ["/profile"], cookies[0])
    provisional = "<span class=provisional>, provisional: 3 of 5 games</span>"
    assert f"Two-player rules: <b>1512{provisional}</b>" in gus.text
    hal, = browse(app, "http://127.0.0.1", ["/profile"], cookies[1])
    assert "Two-player rules: <b>1550</b>" in hal.text
