"""Memory a whole game holds in the server (a benchmark, not a test).

    python bench/bench_game_memory.py [--games N] [--seed S]

Plays N whole games to the target through the server's own ``Game`` objects (seat 0 by the
``simple`` player, seat 1 the server's ``normal``), each action applied and saved to SQLite as
in play, keeping every game in memory; then reports what tracemalloc sees held per game. The
computer players' shared solver caches (``okgin.bots.memo``: bounded, one per process, not per
game) are emptied before both snapshots so they do not count.
"""

from __future__ import annotations

import argparse
import gc
import random
import tempfile
import tracemalloc

from okgin.bots import make_player, memo
from okgin.rules import preset
from okgin.server.rooms.games import Game
from okgin.server.rooms.room import Room
from okgin.server.store.room_store import GameWrite, RoomTable
from okgin.server.store.storage import Store

NAMES = ("You", "Ruby")


def play_whole_game(rooms: RoomTable[Room], seed: int) -> Game:
    """A new game against `normal`, played to its end with `simple` in seat 0, saved as it goes
    (its room, and each action's row in the game's log)."""
    game = Game.deal(preset("oklahoma"), seed)
    room, _ = Room.solo_game(game.match.rules, ["normal"])
    room.game = game.id
    rows = game.unsaved()
    rooms.create(room, GameWrite(game.id, 0, rows, room.levels(), head=game.head(NAMES)))
    game.saved(len(rows))
    players = [make_player("simple", random.Random(seed)), make_player("normal", random.Random(~seed))]
    while not game.match.over:
        hand = game.match.current
        if hand is None:
            game.next_hand()
        else:
            seat = hand.to_act
            assert seat is not None
            game.apply(players[seat].act(game.match.view(seat)))
        rows = game.unsaved()
        rooms.save(room, GameWrite(game.id, game.version, rows))
        game.saved(len(rows))
    return game


def _empty_shared_caches() -> None:
    for table in (memo._DEADWOOD, memo._DISCARD, memo._DISCARD_VALUE):
        table.clear()
    gc.collect()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = RoomTable(Store(f"sqlite:///{tempfile.mkdtemp()}/games.db"), Room.from_data)
    for warm in range(3):  # the engine's shared tables and interned texts
        play_whole_game(games, args.seed + 10_000 + warm)
    _empty_shared_caches()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [play_whole_game(games, args.seed + n) for n in range(args.games)]
    _empty_shared_caches()
    after = tracemalloc.take_snapshot()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    hands = sum(len(game.match.hands) for game in kept) / len(kept)
    print(
        f"{len(kept)} whole games of {hands:.1f} hands on average: "
        f"{held / len(kept) / 1024:.1f} KB held per game"
    )


if __name__ == "__main__":
    main()
