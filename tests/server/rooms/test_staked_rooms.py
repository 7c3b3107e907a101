"""Staked rooms over a real server: the host's stake refused when it is not one, a seat refused
to a player short of chips, a 3-seat game paying its pool out by okgin.prizes once, a rematch
staking again, the profile's chips, a start with a player short taking nothing; and in the
store, a game's end saved by two processes paying once, an abandoned staked game refunded."""

from __future__ import annotations

import asyncio
import hashlib
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from scripted_client import Client, new_guest, open_room, run, take_seat, wait_for
from server_process import ServerProcess

from okgin.bots import make_player
from okgin.record import replay
from okgin.rules import preset
from okgin.server.players.identity import Players
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.rooms.stakes import TableStakes, game_penalties, split_among
from okgin.server.store.chips import Wallets
from okgin.server.store.room_store import Conflict, GameWrite, RoomTable
from okgin.server.store.storage import Store

SHORT = {"preset": "oklahoma-multiplayer", "target": 30}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "stakes.db", allow_seeds=True).start()
    yield process
    process.stop()


def _player(db: Path, cookie: str) -> str:
    digest = hashlib.sha256(cookie.encode()).hexdigest()
    with sqlite3.connect(db) as connection:
        (player,) = connection.execute("SELECT player FROM sessions WHERE id_hash = ?", (digest,)).fetchone()
    return str(player)


def _set_balance(server: ServerProcess, cookie: str, chips: int) -> None:
    """The player's chips set to ``chips`` (after today's grant, taken on their profile page)."""
    db = server.db
    httpx.get(server.url + "/profile", cookies={"okgin_session": cookie})
    with sqlite3.connect(db) as connection:
        player = _player(db, cookie)
        connection.execute("UPDATE chip_wallets SET balance = ? WHERE player = ?", (chips, player))


def _rows(db: Path, query: str, *args: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(query, args).fetchall()


@pytest.mark.slow
def test_a_staked_table_of_three_pays_its_pool_by_okgin_prizes_once(server: ServerProcess) -> None:
    ann, bob, cy = (new_guest(server.url) for _ in range(3))
    _set_balance(server, cy, 40)  # Cy has lost 960 of them elsewhere

    async def go() -> dict[str, Any]:
        host = await open_room(server.ws_url, 3, "Ann", SHORT, cookie=ann)
        bad = [(await host.request({"type": "stake", "stake": stake}))["message"]
               for stake in (-5, 2.5, "50", 5000)]
        guest = await take_seat(server.ws_url, host.room or "", 1, "Bob", cookie=bob)
        not_host = (await guest.request({"type": "stake", "stake": 10}))["message"]
        unchanged = host.room_state
        staked = await host.request({"type": "stake", "stake": 100, "split": "scaled", "cutoff": 50})
        short = await Client.connect(server.ws_url, cy)
        await short.request({"type": "enter", "room": host.room})
        refused = (await short.request({"type": "sit", "seat": 2, "name": "Cy"}))["message"]
        await host.request({"type": "computer", "seat": 2, "level": "easy"})
        assert (await host.request({"type": "start", "seed": 8}))["type"] == "ack"
        first = host.game
        await asyncio.gather(host.play(), guest.play())
        paid = lambda m: m["type"] == "room" and (m["chips"] or {}).get("game") == first  # noqa: E731
        over = host.room_state if paid(host.room_state) else await wait_for(host, paid)
        balances = [Wallets(Store(f"sqlite:///{server.db}").engine).balance(_player(server.db, c))
                    for c in (ann, bob)]
        assert (await guest.request({"type": "rematch"}))["type"] == "ack"
        assert (await host.request({"type": "rematch"}))["type"] == "ack"  # Ann says yes: begun, not finished
        if host.room_state["game"] == first:  # the new game's frame may come before the ack
            await wait_for(host, lambda m: m["type"] == "room" and m["game"] != first)
        profile = httpx.get(server.url + "/profile", cookies={"okgin_session": ann}).text
        for client in (host, guest, short):
            await client.close()
        return {"bad": bad, "not_host": not_host, "unchanged": unchanged, "staked": staked,
                "refused": refused, "over": over, "first": first, "second": host.game, "balances": balances,
                "profile": profile}

    out = run(go())
    assert out["bad"] == [f"the stake is a whole number of chips from 0 to 1000, not {v!r}"
                          for v in (-5, 2.5, "50", 5000)]
    assert out["not_host"] == "only the host can do that"
    assert out["unchanged"]["stake"] == 0 and out["staked"]["type"] == "ack"
    assert out["refused"] == ("Cy has 40 chips, fewer than the stake of 100: "
                              "lower the stake, or wait for tomorrow's chips")  # rooms.stakes.stake_refusal
    # The split: the game's penalty points from its record, the people's pool of 200 by okgin.prizes.
    stored = Store(f"sqlite:///{server.db}").load(out["first"])
    assert stored is not None
    match, _ = replay(stored.record)
    final = match.final
    assert final is not None
    shares = split_among(200, [0, 1], game_penalties(match), final.scores, final.winner,
                         TableStakes.read(100).prizes)
    over = out["over"]["chips"]
    assert over == {"game": out["first"], "pool": 200,
                    "shares": [shares[0], shares[1], None]}
    assert sum(shares.values()) == 200
    assert out["balances"] == [900 + shares[0], 900 + shares[1]]
    # The rematch staked again; the first game was paid once.
    ann_id, first, second = _player(server.db, ann), out["first"], out["second"]
    won = [("payout", shares[0], first)] if shares[0] else []
    assert _rows(server.db, "SELECT kind, amount, game FROM chip_ledger WHERE player = ? ORDER BY id",
                 ann_id) == [("grant", 1000, None), ("stake", -100, first), *won, ("stake", -100, second)]
    kinds = _rows(server.db, "SELECT kind FROM chip_ledger WHERE game = ? AND kind = 'payout'", first)
    assert len(kinds) == sum(1 for chips in shares.values() if chips)
    assert _rows(server.db, "SELECT balance FROM chip_wallets WHERE player = ?", ann_id) == [
        (800 + shares[0],)]
    assert f"<b id=chip-balance>{800 + shares[0]}</b>" in out["profile"]
    assert out["profile"].count("<td>-100</td>") == 2 and "Daily chips" in out["profile"]


@pytest.mark.slow
def test_a_start_with_one_player_short_takes_nobodys_stake(server: ServerProcess) -> None:
    ann, bob = new_guest(server.url), new_guest(server.url)

    async def go() -> dict[str, Any]:
        host = await open_room(server.ws_url, 2, "Ann", SHORT, cookie=ann)
        guest = await take_seat(server.ws_url, host.room or "", 1, "Bob", cookie=bob)
        _set_balance(server, bob, 40)  # Bob's chips went to another table
        too_much = await host.request({"type": "stake", "stake": 100})
        unchanged = host.room_state
        _set_balance(server, bob, 1000)  # ... and came back
        assert (await host.request({"type": "stake", "stake": 100}))["type"] == "ack"
        _set_balance(server, bob, 40)  # ... and went again, after the stake was set
        refused = await host.request({"type": "start"})
        fresh = await Client.connect(server.ws_url)  # the room as the server holds it now
        await fresh.request({"type": "enter", "room": host.room})
        room = fresh.room_state
        await fresh.close()
        await guest.close()
        await host.close()
        return {"too_much": too_much, "unchanged": unchanged, "refused": refused, "room": room}

    out = run(go())
    assert (out["too_much"]["code"], out["too_much"]["message"]) == (
        "refused", "Bob has 40 chips, fewer than the stake of 100: lower the stake, "
                   "or wait for tomorrow's chips")
    assert out["unchanged"]["stake"] == 0
    assert out["refused"]["code"] == "refused"
    assert out["refused"]["message"] == ("Bob has 40 chips, fewer than the stake of 100: lower the stake, "
                                         "or wait for tomorrow's chips")
    assert out["room"]["phase"] == "lobby" and out["room"]["game"] is None and out["room"]["staked"] == []
    assert _rows(server.db, "SELECT balance FROM chip_wallets WHERE player = ?", _player(server.db, ann)) == [
        (1000,)]
    assert _rows(server.db, "SELECT count(*) FROM chip_pools") == [(0,)]
    assert _rows(server.db, "SELECT count(*) FROM chip_ledger WHERE kind = 'stake'") == [(0,)]


def _staked_room(store: Store, stake: int) -> tuple[RoomTable[Room], Room, Game]:
    """A 2-seat room of Ann and Bob with ``stake``, its game begun and saved (stakes taken)."""
    rooms, players = RoomTable(store, Room.from_data), Players(store.engine)
    room, _ = Room.create(preset("oklahoma").replace(target=25), 2, "Ann")
    room.sit(1, "Bob")
    room.set_stakes(0, TableStakes.read(stake))
    rooms.create(room)
    for seat, player in enumerate(("ann", "bob")):
        players.sat_in_room(room.code, seat, player)
    game = Game.deal(room.rules, seed=3)
    room.start(0, game.id)
    rows = game.unsaved()
    rooms.save(room, GameWrite(game.id, 0, rows, room.levels(), head=game.head(room.names),
                               stakes=(stake, (0, 1))))
    game.saved(len(rows))
    return rooms, room, game


def test_a_games_last_move_saved_twice_pays_once(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    rooms, room, game = _staked_room(store, 100)
    bots = [make_player("easy", random.Random(seat)) for seat in range(2)]
    while not game.match.over:
        if game.match.current is None:
            game.next_hand()
        else:
            seat = game.to_act()
            assert seat is not None
            game.apply(bots[seat].act(game.match.view(seat)))
    final = game.match.final
    assert final is not None
    shares = split_among(200, [0, 1], game_penalties(game.match), final.scores, final.winner,
                         room.stakes.prizes)
    # Two processes hold the room at the same version and both save the game's end with its payout.
    first, second = rooms.load(room.code), rooms.load(room.code)
    assert first is not None and second is not None
    for copy in (first, second):
        copy.finish()
    write = GameWrite(game.id, game.version, game.unsaved(), room.levels(), winner=final.winner,
                      scores=final.scores, payout=shares)
    rooms.save(first, write)
    with pytest.raises(Conflict):
        rooms.save(second, write)
    wallets = Wallets(store.engine)
    assert [wallets.balance(p) for p in ("ann", "bob")] == [900 + shares[0], 900 + shares[1]]
    assert wallets.pool(game.id) == (200, "paid") and sum(shares.values()) == 200


def test_an_abandoned_staked_game_gives_every_stake_back(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    rooms, room, game = _staked_room(store, 300)
    wallets = Wallets(store.engine)
    assert [wallets.balance(p) for p in ("ann", "bob")] == [700, 700]
    assert rooms.remove_idle(time.time() + 60) == [room.code]
    assert [wallets.balance(p) for p in ("ann", "bob")] == [1000, 1000]
    assert wallets.pool(game.id) == (600, "refunded")
    assert [line.kind for line in wallets.ledger("ann")] == ["refund", "stake", "grant"]
