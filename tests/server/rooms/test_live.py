"""A live room's frames: made once per change for every watcher who sees the same thing, never
one seat's for another, made anew at each change, and the room frame sent only when it changed."""

from __future__ import annotations

import asyncio
import functools
import time
from pathlib import Path
from typing import Any

from scripted_client import run, until
from test_fairness import cards_in

from okgin.rules import preset
from okgin.server.coach.answers import coach_work
from okgin.server.coach.line import CoachLine
from okgin.server.players.identity import Players
from okgin.server.rooms import commands
from okgin.server.rooms.broker import LocalBroker
from okgin.server.rooms.games import Game
from okgin.server.rooms.hall import Hall
from okgin.server.rooms.live import Change, LiveRoom, Watcher
from okgin.server.rooms.room import Room
from okgin.server.rooms.services import RoomServices
from okgin.server.rooms.thinking import Thinking
from okgin.server.store.storage import Store

Seen = dict[str, list[dict[str, Any]]]
WATCHERS = {  # name: (seat, coach, came by the game's id)
    "ann": (0, False, False), "ann coached": (0, True, False), "ben": (1, False, False),
    "linked": (None, False, False), "by id": (None, False, True),
}

COACH = functools.partial(coach_work, CoachLine())
"""The coach's answers, one at a time, as the app hands them to the rooms."""


async def _table(path: Path) -> tuple[Store, LiveRoom, Seen]:
    """Ann and Ben's game in a room, watched from each seat (Ann's twice: once with the coach)
    and by two spectators (one with the room's link, one who came by the game's id)."""
    store = Store(f"sqlite:///{path}")
    hall = Hall(RoomServices.of(store, LocalBroker(), Thinking(), COACH))
    room, _ = Room.create(preset("oklahoma"), 2, "Ann", coach=True)  # Ann's second page has the coach
    room.sit(1, "Ben")
    game = Game.deal(room.rules, seed=4)
    room.start(0, game.id)
    live = await hall.create(room, game)
    seen: Seen = {}
    for name, (seat, coach, by_id) in WATCHERS.items():
        seen[name] = []
        await live.attach(Watcher(seen[name].append, seat, coach, game.id if by_id else None))
    return store, live, seen


async def _move(live: LiveRoom) -> str:
    """The seat to act plays its first legal action; the action's text."""
    game = live.game
    assert game is not None
    seat = game.to_act()
    assert seat is not None
    text = str(game.match.view(seat).legal[0]).split(" ", 1)[1]
    change = await live.commit(lambda: Change(str(game.act(seat, text)), game=True))
    assert change.event is not None
    return change.event


def _away(live: LiveRoom, seat: int) -> Change:
    live.room.went_away(seat, time.time())
    return Change("away")


def _kinds(frames: list[dict[str, Any]]) -> list[str]:
    return [frame["type"] for frame in frames]


def test_each_watcher_is_sent_its_own_seats_frames_made_anew_at_each_change(tmp_path: Path) -> None:
    async def go() -> tuple[list[Seen], list[dict[int, list[str]]], set[str]]:
        store, live, seen = await _table(tmp_path / "g.db")
        game = live.game
        assert game is not None
        after, hands = [], []
        for _ in range(3):
            for frames in seen.values():
                frames.clear()
            await _move(live)
            after.append({name: list(frames) for name, frames in seen.items()})
            hands.append({seat: [str(c) for c in game.match.view(seat).hand] for seat in (0, 1)})
        hand = game.match.hands[-1]
        public = {str(hand.deal.upcard)} | {str(c) for c in hand.discards}
        public |= {str(c) for taken in hand.picked for c in taken}
        store.close()
        return after, hands, public

    after, hands, public = run(go())
    histories = []
    for change, held in zip(after, hands, strict=True):
        states = {name: frames[-1] for name, frames in change.items()}
        assert all(_kinds(frames)[-1:] == ["state"] for frames in change.values()), change
        for name, (seat, coach, _) in WATCHERS.items():
            view = states[name]["view"]
            assert view["seat"] == seat and (states[name]["coach"] is not None) == coach
            own = set(held[seat]) if seat is not None else set()
            assert view["hand"] == (held[seat] if seat is not None else [])
            assert not cards_in(states[name]) - public - own, f"{name} was sent another seat's cards"
        # One state per (seat, coach): Ann's two pages see the same view, each its own coach.
        assert states["ann"]["view"] == states["ann coached"]["view"]
        assert states["ann"] is not states["ann coached"] and states["ann"] is not states["ben"]
        assert states["linked"] is states["by id"]  # what every spectator may see, made once
        histories.append(states["ben"]["view"]["history"])
    # Made anew at each change: one more action in the history each time, the frames of a
    # change already sent not grown by the next one's.
    assert [len(history) for history in histories] == [1, 2, 3]
    assert histories[1][:1] == histories[0] and histories[2][:2] == histories[1]


def test_the_room_frame_is_sent_when_the_room_changed_for_that_watcher(tmp_path: Path) -> None:
    async def go() -> tuple[Seen, Seen, Seen, dict[str, Any]]:
        store, live, seen = await _table(tmp_path / "g.db")
        shown = {name: list(frames) for name, frames in seen.items()}
        for frames in seen.values():
            frames.clear()
        await _move(live)
        moved = {name: list(frames) for name, frames in seen.items()}
        for frames in seen.values():
            frames.clear()
        await live.commit(lambda: _away(live, 1))  # Ben is away: the room changed
        store.close()
        return shown, moved, seen, live.room.public(None)

    shown, moved, away, room = run(go())
    for name, (seat, _, by_id) in WATCHERS.items():
        rooms = [frame for frame in shown[name] if frame["type"] == "room"]
        assert rooms and rooms[-1]["you"] == seat, f"{name} was not shown the room on coming in"
        assert rooms[-1]["code"] == (None if by_id else room["code"])
        assert _kinds(moved[name]) == ["state"], f"{name}: a move left the room as it was"
        assert _kinds(away[name]) == ["room", "state"], name
        assert away[name][0]["seats"][1]["away"] and away[name][0]["version"] == room["version"]


def test_a_spectators_options_are_answered_from_the_last_frames_while_the_room_is_locked(
    tmp_path: Path,
) -> None:
    """A spectator asking for the table again (``options``) is sent the frames every spectator
    was last sent, without waiting for the room's lock: a slow commit (here, the lock held)
    holds up no spectator, and ten spectators asking hold up no player's move."""
    async def go() -> tuple[bool, Seen, dict[str, Any]]:
        store, live, seen = await _table(tmp_path / "g.db")
        await _move(live)
        last = {name: list(frames) for name, frames in seen.items()}
        for frames in seen.values():
            frames.clear()
        async with live.lock:  # a commit under way, as slow as it likes
            spectators = [w for w in live.watchers if w.seat is None]
            assert len(spectators) == 2
            asked = [asyncio.create_task(live.show(spectator)) for spectator in spectators]
            done, _ = await asyncio.wait(asked, timeout=30)
        store.close()
        return len(done) == 2, {name: list(frames) for name, frames in seen.items()}, last

    answered, seen, last = run(go())
    assert answered, "a spectator's options waited for the room's lock"
    for name in ("linked", "by id"):
        state = last[name][-1]
        assert _kinds(seen[name]) == ["state"], name  # the room as it was shown: not again
        assert seen[name][0] == {**state, "event": None}, name  # the table as it is, no move to show
    assert seen["ann"] == [] and seen["ben"] == []


def test_the_seats_a_room_gives_are_its_players_from_the_save_that_gives_them(tmp_path: Path) -> None:
    """A host who opens a room and a guest who sits are written as the seats' players by the
    room's own save (no later write for the socket to make), and a room's game takes them."""
    async def go() -> tuple[int | None, int | None, dict[str, int], str | None]:
        store = Store(f"sqlite:///{tmp_path / 'g.db'}")
        hall = Hall(RoomServices.of(store, LocalBroker(), Thinking(), COACH))
        live, _token = await hall.open(preset("oklahoma"), 2, "Ann", None, 60.0, "p-ann")
        await live.sit(1, "Ben", "p-ben")
        await live.begin(0, 4, rematch=False)
        players = Players(store.engine)
        seats = (players.seat_in_room("p-ann", live.room.code), players.seat_in_room("p-ben", live.room.code),
                 players.games_of("p-ben"), live.room.game)
        store.close()
        return seats

    ann, ben, games, game = run(go())
    assert (ann, ben) == (0, 1) and game is not None and games == {game: 1}


def test_a_rematch_dealt_to_fewer_seats_moves_each_watcher_and_player_with_their_seat(tmp_path: Path) -> None:
    """Ben leaves at the offer between Ann and Cy: the new game is dealt to Ann and Cy, Cy's page
    (seat 2) is seat 1's from the new game's first frame, the room's players are renumbered in the
    same save (Ben's row gone), and the finished game's record keeps its three seats."""
    async def go() -> dict[str, Any]:
        store = Store(f"sqlite:///{tmp_path / 'c.db'}")
        hall = Hall(RoomServices.of(store, LocalBroker(), Thinking(), COACH))
        live, _token = await hall.open(preset("oklahoma"), 3, "Ann", None, 60.0, "p-ann")
        await live.sit(1, "Ben", "p-ben")
        await live.sit(2, "Cy", "p-cy")
        await live.begin(0, 4, rematch=False)
        first = live.room.game
        assert first is not None
        cy: list[dict[str, Any]] = []
        watcher = Watcher(cy.append, 2)
        await live.attach(watcher)

        def over() -> Change:
            live.room.finish()
            return Change("room")
        await live.commit(over)
        await live.begin(0, None, rematch=True)  # Ann offers
        await live.leave(1)  # Ben leaves instead
        await live.begin(2, 6, rematch=True)  # Cy says yes: dealt
        players = Players(store.engine)
        stored = store.load(first)
        out = {"seat": watcher.seat, "you": [f["you"] for f in cy if f["type"] == "room"][-1],
               "names": [f["names"] for f in cy if f["type"] == "state"][-1],
               "rows": {who: players.seat_in_room(who, live.room.code) for who in ("p-ann", "p-ben", "p-cy")},
               "games": players.games_of("p-cy"), "second": live.room.game, "first": first,
               "head": stored.record["players"] if stored else None}
        store.close()
        return out

    seen = run(go())
    assert seen["seat"] == 1 and seen["you"] == 1 and seen["names"] == ["Ann", "Cy"]
    assert seen["rows"] == {"p-ann": 0, "p-ben": None, "p-cy": 1}
    assert seen["games"] == {seen["first"]: 2, seen["second"]: 1}
    assert seen["head"] == ["Ann", "Ben", "Cy"]


async def _queued(lock: asyncio.Lock, waiting: int) -> None:
    """Until ``waiting`` tasks wait for ``lock`` (asyncio keeps them in ``_waiters``)."""
    deadline = time.monotonic() + 30
    while len(lock._waiters or ()) < waiting:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, f"{len(lock._waiters or ())} of {waiting} never waited"  # type: ignore[attr-defined]
        await asyncio.sleep(0.01)


def test_a_seat_whose_page_is_swapped_while_the_room_is_busy_is_never_left_away(tmp_path: Path) -> None:
    """The host makes a table from the home page, whose link then opens the room's own page: the
    first page's leaving and the second's coming in both wait for a change in progress. Its
    leaving must not mark the host away once the second page holds the seat (an open table
    whose host is away is not listed, and everyone sees "away" beside someone who is there)."""
    async def go() -> tuple[float | None, float | None]:
        store = Store(f"sqlite:///{tmp_path / 'g.db'}")
        hall = Hall(RoomServices.of(store, LocalBroker(), Thinking(), COACH))
        live, _ = await hall.open(preset("oklahoma"), 2, "Ann", None, 60.0, listed=True)
        first, second = Watcher(lambda frame: None, 0), Watcher(lambda frame: None, 0)
        await live.attach(first)
        async with live.lock:  # a change in progress: the leaving and the coming wait for it
            leaving = asyncio.create_task(live.detach(first))
            await _queued(live.lock, 1)
            coming = asyncio.create_task(live.attach(second))
            await _queued(live.lock, 2)
        await asyncio.gather(leaving, coming)
        stored = hall.services.rooms.load(live.room.code)
        store.close()
        assert stored is not None
        return live.room.seats[0].away_since, stored.seats[0].away_since

    assert run(go()) == (None, None)


def test_a_seat_marked_away_by_another_process_while_a_page_here_holds_it_is_marked_back(
    tmp_path: Path,
) -> None:
    """The same swap across two processes: the leaving page's process read who holds the seat
    just before the new page's process marked it held, and marks it away after the new page
    came in. The process whose page holds the seat hears of the mark and takes it back."""
    async def go() -> tuple[float | None, float | None]:
        store = Store(f"sqlite:///{tmp_path / 'g.db'}")
        broker = LocalBroker()
        one, two = (Hall(RoomServices.of(store, broker, Thinking(), COACH)) for _ in range(2))
        live_one, _ = await one.open(preset("oklahoma"), 2, "Ann", None, 60.0, listed=True)
        live_two = await two.get(live_one.room.code)
        assert live_two is not None and live_two is not live_one
        await live_two.attach(Watcher(lambda frame: None, 0))
        await live_one.commit(lambda: commands.went_away(live_one.room, 0, time.time()))
        # Version 1 the mark, 2 hall two's taking it back (heard by hall one too).
        await until(lambda: live_one.room.seats[0].away_since is None and live_one.room.version == 2,
                    "the seat held in hall two stayed away")
        stored = one.services.rooms.load(live_one.room.code)
        store.close()
        assert stored is not None
        return live_two.room.seats[0].away_since, stored.seats[0].away_since

    assert run(go()) == (None, None)
