"""The pool's store, the same on SQLite, PostgreSQL and Redis: a claim takes a whole table or
nothing, every seeker is seated exactly once when many claims race in threads, a lapsed lease
leaves the pool, and a claim whose process died is settled by another (seated if its room was
made, else waiting again) so nobody is lost."""

from __future__ import annotations

import itertools
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from real_servers import Postgres, Redis

from okgin.server.pool.choices import PoolSettings
from okgin.server.pool.matchmaker import Matchmaker, PoolError
from okgin.server.pool.redis_pool import RedisPool
from okgin.server.pool.seekers import CLAIMED, SEATED, WAITING, Seeker
from okgin.server.pool.store import PoolStore, SqlPool
from okgin.server.rooms.room import Phase, Room
from okgin.server.store.room_store import RoomTable
from okgin.server.store.storage import Store


@pytest.fixture(params=["sqlite", "postgresql", "redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[PoolStore, Store]]:
    if request.param == "postgresql":
        postgres: Postgres = request.getfixturevalue("postgres")
        store = Store(postgres.fresh_database())
    else:
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    if request.param == "redis":
        redis_server: Redis = request.getfixturevalue("redis_server")
        pool: PoolStore = RedisPool(redis_server.url, key=f"okgin:test:{uuid.uuid4().hex}")
    else:
        pool = SqlPool(store.engine)
    yield pool, store
    pool.close()
    store.close()


def seeker(number: int, rating: int = 1500, player: str | None = None, lease: float = 30.0,
           preset: str = "oklahoma", seats: int = 2, waited: float = 0.0) -> Seeker:
    now = time.time()
    return Seeker(f"s{number}", player or f"p{number}", f"P{number}", preset, seats, rating,
                  now - waited, now + lease)


def test_a_claim_takes_the_whole_table_or_nobody(backend: tuple[PoolStore, Store]) -> None:
    pool, _ = backend
    for number in range(3):
        pool.add(seeker(number))
    now = time.time()
    assert pool.claim("room1", {"s0": 0, "s1": 1}, now, now + 5)
    assert not pool.claim("room2", {"s1": 0, "s2": 1}, now, now + 5)  # s1 is taken: s2 is not claimed
    assert pool.get("s2").state == WAITING  # type: ignore[union-attr]
    assert {s.id for s in pool.waiting(now)} == {"s2"}
    assert pool.get("s1").state == CLAIMED and pool.get("s1").seat == 1  # type: ignore[union-attr]
    assert not pool.seat("room2", ["s0", "s1"], now)  # not its claim
    assert pool.seat("room1", ["s0", "s1"], now)
    assert pool.get("s0").room == "room1" and pool.get("s0").state == SEATED  # type: ignore[union-attr]
    assert not pool.cancel("s0", "p0")  # seated: no longer the pool's to cancel
    assert pool.cancel("s2", "p2") and pool.get("s2") is None


def test_a_look_renews_only_its_own_players_seeker_and_a_lapsed_one_leaves(
        backend: tuple[PoolStore, Store]) -> None:
    pool, _ = backend
    pool.add(seeker(1, lease=-1.0))
    pool.add(seeker(2))
    now = time.time()
    assert [s.id for s in pool.waiting(now)] == ["s2"]
    assert pool.beat("s2", "someone else", now, now + 10) is None
    assert not pool.claim("r", {"s1": 0, "s2": 1}, now, now + 5)  # s1's page has gone
    lapsed = pool.beat("s1", "p1", now, now + 10)
    assert lapsed is not None and lapsed.lease < now  # not revived: its page is told to seek again
    renewed = pool.beat("s2", "p2", now, now + 10)
    assert renewed is not None and renewed.lease == pytest.approx(now + 10, abs=0.01)
    pool.add(seeker(4))
    assert pool.claim("r", {"s4": 0, "s2": 1}, now, now + 5)
    pool.add(seeker(3, lease=-100.0))
    assert pool.purge(now - 50) == 1 and pool.get("s3") is None and pool.get("s1") is not None
    assert pool.purge(now + 1) == 1 and pool.get("s1") is None  # lapsed, then forgotten


def test_a_bot_seeker_keeps_its_fields_and_is_renewed_by_player_while_waiting_and_live(
        backend: tuple[PoolStore, Store]) -> None:
    """What a bot's open event stream does each look (``renew``): only that player's waiting,
    live seeker runs on; a lapsed one is not revived, a claimed one not touched."""
    pool, _ = backend
    pool.add(replace(seeker(1, player="robo"), bot=True))
    pool.add(replace(seeker(2, player="ann"), bots=True))
    pool.add(seeker(3, player="gone", lease=-1.0))
    now = time.time()
    robo, ann = pool.get("s1"), pool.get("s2")
    assert robo is not None and robo.bot and not robo.bots
    assert ann is not None and ann.bots and not ann.bot
    waiting = sorted((s.id, s.bot, s.bots) for s in pool.waiting(now))
    assert waiting == [("s1", True, False), ("s2", False, True)]
    assert pool.renew("robo", now, now + 100) == 1
    assert pool.renew("gone", now, now + 100) == 0 and pool.renew("nobody", now, now + 100) == 0
    renewed, lapsed, other = pool.get("s1"), pool.get("s3"), pool.get("s2")
    assert renewed is not None and renewed.lease == pytest.approx(now + 100, abs=0.01) and renewed.bot
    assert lapsed is not None and lapsed.lease < now
    assert other is not None and other.lease < now + 50
    assert pool.claim("r", {"s1": 0, "s2": 1}, now, now + 5)
    assert pool.renew("robo", now, now + 200) == 0
    claimed = pool.get("s1")
    assert claimed is not None and claimed.state == CLAIMED and claimed.bot


def test_a_player_seeking_again_leaves_their_earlier_seek(backend: tuple[PoolStore, Store]) -> None:
    pool, _ = backend
    pool.add(seeker(1, player="ann"))
    pool.add(seeker(2, player="ann", preset="gin"))
    assert [s.id for s in pool.waiting(time.time())] == ["s2"]


def test_racing_claims_seat_every_seeker_exactly_once(backend: tuple[PoolStore, Store]) -> None:
    """Eight threads each claim random pairs of 40 seekers until none is left waiting: every
    seeker ends claimed by exactly one claim, and each claim got a whole pair."""
    pool, _ = backend
    for number in range(40):
        pool.add(seeker(number))
    won: list[tuple[str, tuple[str, str]]] = []
    lock = threading.Lock()
    count = itertools.count()

    def claimer(seed: int) -> None:
        chance = random.Random(seed)
        while True:
            waiting = [s.id for s in pool.waiting(time.time())]
            if len(waiting) < 2:
                return
            pair = tuple(chance.sample(waiting, 2))
            room = f"room{next(count)}"
            now = time.time()
            if pool.claim(room, {pair[0]: 0, pair[1]: 1}, now, now + 30):
                with lock:
                    won.append((room, pair))  # type: ignore[arg-type]

    threads = [threading.Thread(target=claimer, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    claimed = Counter(member for _room, pair in won for member in pair)
    assert sorted(claimed) == sorted(f"s{n}" for n in range(40)) and set(claimed.values()) == {1}
    for room, pair in won:
        assert {pool.get(member).claim for member in pair} == {room}  # type: ignore[union-attr]


def test_a_claim_left_by_a_dead_process_is_seated_or_waits_again(backend: tuple[PoolStore, Store]) -> None:
    pool, store = backend
    rooms = RoomTable(store, Room.from_data)
    settings = PoolSettings(claim_seconds=0.2)
    matchmaker = Matchmaker(pool, rooms, lambda _player, _seats: 1500, settings)
    for number in range(4):
        pool.add(seeker(number))
    now = time.time()
    # A process claims two tables and dies: one after making its room, one before.
    from okgin.server.pool.matchmaker import make_room
    assert pool.claim("made", {"s0": 0, "s1": 1}, now, now + 0.2)
    rooms.create(*make_room("made", [pool.get("s0"), pool.get("s1")], settings, 60.0))  # type: ignore[list-item]
    assert pool.claim("never", {"s2": 0, "s3": 1}, now, now + 0.2)
    matchmaker.recover(now + 1)
    assert pool.get("s0").state == SEATED and pool.get("s1").room == "made"  # type: ignore[union-attr]
    assert {pool.get(f"s{n}").state for n in (2, 3)} == {WAITING}  # type: ignore[union-attr]
    assert matchmaker.pair() and pool.get("s2").state == SEATED  # type: ignore[union-attr]
    table = rooms.load(pool.get("s2").room)  # type: ignore[union-attr, arg-type]
    assert table is not None and table.phase is Phase.PLAYING and not table.coach and table.timer == 60
    assert [seat.kind for seat in table.seats] == ["person", "person"]


def test_a_computer_is_offered_only_after_the_wait_and_seats_the_seeker_at_once(
        backend: tuple[PoolStore, Store]) -> None:
    pool, store = backend
    rooms = RoomTable(store, Room.from_data)
    matchmaker = Matchmaker(pool, rooms, lambda _player, _seats: 1500, PoolSettings(offer_seconds=20))
    pool.add(seeker(1, preset="oklahoma-multiplayer", seats=3, waited=5))
    with pytest.raises(PoolError, match="after 20 s"):
        matchmaker.computer("s1", "p1")
    assert pool.get("s1").state == WAITING  # type: ignore[union-attr]
    pool.add(seeker(2, preset="oklahoma-multiplayer", seats=3, waited=25))
    assert matchmaker.look("s2", "p2")["offer"] is True
    with pytest.raises(PoolError):
        matchmaker.computer("s2", "p1")  # not p1's seeker
    answer = matchmaker.computer("s2", "p2")
    assert answer["state"] == "seated"
    table = rooms.load(answer["room"])
    assert table is not None and [s.kind for s in table.seats] == ["person", "computer", "computer"]
    assert table.phase is Phase.PLAYING and not table.coach


def test_a_seeker_lost_or_lapsed_is_told_to_seek_again(backend: tuple[PoolStore, Store]) -> None:
    pool, store = backend
    matchmaker = Matchmaker(pool, RoomTable(store, Room.from_data), lambda _player, _seats: 1500)
    pool.add(seeker(1, lease=-1.0))  # its page stopped looking (closed, asleep) 11 s ago
    for answer in (matchmaker.look("s1", "p1"), matchmaker.look("never-was", "p1")):
        assert answer == {"state": "gone", "message": "You are no longer waiting for a table: seek again."}
    assert matchmaker.pair() == [] and pool.get("s1").state == WAITING  # type: ignore[union-attr]


def test_a_bot_is_paired_only_with_a_person_who_allows_bots_and_marked_bot_at_the_table(
        backend: tuple[PoolStore, Store]) -> None:
    """The pairing on every backend: the bot's seek (``join`` with its own rating) and a person
    who refuses bots wait on; the person who allows them is seated with the bot, whose seat is
    marked BOT; nobody is seated twice."""
    pool, store = backend
    rooms = RoomTable(store, Room.from_data)
    matchmaker = Matchmaker(pool, rooms, lambda _player, _seats: 1500)
    robo = matchmaker.join("robo", "Robo", "gin", 2, bot_rating=1480)
    refuses = matchmaker.join("ann", "Ann", "gin", 2, bots=False)
    assert robo.bot and not robo.bots and robo.rating == 1480 and not refuses.bots
    assert matchmaker.pair() == []
    assert matchmaker.join("bot2", "Other bot", "gin", 2, bots=True, bot_rating=1500).bots is False
    assert matchmaker.pair() == []  # two bots never make a table, whatever the second asked
    allows = matchmaker.join("bea", "Bea", "gin", 2, bots=True)
    made = matchmaker.pair()
    assert len(made) == 1
    table = rooms.load(made[0])
    assert table is not None and table.pool and not table.coach
    seated = {s.player: s for s in (pool.get(robo.id), pool.get(allows.id)) if s is not None}
    assert {s.state for s in seated.values()} == {SEATED} and {s.room for s in seated.values()} == {made[0]}
    seats = {player: s.seat for player, s in seated.items()}
    assert sorted(seats.values()) == [0, 1]  # type: ignore[type-var]
    assert table.seats[seats["robo"] or 0].bot is True and table.seats[seats["bea"] or 0].bot is False
    assert pool.get(refuses.id).state == WAITING  # type: ignore[union-attr]
    assert matchmaker.pair() == []


def test_a_seek_sent_again_after_its_answer_was_lost_is_the_same_seek(
        backend: tuple[PoolStore, Store]) -> None:
    """A seek whose answer was lost (its process killed under the request) and sent again with
    the same key is the one seek: while the first is being seated, and after, the page is told
    where it stands instead of waiting in the pool a second time (found by the pool's kill test)."""
    pool, store = backend
    rooms = RoomTable(store, Room.from_data)
    matchmaker = Matchmaker(pool, rooms, lambda _player, _seats: 1500)
    first = matchmaker.join("ann", "Ann", "oklahoma", 2, key="press-1")
    bob = matchmaker.join("bob", "Bob", "oklahoma", 2, key="press-1")
    assert matchmaker.join("bob", "Bob", "oklahoma", 2, key="press-1").id == bob.id != first.id
    now = time.time()
    assert pool.claim("made", {first.id: 0, bob.id: 1}, now, now + 5)
    again = matchmaker.join("ann", "Ann", "oklahoma", 2, key="press-1")  # the answer to the first was lost
    assert again.id == first.id and matchmaker.status(again, now)["state"] == "pairing"
    assert [s.player for s in pool.waiting(now)] == []
    later = matchmaker.join("ann", "Ann", "gin", 2, key="press-2")  # a new press is a new seek
    assert later.id != first.id and later.state == WAITING
    with pytest.raises(PoolError, match="key"):
        matchmaker.join("ann", "Ann", "oklahoma", 2, key="no spaces or more than 40 signs" * 2)
