"""The broker: two halls (as two processes would be) on one database and one broker; a move
made in one reaches the other's watchers, which reloads the newer version from the store."""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import Any

from scripted_client import run, until

from okgin.errors import OkginError
from okgin.rules import preset
from okgin.server.coach.answers import coach_work
from okgin.server.coach.line import CoachLine
from okgin.server.rooms.backends import make_broker
from okgin.server.rooms.broker import LocalBroker
from okgin.server.rooms.games import Game
from okgin.server.rooms.hall import Hall
from okgin.server.rooms.live import Change, LiveRoom, Watcher
from okgin.server.rooms.room import Room, RoomError
from okgin.server.rooms.services import RoomServices
from okgin.server.rooms.thinking import Thinking
from okgin.server.store.storage import Store

COACH = functools.partial(coach_work, CoachLine())
"""The coach's answers, one at a time, as the app hands them to the rooms."""


def test_local_broker_delivers_in_order_and_survives_a_failing_subscriber() -> None:
    heard: list[Any] = []

    async def failing(_message: dict[str, Any]) -> None:
        raise RuntimeError("boom")

    async def listening(message: dict[str, Any]) -> None:
        heard.append(message["n"])

    async def go() -> None:
        broker = make_broker(None)
        assert isinstance(broker, LocalBroker)
        broker.subscribe("room:a", failing)
        broker.subscribe("room:a", listening)
        for n in range(3):
            await broker.publish("room:a", {"n": n})
        broker.unsubscribe("room:a", listening)
        await broker.publish("room:a", {"n": 9})
        await broker.close()

    run(go())
    assert heard == [0, 1, 2]


def test_a_move_in_one_hall_reaches_the_other_and_stale_changes_are_refused(tmp_path: Path) -> None:
    async def go() -> tuple[list[dict[str, Any]], str, str, int, int]:
        broker = LocalBroker()
        store = Store(f"sqlite:///{tmp_path / 'g.db'}")
        one, two = (Hall(RoomServices.of(store, broker, Thinking(), COACH)) for _ in range(2))
        game = Game.deal(preset("oklahoma"), seed=1)
        room, _token = Room.solo_game(game.match.rules, ["easy"])
        room.game = game.id
        live_one = await one.create(room, game)
        live_two = await two.get(room.code)
        assert isinstance(live_two, LiveRoom) and live_two is not live_one
        seen: list[dict[str, Any]] = []
        await live_two.attach(Watcher(seen.append, None))
        # the computer player may move first (through hall two): hall one hears of it
        await until(lambda: live_one.game is not None and live_one.game.to_act() == 0,
                    "hall one did not catch up with the computer's move")
        seen.clear()
        current = live_one.game
        assert current is not None
        text = str(current.match.view(0).legal[0]).split(" ", 1)[1]
        await live_one.commit(lambda: Change(str(current.act(0, text)), game=True))
        await until(lambda: any(m.get("event") == f"0 {text}" for m in seen),
                    "hall two's watcher did not hear the move")
        await until(lambda: current.to_act() == 0 and live_one.game is current,
                    "the computer's answer did not reach hall one")  # nothing moves from here on
        # A change made from an old version writes nothing from it: the save conflicts, the room
        # is reloaded, and the change is judged again on the stored version (scale's live.py).
        old = live_one.room
        stored = old.version
        old.version -= 1
        stale = ""
        try:
            await live_one.commit(lambda: Change("x"))
        except RoomError as error:
            stale = str(error)
        after = live_one.room.version
        store.close()
        return seen, text, stale, stored, after

    seen, text, stale, stored, after = run(go())
    states = [m for m in seen if m["type"] == "state"]
    assert states, "the other hall's watcher heard nothing"
    assert any(m["event"] == f"0 {text}" for m in states)
    assert all(m["view"]["hand"] == [] for m in states)
    assert stale == "" and after == stored + 1


async def _halls_apart(path: Path) -> tuple[Store, LiveRoom, LiveRoom, int]:
    """A two-person room started in hall one and loaded in hall two, whose brokers never reach
    each other (as when a process dies between saving a change and publishing it); the seat
    to act first."""
    store = Store(f"sqlite:///{path}")
    one, two = (Hall(RoomServices.of(store, LocalBroker(), Thinking(), COACH)) for _ in range(2))
    room, _ = Room.create(preset("oklahoma"), 2, "Ana")
    room.sit(1, "Ben")
    game = Game.deal(room.rules, seed=4)
    room.start(0, game.id)
    live_one = await one.create(room, game)
    live_two = await two.get(room.code)
    assert live_two is not None and live_two.game is not None
    mover = live_two.game.to_act()
    assert mover is not None
    return store, live_one, live_two, mover


def _first_legal(live: LiveRoom, seat: int) -> str:
    assert live.game is not None
    return str(live.game.match.view(seat).legal[0]).split(" ", 1)[1]


def _move(live: LiveRoom, seat: int, text: str) -> Change:
    assert live.game is not None
    return Change(str(live.game.act(seat, text)), game=True)


def test_a_change_whose_event_was_lost_is_shown_when_a_player_comes_back(tmp_path: Path) -> None:
    """Hall one saves a move and dies before publishing it (here: its broker reaches nobody).
    Hall two must not show the player coming back the state before that move, nor keep its
    other watchers there: the move was saved, so it happened."""

    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int, str]:
        store, live_one, live_two, mover = await _halls_apart(tmp_path / "g.db")
        guest: list[dict[str, Any]] = []
        await live_two.attach(Watcher(guest.append, 1 - mover))
        guest.clear()
        made = await live_one.commit(lambda: _move(live_one, mover, _first_legal(live_one, mover)))
        assert made.event is not None
        back: list[dict[str, Any]] = []
        await live_two.attach(Watcher(back.append, mover))  # the mover, through the other hall
        store.close()
        return back, guest, mover, made.event

    back, guest, mover, event = run(go())
    states = [m for m in back if m["type"] == "state"]
    assert len(states) == 1, "the player coming back gets the current state once"
    assert states[0]["view"]["history"][-1] == event
    assert states[0]["view"]["to_act"] != mover or states[0]["view"]["phase"] == "discard"
    assert [m["view"]["history"][-1] for m in guest if m["type"] == "state"] == [event]


def test_a_refused_change_shows_what_the_store_held(tmp_path: Path) -> None:
    """A move judged on a room that missed an event is refused on the stored room, and the
    watchers are shown that room (else the refused player looks at the old state again)."""

    async def go() -> tuple[str, list[dict[str, Any]], str]:
        store, live_one, live_two, mover = await _halls_apart(tmp_path / "g.db")
        seen: list[dict[str, Any]] = []
        live_two.watchers.add(Watcher(seen.append, mover))
        text = _first_legal(live_two, mover)
        made = await live_one.commit(lambda: _move(live_one, mover, text))
        refusal = ""
        try:  # the same move again, judged on the stale room in hall two
            await live_two.commit(lambda: _move(live_two, mover, text))
        except OkginError as error:
            refusal = str(error)
        store.close()
        assert made.event is not None
        return refusal, seen, made.event

    refusal, seen, event = run(go())
    assert refusal, "a move made from a state the store has left behind was accepted"
    states = [m for m in seen if m["type"] == "state"]
    assert states and states[-1]["view"]["history"][-1] == event


def test_a_move_in_a_room_removed_as_abandoned_says_so(tmp_path: Path) -> None:
    async def go() -> str:
        store, live_one, _, mover = await _halls_apart(tmp_path / "g.db")
        live_one.services.rooms.remove_idle(time.time() + 1)  # another process's sweep, say
        text, refusal = _first_legal(live_one, mover), ""
        try:
            await live_one.commit(lambda: _move(live_one, mover, text))
        except OkginError as error:
            refusal = str(error)
        store.close()
        return refusal

    assert run(go()) == "this room was closed after a long time without a move: start a new game"
