"""Players: every browser a guest from its first visit, its cookie, its display name, and the
seats it takes recorded against it (okgin/server/players/)."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path

import httpx
from scripted_client import Client, new_guest, open_room, run, take_seat
from server_process import ServerProcess
from starlette.applications import Starlette

from okgin.server import create_app
from okgin.server.players.identity import Players


def db_rows(db: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(query, args).fetchall()


def browse(app: Starlette, base: str, paths: list[str], cookie: str | None = None) -> list[httpx.Response]:
    """GET each of ``paths`` in turn as one browser (its cookies kept)."""
    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=base) as web:
            if cookie:
                web.cookies.set("okgin_session", cookie)
            return [await web.get(path) for path in paths]

    return run(go())


def test_a_first_visit_makes_a_guest_whose_cookie_is_httponly_and_lax(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app = create_app(f"sqlite:///{db}")
    first, again, static = browse(app, "http://127.0.0.1", ["/", "/history", "/static/page.css"])
    cookie = first.headers["set-cookie"]
    assert cookie.startswith("okgin_session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie
    assert "set-cookie" not in again.headers  # the same browser stays the same guest
    assert "set-cookie" not in static.headers
    assert browse(app, "http://127.0.0.1", ["/static/page.css"])[0].headers.get("set-cookie") is None
    session_id = cookie.split(";")[0].split("=", 1)[1]
    hashed = hashlib.sha256(session_id.encode()).hexdigest()
    assert db_rows(db, "SELECT count(*) FROM players") == [(1,)]
    # The store keeps only the cookie's hash: its rows cannot be used as a cookie.
    assert db_rows(db, "SELECT count(*) FROM sessions WHERE id_hash = ?", hashed) == [(1,)]
    assert db_rows(db, "SELECT count(*) FROM sessions WHERE id_hash = ?", session_id) == [(0,)]


def test_the_cookie_is_secure_when_served_over_https(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", secure_cookies=True)
    cookie = browse(app, "https://127.0.0.1", ["/"])[0].headers["set-cookie"]
    assert "; Secure" in cookie and "HttpOnly" in cookie


def test_an_unknown_or_forged_cookie_is_a_new_guest_not_someone_else(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}")
    answer = browse(app, "http://127.0.0.1", ["/"], cookie="x" * 43)[0]
    assert answer.headers["set-cookie"].split(";")[0] != "okgin_session=" + "x" * 43


def test_the_name_typed_at_a_table_is_the_players_and_prefills_their_next_room(
    server: ServerProcess,
) -> None:
    cookie = new_guest(server.url)

    async def go() -> dict[str, object]:
        first = await open_room(server.ws_url, 2, "Ann", cookie=cookie)
        await first.close()
        second = await open_room(server.ws_url, 2, "", cookie=cookie)  # no name typed this time
        room = second.room_state or await second.receive()
        await second.close()
        return room

    room = run(go())
    assert [s["name"] for s in room["seats"]] == ["Ann", ""]  # type: ignore[index]
    page = httpx.get(server.url + "/", cookies={"okgin_session": cookie}).text
    assert '<meta name="okgin-name" content="Ann">' in page
    stranger = httpx.get(server.url + "/").text
    assert '<meta name="okgin-name" content="">' in stranger


def test_the_seats_of_a_room_game_and_a_solo_game_are_recorded_against_their_players(
    server: ServerProcess,
) -> None:
    ann, bob = new_guest(server.url), new_guest(server.url)

    async def go() -> tuple[str | None, str | None]:
        host = await open_room(server.ws_url, 2, "Ann", cookie=ann)
        assert host.room
        guest = await take_seat(server.ws_url, host.room, 1, "Bob", cookie=bob)
        assert (await host.request({"type": "start", "seed": 2}))["type"] == "ack"
        solo = await Client.connect(server.ws_url, bob)
        await solo.open_game({"type": "new", "opponents": ["easy"]})
        for client in (host, guest, solo):
            await client.close()
        return host.game, solo.game

    room_game, solo_game = run(go())
    # Each by their browser's session (a name belongs to one player only: another Ann may have it).
    ids = {name: db_rows(server.db, "SELECT player FROM sessions WHERE id_hash = ?",
                         hashlib.sha256(cookie.encode()).hexdigest())[0][0]
           for name, cookie in (("Ann", ann), ("Bob", bob))}
    seats = db_rows(server.db, "SELECT game, seat, player FROM game_players WHERE player IN (?, ?)",
                  ids["Ann"], ids["Bob"])
    assert sorted(seats, key=str) == sorted([(room_game, 0, ids["Ann"]), (room_game, 1, ids["Bob"]),
                                             (solo_game, 0, ids["Bob"])], key=str)



def test_a_player_takes_their_seat_back_from_another_device_without_its_token(
    server: ServerProcess,
) -> None:
    ann, stranger = new_guest(server.url), new_guest(server.url)

    async def go() -> dict[str, object]:
        host = await open_room(server.ws_url, 2, "Ann", cookie=ann)
        assert host.room
        phone = await Client.connect(server.ws_url, ann)  # the same player, signed in elsewhere
        entered = await phone.request({"type": "enter", "room": host.room})
        seat_back = phone.seat
        hosted = await phone.request({"type": "computer", "seat": 1, "level": "easy"})
        other = await Client.connect(server.ws_url, stranger)
        await other.request({"type": "enter", "room": host.room})
        refused = await other.request({"type": "clear", "seat": 1})
        solo = await Client.connect(server.ws_url, ann)
        await solo.open_game({"type": "new", "opponents": ["easy"]})
        laptop = await Client.connect(server.ws_url, ann)
        await laptop.open_game({"type": "join", "game": solo.game})
        watcher = await Client.connect(server.ws_url, stranger)
        await watcher.open_game({"type": "join", "game": solo.game})
        for client in (host, phone, other, solo, laptop, watcher):
            await client.close()
        return {"entered": entered["type"], "seat": seat_back, "hosted": hosted["type"],
                "other": other.seat, "refused": refused["type"], "laptop": laptop.seat,
                "watcher": watcher.seat}

    assert run(go()) == {"entered": "ack", "seat": 0, "hosted": "ack", "other": None, "refused": "error",
                         "laptop": 0, "watcher": None}


def test_guests_who_never_sat_anywhere_are_forgotten_after_the_idle_time(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app = create_app(f"sqlite:///{db}")
    cookies = [browse(app, "http://127.0.0.1", ["/"])[0].cookies["okgin_session"] for _ in range(3)]
    players: Players = app.state.players
    sitting = players.session(cookies[0])
    assert sitting is not None
    players.sat_in_game("g", {0: sitting.player})
    assert players.forget_idle_guests(time.time() - 3600) == 0  # made just now: kept
    assert players.forget_idle_guests(time.time() + 1) == 2
    assert db_rows(db, "SELECT id FROM players") == [(sitting.player,)]
    assert db_rows(db, "SELECT count(*) FROM sessions") == [(1,)]
    assert players.session(cookies[1]) is None and players.session(cookies[0]) is not None
