"""Rooms over a real server: an invite link, people and computer players at one table, a
spectator, a seat handed to a computer player and given back, quick phrases, a rematch."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, assert_fair, choose, new_guest, open_room, run, take_seat, wait_for
from server_process import Serve, ServerProcess

from okgin.rules import preset
from okgin.server.rooms.room import Phase, Room, RoomError, Seat

SHORT = {"preset": "oklahoma-multiplayer", "target": 30}


@pytest.fixture(scope="module")
def server(serve: Serve) -> ServerProcess:
    """One server for the module (each test opens rooms of its own): seats go away after 0.5 s."""
    return serve(allow_seeds=True, extra=("--away-seconds", "0.5"))


def test_two_people_and_a_computer_finish_a_game_watched_and_rematch(server: ServerProcess) -> None:
    async def go() -> tuple[list[dict[str, Any]], Client, dict[str, Any]]:
        host = await open_room(server.ws_url, 3, "Ann", SHORT)
        assert host.room and host.token and host.seat == 0
        guest = await take_seat(server.ws_url, host.room, 1, "Bob")
        refused = await host.request({"type": "start"})
        assert "every seat needs a player" in refused["message"]
        assert (await host.request({"type": "computer", "seat": 2, "level": "easy"}))["type"] == "ack"
        watcher = await Client.connect(server.ws_url)
        await watcher.request({"type": "enter", "room": host.room})
        assert (await host.request({"type": "start", "seed": 8}))["type"] == "ack"
        finals = await asyncio.gather(host.play(), guest.play())
        await wait_for(watcher, lambda m: m["type"] == "state" and m["final"] is not None)
        first_game = host.game
        assert (await guest.request({"type": "rematch"}))["type"] == "ack"  # Bob offers
        offered = await wait_for(host, lambda m: m["type"] == "room" and m["rematch"] == [1])
        assert offered["game"] == first_game and offered["phase"] == "finished"
        assert (await host.request({"type": "rematch"}))["type"] == "ack"  # Ann says yes
        dealt = lambda m: m["type"] == "room" and m["game"] != first_game  # noqa: E731
        room = host.room_state if dealt(host.room_state) else await wait_for(host, dealt)
        for client in (host, guest, watcher):
            await client.close()
        return list(finals), watcher, room

    finals, watcher, room = run(go())
    assert finals[0]["final"] == finals[1]["final"] and finals[0]["final"]["winner"] in (0, 1, 2)
    assert [s["name"] for s in room["seats"]] == ["Ann", "Bob", "Ruby"]
    assert room["phase"] == "playing" and room["seats"][2]["level"] == "easy"
    states = [f for f in watcher.frames if '"type":"state"' in f]
    assert len(states) > 20
    assert all('"hand":[]' in f and '"seat":null' in f for f in states)
    assert_fair(watcher.frames)


def test_an_away_seat_is_played_by_a_computer_until_its_owner_returns(server: ServerProcess) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        host = await open_room(server.ws_url, 2, "Ann")
        assert host.room
        guest = await take_seat(server.ws_url, host.room, 1, "Bob")
        token = guest.token
        await host.request({"type": "start", "seed": 3})
        await guest.close()
        away = await wait_for(host, lambda m: m["type"] == "room" and m["seats"][1]["away"])
        await asyncio.sleep(0.6)
        answer = await host.request({"type": "computer", "seat": 1, "level": "easy"})
        assert answer["type"] == "ack", answer
        for _ in range(6):  # the computer player now moves for Bob
            await host.step()
        back = await Client.connect(server.ws_url)
        await back.request({"type": "enter", "room": host.room, "token": token})
        returned = back.state  # the full current state came with the answer
        assert back.room_state is not None and returned is not None
        room = back.room_state
        await host.close()
        await back.close()
        return away, room, returned

    away, room, returned = run(go())
    assert away["seats"][1]["away"] and away["seats"][1]["name"] == "Bob"
    assert room["you"] == 1 and room["seats"][1]["stand_in"] is None and not room["seats"][1]["away"]
    assert returned["view"]["seat"] == 1 and len(returned["view"]["hand"]) >= 10
    assert sum(1 for a in returned["view"]["history"] if a.startswith("1 ")) >= 1


def test_lobby_rules_and_quick_phrases(server: ServerProcess) -> None:
    async def go() -> tuple[list[str], list[dict[str, Any]]]:
        host = await open_room(server.ws_url, 2, "Ann")
        assert host.room
        guest = await take_seat(server.ws_url, host.room, 1, "Bob")
        third = await Client.connect(server.ws_url)
        await third.request({"type": "enter", "room": host.room})
        errors = [
            (await third.request({"type": "sit", "seat": 1, "name": "Cy"}))["message"],
            (await third.request({"type": "sit", "seat": 7, "name": "Cy"}))["message"],
            (await guest.request({"type": "start"}))["message"],
            (await guest.request({"type": "computer", "seat": 1, "level": "easy"}))["message"],
            (await third.request({"type": "say", "phrase": "Good game"}))["message"],
            (await guest.request({"type": "say", "phrase": "you are bad"}))["message"],
            (await guest.request({"type": "act", "action": "draw"}))["message"],
        ]
        fresh = await Client.connect(server.ws_url)
        errors.append((await fresh.request({"type": "create", "players": 2, "name": " "}))["message"])
        assert (await guest.request({"type": "say", "phrase": "Nice!"}))["type"] == "ack"
        said = await wait_for(host, lambda m: m["type"] == "said")
        for client in (host, guest, third, fresh):
            await client.close()
        return errors, [said]

    errors, said = run(go())
    assert "seat 1 is taken" in errors[0]
    assert "seat must be a number from 0 to 1" in errors[1]
    assert errors[2] == errors[3] == "only the host can do that"
    assert "you are watching" in errors[4]
    assert errors[5].startswith("say one of: Good game, Nice!, Oops, Hurry up")
    assert "the game has not started" in errors[6]
    assert "your name must be 1 to 20 characters" in errors[7]
    assert said == [{"type": "said", "seat": 1, "name": "Bob", "phrase": "Nice!"}]


def _store_turn_timer(db: Path, code: str, seconds: int) -> None:
    """Give a stored room a turn timer no page offers (1 s, so the test need not wait 30), as
    another process's change would: a newer version, which the server reloads before its next
    change to the room."""
    with sqlite3.connect(db) as connection:
        (data,) = connection.execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
        connection.execute("UPDATE rooms SET data = ?, version = version + 1 WHERE code = ?",
                           (json.dumps({**json.loads(data), "timer": seconds}), code))


@pytest.mark.slow
def test_a_turn_timer_that_runs_out_makes_that_one_move_for_the_person(server: ServerProcess) -> None:
    async def go() -> tuple[float, list[tuple[float, dict[str, Any]]], dict[str, Any], dict[str, Any]]:
        host = await open_room(server.ws_url, 2, "Ann", timer=30)
        assert host.room
        guest = await take_seat(server.ws_url, host.room, 1, "Bob")
        _store_turn_timer(server.db, host.room, 1)
        assert (await host.request({"type": "start", "seed": 5}))["type"] == "ack"
        assert host.room_state is not None and host.room_state["deadline"] is not None
        started = host.room_state["deadline"] - 1
        await asyncio.sleep(0.5)
        watcher = await Client.connect(server.ws_url)  # someone arriving gives nobody more time
        await watcher.request({"type": "enter", "room": host.room})
        assert watcher.room_state is not None and watcher.room_state["deadline"] == started + 1
        seen: list[tuple[float, dict[str, Any]]] = []  # nobody moves: what does the server do?
        while sum(1 for _, m in seen if m["type"] == "state") < 4:
            message = await host.receive(10)
            seen.append((time.time(), message))
        mine = await host.wait_my_move()  # now Ann moves in time herself
        message = choose(mine)
        assert message is not None
        answer = await host.request(message)
        own = host.state
        assert own is not None and answer["type"] == "ack"
        for client in (host, guest, watcher):
            await client.close()
        return started, seen, mine, own

    started, seen, mine, own = run(go())
    due = started + 1  # the deadline the start's room frame showed
    for when, message in seen:
        if message["type"] == "room":  # a change: the room (with the next turn's deadline), then the state
            assert message["timer"] == 1 and message["seats"][0]["kind"] == "person"
            assert all(s["stand_in"] is None and not s["away"] for s in message["seats"])
            # The deadline is saved with the move that began the turn, before the frame is sent:
            # a second after that move (at most a loaded machine's couple of seconds before now).
            assert when - 2 < message["deadline"] - 1 <= when + 0.01, "the frame shows the next turn's time"
            assert due - 0.01 <= when < due + 2, "a move was made for a person off their time"
            due = message["deadline"]
    moves = [m["event"] for _, m in seen if m["type"] == "state"]
    assert len({event.split()[0] for event in moves}) == 2, moves  # both people's time ran out
    assert own["view"]["history"][-1].startswith("0 ") and own["event"] == own["view"]["history"][-1]
    assert len(own["view"]["history"]) == len(mine["view"]["history"]) + 1


@pytest.mark.slow
def test_abandoned_unfinished_games_and_rooms_are_removed_after_the_idle_time(tmp_path: Path) -> None:
    # --idle-hours 0.0005 is 1.8 s; the server sweeps every second (a quarter of it, at least 1 s)
    server = ServerProcess(tmp_path / "idle.db", allow_seeds=True, extra=("--idle-hours", "0.0005")).start()

    cookie = new_guest(server.url)  # one player: the games' records are theirs to download

    async def go() -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=server.url, cookies={"okgin_session": cookie}) as web:
            finished = await Client.connect(server.ws_url, cookie)
            await finished.open_game({"type": "new", "opponents": ["easy"], "seed": 3,
                                      "rules": {"preset": "oklahoma", "target": 10}})
            assert (await finished.play())["final"] is not None
            left = await Client.connect(server.ws_url, cookie)  # a game opened and left at once
            await left.open_game({"type": "new", "opponents": ["easy"], "seed": 4})
            lobby = await open_room(server.ws_url, 2, "Ann")  # a room nobody joined
            staying = await Client.connect(server.ws_url)  # open all along, but nobody moves
            await staying.open_game({"type": "new", "opponents": ["easy"], "seed": 5})
            waiting = await staying.wait_my_move()
            before = (await web.get(f"/games/{left.game}/record")).status_code
            for client in (finished, left, lobby):
                await client.close()
            await asyncio.sleep(3.5)
            back = await Client.connect(server.ws_url)
            move = choose(waiting)
            assert move is not None
            outcome = {
                "before": before,
                "finished": (await web.get(f"/games/{finished.game}/record")).status_code,
                "left": (await web.get(f"/games/{left.game}/record")).status_code,
                "rejoin": (await back.request({"type": "join", "game": left.game}))["message"],
                "lobby": (await back.request({"type": "enter", "room": lobby.room}))["message"],
                "staying": (await staying.request(move))["type"],
            }
            await back.close()
            await staying.close()
            return outcome

    try:
        outcome = run(go())
    finally:
        server.stop()
    assert outcome == {
        "before": 403,  # there, and unfinished, before the idle time ran out
        "finished": 200,  # a finished game stays, its record downloadable
        "left": 404, "rejoin": "no such game: start a new game", "lobby": "no such room: check the link",
        "staying": "ack",  # a game someone has open is not abandoned, however long they think
    }


def test_computer_players_take_free_names_and_keep_them() -> None:
    room, _ = Room.create(preset("oklahoma"), 4, "ruby")
    for seat in (3, 1):
        room.set_computer(0, seat, "easy", time.time())
    assert room.names == ["ruby", "Kit", "", "Sam"]  # "ruby" is taken, whatever its case
    room.set_computer(0, 3, "hard", time.time())  # a new level, the same player
    assert room.names[3] == "Sam" and room.seats[3].level == "hard"
    assert room.public(0)["target"] == 150


def _room_of(*names: str) -> Room:
    room, _ = Room.create(preset("oklahoma-multiplayer"), len(names), names[0])
    for seat, name in enumerate(names[1:], start=1):
        room.sit(seat, name)
    return room


def test_leaving_the_lobby_empties_the_seat_and_hands_on_the_host() -> None:
    room = _room_of("Ann", "Bob", "Cy")
    room.leave(0)
    assert room.seats[0].kind == "empty" and room.host == 1
    room.leave(1)
    room.leave(2)
    assert room.people == 0
    room.sit(2, "Dee")  # nobody was left to host: the next person to sit hosts
    assert room.host == 2


def test_leaving_a_game_hands_the_seat_to_a_computer_under_the_same_name() -> None:
    room = _room_of("Ann", "Bob")
    room.start(0, "g1")
    room.leave(0)
    left = room.seats[0]
    assert (left.kind, left.name, left.level, left.left) == ("computer", "Ann", "normal", True)
    assert left.token_hash is None
    assert room.host == 1 and room.levels() == ["normal", None]
    assert room.public(1)["seats"][0]["left"] is True
    with pytest.raises(RoomError, match="seat 0 has no person to leave it"):
        room.leave(0)
    solo, _ = Room.solo_game(preset("oklahoma"), ["normal"])
    with pytest.raises(RoomError, match="no table to leave"):
        solo.leave(0)


def test_an_away_seat_says_when_a_computer_may_take_it() -> None:
    room = _room_of("Ann", "Bob")
    room.start(0, "g1")
    now = time.time()
    room.went_away(1, now - 20.25)
    (seat,) = [s for s in room.public(0)["seats"] if s["away"]]
    assert 39.7 <= seat["takeover_in"] <= 39.8  # rounded up, so the page never asks early
    with pytest.raises(RoomError, match="Bob has been away only a moment"):
        room.set_computer(0, 1, "normal", now)
    room.set_computer(0, 1, "normal", now + 40)
    assert room.seats[1].stand_in == "normal"


@pytest.mark.slow
def test_a_player_who_leaves_watches_on_and_a_computer_finishes_for_them(server: ServerProcess) -> None:
    async def go() -> tuple[list[str], dict[str, Any], dict[str, Any], Client]:
        host = await open_room(server.ws_url, 2, "Ann", SHORT)
        assert host.room
        guest = await take_seat(server.ws_url, host.room, 1, "Bob")
        token = guest.token
        await host.request({"type": "start", "seed": 5})
        answers = [(await guest.request({"type": "leave"}))["type"]]
        assert guest.seat is None  # the page now watches
        answers.append((await guest.request({"type": "act", "action": "draw"}))["message"])
        answers.append((await guest.request({"type": "leave"}))["message"])
        room = await wait_for(host, lambda m: m["type"] == "room" and m["seats"][1]["left"])
        again = await Client.connect(server.ws_url)
        answers.append((await again.request({"type": "enter", "room": host.room, "token": token}))["message"])
        final = await host.play()  # the computer plays Bob's seat to the end
        for client in (host, guest, again):
            await client.close()
        return answers, room, final, guest

    answers, room, final, guest = run(go())
    assert answers[0] == "ack"
    assert "you are watching" in answers[1] and "you are watching" in answers[2]
    assert answers[3].startswith("that seat token is not valid here")  # the seat is given up
    assert room["seats"][1] == {**room["seats"][1], "kind": "computer", "name": "Bob", "level": "normal"}
    assert room["host"] == 0 and final["final"] is not None
    assert_fair(guest.frames)
    gone = max(i for i, f in enumerate(guest.frames) if '"type":"joined"' in f and '"seat":null' in f)
    watched = [f for f in guest.frames[gone:] if '"type":"state"' in f]
    views = [json.loads(f)["view"] for f in watched]
    assert views and all(v["seat"] is None and v["hand"] == [] for v in views), views[0]  # a spectator's view


def test_the_pages_read_the_computer_levels_from_the_server() -> None:
    """One list of levels (rooms/room.py): the room frame and /api/rules carry it, the wire
    checks opponents against it, and neither page script keeps a list of its own."""
    from okgin.server.pages.site import rules_api
    from okgin.server.refusals import ProtocolError
    from okgin.server.rooms.room import LEVELS
    from okgin.server.wire.messages import New, parse_message

    def opponents(levels: object) -> tuple[str, ...]:
        message = parse_message(json.dumps({"type": "new", "opponents": levels})).fields()
        assert isinstance(message, New)
        return message.opponents

    room = _room_of("Ann", "Bob")
    assert room.public(0)["levels"] == list(LEVELS)
    api = json.loads(bytes(run(rules_api(None)).body))  # type: ignore[arg-type]
    assert api["levels"] == list(LEVELS)
    for three in (LEVELS[:3], LEVELS[-3:]):  # at most three computer players: every level in one
        assert opponents(list(three)) == three
    with pytest.raises(ProtocolError, match=", ".join(LEVELS)):
        opponents(["simple"])
    static = Path(__file__).resolve().parents[3] / "okgin/server/pages/static"
    for script in ("room.js", "settings.js"):
        assert '"easy", "normal"' not in (static / script).read_text(encoding="utf-8"), script


def test_a_tournament_table_plays_at_once_with_no_host_and_no_rematch() -> None:
    """A tournament's table: its people known by player (each token thrown away), nobody
    hosting it, one match only; a person away past the grace is stood in for without asking."""
    seats = [Seat("person", "Ann"), Seat("computer", "Ruby", "easy")]
    room = Room.for_table("TABLE1", preset("oklahoma"), seats, "T1", "G1", away_grace=10)
    assert room.phase is Phase.PLAYING and room.game == "G1" and room.games == ["G1"]
    assert room.seats[0].token_hash is not None and room.public(0)["tournament"] == "T1"
    with pytest.raises(RoomError, match="only the host"):
        room.set_computer(0, 0, "normal", time.time())
    room.went_away(0, now=100.0)
    assert not room.stand_in_for(0, now=105.0)  # away only a moment
    assert not room.stand_in_for(1, now=200.0)  # a computer player's seat
    assert room.stand_in_for(0, now=110.0) and room.levels() == ["normal", "easy"]
    assert not room.stand_in_for(0, now=120.0)  # already played for
    room.came_back(0)
    assert room.levels() == [None, "easy"]
    room.finish()
    with pytest.raises(RoomError, match="plays one match"):
        room.accept_rematch(0)
    again = Room.from_data("TABLE1", 1, json.loads(json.dumps(room.to_data())))
    assert again.tournament == "T1" and again.phase is Phase.FINISHED
    timed = Room.for_table("TABLE2", preset("oklahoma"), [Seat("person", "Ann"), Seat("person", "Bob")],
                           "T1", "G3", timer=30)
    assert timed.timer == 30 and timed.deadline is not None and timed.deadline > time.time() + 20
    with pytest.raises(RoomError, match="turn timer"):
        Room.for_table("TABLE3", preset("oklahoma"), [Seat("person", "Ann"), Seat("person", "Bob")],
                       "T1", "G4", timer=45)


def test_a_friends_room_is_never_stood_in_for_without_its_host() -> None:
    room, _ = Room.create(preset("oklahoma"), 2, "Ann", away_grace=1)
    room.sit(1, "Bob")
    room.went_away(1, now=0.0)
    assert not room.stand_in_for(1, now=100.0) and room.levels() == [None, None]


def test_a_spectator_who_sits_at_a_table_nobody_else_watches_still_hears_it(server: ServerProcess) -> None:
    """The host goes (the room leaves the process's memory: nobody watches it); Bea opens the
    link and takes a seat, the room's only watcher on this process while her page swaps its
    spectator's window for a seat's; the host comes back and starts: Bea is shown the game."""

    async def go() -> dict[str, Any]:
        host = await open_room(server.ws_url, 2, "Ann", SHORT | {"preset": "oklahoma"})
        room, token = host.room, host.token
        await host.close()
        guest = await take_seat(server.ws_url, str(room), 1, "Bea")
        back = await Client.connect(server.ws_url)
        assert (await back.request({"type": "enter", "room": room, "token": token}))["type"] == "ack"
        assert (await back.request({"type": "start"}))["type"] == "ack"
        state = await wait_for(guest, lambda m: m["type"] == "state", timeout=10)
        await back.close()
        await guest.close()
        return state

    state = run(go())
    assert state["view"]["seat"] == 1 and len(state["view"]["hand"]) == 10
