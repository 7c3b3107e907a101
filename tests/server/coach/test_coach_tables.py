"""The coach at competitive tables, over a real server: off in a friends' room unless its host
allowed it (its hints and advice refused, nothing changed), off at a tournament's table, and a game
played with the coach allowed (a room's, or against the computer) is not rated."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from scripted_client import Client, new_guest, open_room, run, take_seat
from server_process import ServerProcess
from test_players import db_rows

from okgin.rules import preset
from okgin.server.rooms.room import Room, RoomError, Seat

SHORT = {"preset": "oklahoma", "target": 10}


def _rated(server: ServerProcess, game: str) -> list[tuple[Any, ...]]:
    """The game's ``rated_games`` row (family; None: rated for nobody), once it is written."""
    deadline = time.monotonic() + 60
    while not (rows := db_rows(server.db, "SELECT family FROM rated_games WHERE game = ?", game)):
        assert time.monotonic() < deadline, "the game was never claimed for rating"
        time.sleep(0.1)
    return rows


async def _room_game(server: ServerProcess, coach: bool | None) -> tuple[Client, Client, dict[str, Any]]:
    """Ann hosts (``coach`` as sent), Bob sits, the game starts; both clients, and Ann's room frame."""
    host = await open_room(server.ws_url, 2, "Ann", SHORT, cookie=new_guest(server.url), coach=coach)
    guest = await take_seat(server.ws_url, str(host.room), 1, "Bob", cookie=new_guest(server.url))
    assert (await host.request({"type": "start", "seed": 5}))["type"] == "ack"
    assert host.room_state is not None
    return host, guest, host.room_state


def test_a_room_without_the_coach_refuses_its_questions_and_its_game_is_rated(server: ServerProcess) -> None:
    async def go() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None, str]:
        host, guest, frame = await _room_game(server, None)  # a host who did not choose: off
        version = frame["version"]
        refused = [await host.request({"type": kind}) for kind in ("hint", "advice")]
        assert (await host.request({"type": "options", "coach": True}))["type"] == "ack"
        state = host.state  # shown again for the new option before its ack
        assert state is not None and host.room_state is not None
        assert host.room_state["version"] == version  # nothing changed
        await asyncio.gather(host.play(), guest.play())
        game = str(host.game)
        for client in (host, guest):
            await client.close()
        return frame, refused, state.get("coach"), game

    frame, refused, advice, game = run(go())
    assert frame["coach"] is False
    off = "the coach is off at this table: its games are rated"
    assert [(a["type"], a["message"]) for a in refused] == [("error", off)] * 2
    assert advice is None  # the page's coach option brings no advice here
    assert _rated(server, game) == [("two-player",)]


def test_a_room_with_the_coach_allowed_answers_it_and_its_game_is_not_rated(server: ServerProcess) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any], str]:
        host, guest, frame = await _room_game(server, True)
        await host.wait_my_move()
        hint = await host.request({"type": "hint"})
        await asyncio.gather(host.play(), guest.play())
        game = str(host.game)
        for client in (host, guest):
            await client.close()
        return frame, hint, game

    frame, hint, game = run(go())
    assert frame["coach"] is True and hint["type"] == "hint" and hint["text"]
    assert _rated(server, game) == [(None,)]  # claimed, rated for nobody
    assert db_rows(server.db, "SELECT count(*) FROM rating_history WHERE game = ?", game) == [(0,)]


def test_a_game_against_the_computer_keeps_its_coach_and_is_not_rated(server: ServerProcess) -> None:
    async def go() -> tuple[dict[str, Any], str]:
        solo = await Client.connect(server.ws_url, new_guest(server.url))
        await solo.open_game({"type": "new", "opponents": ["easy"], "seed": 3, "rules": SHORT})
        await solo.wait_my_move()
        hint = await solo.request({"type": "hint"})
        assert (await solo.play())["final"] is not None
        game = str(solo.game)
        await solo.close()
        return hint, game

    hint, game = run(go())
    assert hint["type"] == "hint"
    assert _rated(server, game) == [(None,)]


def test_a_tournament_table_refuses_the_coach() -> None:
    seats = [Seat("person", "Ann"), Seat("computer", "Ruby", "normal")]
    table = Room.for_table("t1", preset("oklahoma"), seats, "cup", "g1")
    assert table.coach is False and table.public(0)["coach"] is False
    try:
        table.may_coach()
    except RoomError as error:
        assert str(error) == "the coach is off at a tournament's table: its games are rated"
    else:
        raise AssertionError("a tournament's table answered the coach")
    assert Room.from_data("t1", 1, {**table.to_data()}).coach is False
    old = {k: v for k, v in table.to_data().items() if k != "coach"}  # saved before rooms said
    assert Room.from_data("t1", 1, old).coach is False
