"""Open tables (issue 26, item 2) and the games being played now: a host's room is private unless
listed (a room stored before says nothing and is private), a flag that is not true or false is
refused and makes no room; the lists, read from the store, hold only listed rooms: a table waits
while its lobby has a free seat and its host is there, and leaves when filled, started or left;
a game in play is listed until it is over, the best-rated first; the page says each in words."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, new_guest, open_room, run, take_seat
from server_process import ServerProcess
from sqlalchemy import insert
from test_players import db_rows

from okgin.rules import preset
from okgin.server.pages.table_lists import Lists, read_lists, rules_in_words
from okgin.server.players.rating_store import RatingStore
from okgin.server.players.ratings import Rating
from okgin.server.rooms.room import Room, RoomError
from okgin.server.store.room_store import RoomTable
from okgin.server.store.schema import ratings
from okgin.server.store.storage import Store

SHORT = {"preset": "oklahoma", "target": 10}


# -- the flag -----------------------------------------------------------------------------------

def test_a_room_is_private_unless_its_host_lists_it() -> None:
    private, _ = Room.create(preset("oklahoma"), 2, "Ann")
    assert private.listed is False and private.public(0)["listed"] is False
    listed, _ = Room.create(preset("oklahoma"), 3, "Ann", listed=True)
    assert listed.public(None)["listed"] is True
    again = Room.from_data(listed.code, listed.version, listed.to_data())
    assert again.listed is True and again == listed


def test_a_room_stored_before_open_tables_is_private() -> None:
    room, _ = Room.create(preset("oklahoma"), 2, "Ann", listed=True)
    data = room.to_data()
    del data["listed"]
    assert Room.from_data(room.code, 3, data).listed is False


@pytest.mark.parametrize("bad", ["yes", 1, 0, None, [True]])
def test_a_listed_flag_that_is_not_true_or_false_is_refused(bad: Any) -> None:
    with pytest.raises(RoomError, match=r"open to anyone \(true\) or by its link only \(false\)"):
        Room.create(preset("oklahoma"), 2, "Ann", listed=bad)


@pytest.mark.parametrize("flag", ["listed", "coach"])
def test_the_server_refuses_a_flag_that_is_not_true_or_false(server: ServerProcess, flag: str) -> None:
    """A table's yes-or-no choices (an open table, the coach allowed) take true or false only."""
    async def go() -> dict[str, Any]:
        host = await Client.connect(server.ws_url, new_guest(server.url))
        answer = await host.request({"type": "create", "players": 2, "name": "Ann", "rules": SHORT,
                                     flag: "yes"})
        await host.close()
        return answer

    rooms = db_rows(server.db, "SELECT count(*) FROM rooms")
    answer = run(go())
    assert answer["type"] == "error" and answer["message"] == f"'create''s '{flag}' is true or false"
    assert db_rows(server.db, "SELECT count(*) FROM rooms") == rooms  # no room made


# -- the lists, from the store -------------------------------------------------------------------


def _lists(rooms: RoomTable[Room]) -> Lists:
    return read_lists(rooms, RatingStore(rooms.engine))


def _waiting(rooms: RoomTable[Room]) -> list[str]:
    return [table.code for table in _lists(rooms).waiting]


def _playing(rooms: RoomTable[Room]) -> list[str]:
    return [game.code for game in _lists(rooms).playing]


def test_a_table_waits_while_it_has_a_free_seat_and_its_host_then_plays_until_over(store_url: str) -> None:
    store = Store(store_url)
    rooms = RoomTable(store, Room.from_data)
    private, _ = Room.create(preset("oklahoma"), 2, "Cy")
    rooms.create(private, seated={0: "p-cy"})
    room, _ = Room.create(preset("oklahoma").replace(target=150), 3, "Ann", timer=60, listed=True)
    rooms.create(room, seated={0: "p-ann"})
    [table] = _lists(rooms).waiting
    assert (table.code, table.host, table.seats, table.free, table.target, table.timer, table.coach) == (
        room.code, "Ann", 3, 2, 150, 60, False)
    room.sit(1, "Bob")
    rooms.save(room, seated={1: "p-bob"})
    assert [t.free for t in _lists(rooms).waiting] == [1]
    room.went_away(0, time.time())  # the host closed the page: nobody to start the game
    rooms.save(room)
    assert _waiting(rooms) == []
    room.came_back(0)
    room.set_computer(0, 2, "hard", time.time())  # the last seat filled: the table is full
    rooms.save(room)
    assert _waiting(rooms) == [] and _playing(rooms) == []
    room.start(0, "g-1")
    rooms.save(room)
    assert _waiting(rooms) == [] and _playing(rooms) == [room.code]
    [game] = _lists(rooms).playing
    assert [(p.name, p.rating, p.level) for p in game.players] == [
        ("Ann", 1500, None), ("Bob", 1500, None), ("Ruby", None, "hard")]  # no rating yet: a new player's
    room.finish()
    rooms.save(room)
    assert _playing(rooms) == []
    private.sit(1, "Dan")
    private.start(0, "g-2")
    rooms.save(private)
    assert _lists(rooms) == Lists((), ())  # a private room is never listed
    store.close()


def test_a_table_leaves_the_list_when_its_host_leaves_the_lobby(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    rooms = RoomTable(store, Room.from_data)
    room, _ = Room.create(preset("oklahoma"), 2, "Ann", listed=True)
    rooms.create(room)
    assert _waiting(rooms) == [room.code]
    room.leave(0)
    rooms.save(room)
    assert _waiting(rooms) == []
    store.close()


def _rate(store: Store, player: str, family: str, mu: float) -> None:
    with store.engine.begin() as db:
        rating = Rating(mu, 3.0, 10)
        db.execute(insert(ratings).values(player=player, family=family, mu=mu, sigma=3.0,
                                          ordinal=rating.ordinal, bucket=int(rating.ordinal * 10),
                                          games=10, updated=time.time()))


def _playing_room(rooms: RoomTable[Room], people: dict[int, tuple[str, str]], seats: int) -> Room:
    names = dict(people)
    room, _ = Room.create(preset("oklahoma-multiplayer" if seats > 2 else "oklahoma"), seats,
                          names.pop(0)[0], listed=True)
    for seat, (name, _player) in names.items():
        room.sit(seat, name)
    for seat in range(seats):
        if room.seats[seat].kind == "empty":
            room.set_computer(0, seat, "normal", time.time())
    room.start(0, f"g-{room.code}")
    rooms.create(room, seated={seat: player for seat, (_name, player) in people.items()})
    return room


def test_the_games_being_played_are_listed_best_rated_first(tmp_path: Path) -> None:
    """By the mean rating of the people seated, in the game's family (a two-player rating does
    not count at a table of three); a person without one counts as a new player (1500)."""
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    rooms = RoomTable(store, Room.from_data)
    _rate(store, "p-ann", "two-player", 15.0)  # shown 1800 (1500 + 50 × (mu - 3 × 3))
    _rate(store, "p-bob", "two-player", 10.0)  # 1550
    _rate(store, "p-cy", "two-player", 0.0)  # 1050
    _rate(store, "p-cy", "multi-player", 20.0)  # 2050
    _rate(store, "p-dan", "two-player", 24.0)  # 2250, but his table is of three
    middling = _playing_room(rooms, {0: ("Ann", "p-ann"), 1: ("Cy", "p-cy")}, 2)  # (1800 + 1050) / 2
    best = _playing_room(rooms, {0: ("Cy", "p-cy"), 1: ("Eve", "p-eve")}, 3)  # (2050 + 1500) / 2
    weakest = _playing_room(rooms, {0: ("Dan", "p-dan")}, 3)  # 1500: a new player at three
    strong = _playing_room(rooms, {0: ("Ann", "p-ann"), 1: ("Bob", "p-bob")}, 2)  # (1800 + 1550) / 2
    games = _lists(rooms).playing
    assert [(g.code, g.rating) for g in games] == [
        (best.code, 1775), (strong.code, 1675), (weakest.code, 1500), (middling.code, 1425)]
    assert [(p.name, p.rating) for p in games[0].players] == [("Cy", 2050), ("Eve", 1500), ("Ruby", None)]
    store.close()


def test_the_rules_are_said_as_the_lobby_says_them() -> None:
    assert rules_in_words(preset("oklahoma-big-gin")) == "Oklahoma Gin with Big Gin"
    assert rules_in_words(preset("oklahoma").replace(target=50, players=2)) == "Oklahoma Gin, classic"
    assert rules_in_words(preset("gin").replace(gin_bonus=20)) == "Standard Gin Rummy, with house rules"


# -- the page ------------------------------------------------------------------------------------

def test_the_tables_page_lists_an_open_table_in_words_and_leaves_out_a_private_one(
    server: ServerProcess,
) -> None:
    async def go() -> tuple[str, str, str]:
        host = await open_room(server.ws_url, 2, "Ann <i>", SHORT, timer=30,
                               cookie=new_guest(server.url), coach=True, listed=True)
        private = await open_room(server.ws_url, 2, "Zed", SHORT, cookie=new_guest(server.url))
        guest = await take_seat(server.ws_url, str(host.room), 1, "Bob", cookie=new_guest(server.url))
        full = await asyncio.to_thread(_until, server, lambda text: "No open table is waiting" in text,
                                       "/tables")
        assert (await guest.request({"type": "leave"}))["type"] == "ack"  # a seat free again
        waiting = await asyncio.to_thread(_until, server, lambda text: "Ann &lt;i&gt;" in text,
                                          "/tables/live")
        for client in (host, private, guest):
            await client.close()
        return str(host.room), full, waiting

    room, full, waiting = run(go())
    assert "Tables" in full and 'src="/static/tables.js"' in full and "Zed" not in full
    assert ("<b>Ann &lt;i&gt;'s table for 2</b>: Oklahoma Gin, classic, first to 10; 1 of 2 seats free; "
            "30 seconds a turn; coach allowed (not rated).") in waiting
    assert f'href="/r/{room}#sit"' in waiting and "Zed" not in waiting and "<i>" not in waiting


def _until(server: ServerProcess, test: Any, path: str) -> str:
    """The page at ``path`` once ``test`` holds of its text (the lists are a second fresh)."""
    deadline = time.monotonic() + 30
    while True:
        text = httpx.get(server.url + path).text
        if test(text):
            return text
        assert time.monotonic() < deadline, text
        time.sleep(0.1)
