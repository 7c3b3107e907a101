"""Make the migration fixture: a game store in the schema of 1 Dec 2026 (before Alembic), kept in tests/.

Run once, from the main of that day (`okgin.server.storage`, `room_store` and `results` as they
were then), to write ``tests/fixtures/store-2026-12-01.db`` (SQLite),
``tests/fixtures/store-2026-12-01.sql`` (plain SQL from pg_dump of a throwaway PostgreSQL) and
``tests/fixtures/store-2026-12-01.json`` (what is in them: each game's id, each room's code and
its seats' tokens, so a test can play them after the upgrade). Both databases hold the same
games and rooms, one in every phase:

- ``solo_playing``: a game against the computer, in progress;
- ``solo_finished``: a game against the computer, over, with its statistics rows;
- ``room_lobby``: a room of three in its lobby (two seated, one seat empty);
- ``room_mid_hand``: a room of two people and a computer player, a hand in progress;
- ``room_hand_over``: a room of two people, its first hand over, the next not dealt;
- ``room_game_over``: a room of two people whose game is over.

    .venv/bin/python tests/support/make_schema_fixture.py
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from okgin.server.games import Game
from okgin.server.room_store import GameWrite, RoomStore
from okgin.server.storage import Store
from real_servers import Postgres

from okgin.bots import make_player
from okgin.rules import preset
from okgin.server import results
from okgin.server.rooms import Room

FIXTURES = Path(__file__).parents[1] / "fixtures"
NAME = "store-2026-12-01"


def _play(game: Game, rng: random.Random, moves: int | None = None, *, to_hand_end: bool = False) -> None:
    """Play ``moves`` actions by `simple` players (or to the end of the hand, or of the game)."""
    players = [make_player("simple", random.Random(rng.random())) for _ in range(game.match.rules.players)]
    played = 0
    while True:
        hand = game.match.current
        if hand is None:
            if to_hand_end or moves is not None or game.match.over:
                return
            game.next_hand()
            continue
        if moves is not None and played >= moves:
            return
        seat = hand.to_act
        assert seat is not None
        game.apply(players[seat].act(game.match.view(seat)))
        played += 1


def _save(rooms: RoomStore, room: Room, game: Game) -> None:
    final = game.match.final
    rooms.save(room, GameWrite(game.id, game.record(room.names), room.levels(),
                               winner=final.winner if final else None,
                               scores=final.scores if final else None))


def _solo(rooms: RoomStore, rng: random.Random, finish: bool) -> dict[str, Any]:
    game = Game.deal(preset("oklahoma").replace(target=30), seed=rng.randrange(1 << 30))
    room, token = Room.solo_game(game.match.rules, ["easy"])
    room.game = game.id
    room.games.append(game.id)
    rooms.create(room, GameWrite(game.id, game.record(room.names), room.levels(), new=True))
    _play(game, rng, None if finish else 6)
    if game.match.over:
        room.finish()
    _save(rooms, room, game)
    if finish:
        results.create(rooms.engine)
        results.write(rooms.engine, results.rows_of(game.id, game.record(room.names), review=False))
    return {"room": room.code, "game": game.id, "tokens": {"0": token}}


def _room(rooms: RoomStore, rng: random.Random, phase: str) -> dict[str, Any]:
    players = 3 if phase in ("lobby", "mid_hand") else 2
    room, host = Room.create(preset("oklahoma").replace(target=30), players, "Ann", timer=60)
    rooms.create(room)
    tokens = {"0": host, "1": room.sit(1, "Bea")}
    if phase == "lobby":
        rooms.save(room)
        return {"room": room.code, "game": None, "tokens": tokens}
    if players == 3:
        room.set_computer(0, 2, "easy", 0.0)
    game = Game.deal(room.rules, seed=rng.randrange(1 << 30))
    room.start(0, game.id)
    rooms.save(room, GameWrite(game.id, game.record(room.names), room.levels(), new=True))
    if phase == "mid_hand":
        _play(game, rng, 5)
    elif phase == "hand_over":
        _play(game, rng, to_hand_end=True)
    else:
        _play(game, rng)
        room.finish()
    _save(rooms, room, game)
    return {"room": room.code, "game": game.id, "tokens": tokens}


def fill(url: str, seed: int = 15) -> dict[str, Any]:
    """Write every phase's game and room into the (empty) store at ``url``; return the manifest."""
    store = Store(url)
    rooms = RoomStore(store)
    rng = random.Random(seed)
    made = {
        "solo_playing": _solo(rooms, rng, finish=False),
        "solo_finished": _solo(rooms, rng, finish=True),
        **{f"room_{phase}": _room(rooms, rng, phase)
           for phase in ("lobby", "mid_hand", "hand_over", "game_over")},
    }
    store.close()
    return made


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    sqlite_file = FIXTURES / f"{NAME}.db"
    sqlite_file.unlink(missing_ok=True)
    manifest = {"sqlite": fill(f"sqlite:///{sqlite_file}")}
    subprocess.run(["sqlite3", str(sqlite_file), "VACUUM"], check=False)  # smaller, if sqlite3 is here
    server = Postgres().start()
    try:
        url = server.fresh_database()
        manifest["postgresql"] = fill(url)
        database = url.rsplit("/", 1)[1]
        dump = subprocess.run(
            [*server._as_postgres, str(server.bin / "pg_dump"), "-h", "127.0.0.1", "-p", str(server.port),
             "-U", server.USER, "--no-owner", "--no-privileges", database],
            check=True, capture_output=True, cwd=server.dir,
        ).stdout
        (FIXTURES / f"{NAME}.sql").write_bytes(dump)
    finally:
        server.stop()
    (FIXTURES / f"{NAME}.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
