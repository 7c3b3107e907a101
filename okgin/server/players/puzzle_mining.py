"""Puzzles mined from the finished games in the store (``okgin puzzles mine``).

Each finished game is looked at once (``puzzle_mined``): every decision a person made in it is
a candidate, judged as the starting set's are (``okgin.puzzles.make.judge``: one move best by
the margin on 1,024 guesses at each making salt). A puzzle from a public game is offered to
everyone; one from a private game only to the player who sat at that seat. The work is CPU
heavy (about a second a candidate), so it runs as a command, never on the server's event loop.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

from sqlalchemy import select

from okgin.errors import OkginError
from okgin.hand import Hand
from okgin.puzzles.make import Found, judge, position_of
from okgin.puzzles.puzzle import Puzzle
from okgin.record import replay
from okgin.rules import PRESETS, preset
from okgin.server.players.puzzle_store import PuzzleStore
from okgin.server.players.sharing import Sharing
from okgin.server.store.schema import game_players
from okgin.server.store.storage import Store, StoredGame
from okgin.view import seat_view


def decisions(game: StoredGame) -> Iterator[tuple[int, Found]]:
    """Each decision of a person's seat in ``game`` (a seat no computer player held), as that
    seat saw it, with its seat. A record that does not replay gives none."""
    try:
        match, _ = replay(game.record)
    except OkginError:
        return
    rules = match.rules
    name = rules.preset
    if name not in PRESETS or rules != preset(name).replace(players=rules.players, target=rules.target,
                                                     preset=name):
        return  # house rules: the board types in a preset, its table size and its target only
    totals = [0] * match.rules.players
    won = [0] * match.rules.players
    for number, played in enumerate(match.hands, start=1):
        again = Hand(played.rules, played.dealer, played.deal)
        for move, action in enumerate(played.actions, start=1):
            seat = again.to_act
            if seat is not None and game.levels[seat] is None:
                view = seat_view(again, seat, tuple(totals), tuple(won))
                position = position_of(view, name)
                if position is not None:
                    yield seat, Found(position, f"game {game.id} hand {number} move {move}")
            again.apply(action)
        if played.result is not None:
            totals = [t + p for t, p in zip(totals, played.result.points, strict=True)]
            won = [w + max(p, 0) for w, p in zip(won, played.result.points, strict=True)]


def mine_game(store: Store, puzzles: PuzzleStore, game: StoredGame) -> int:
    """Mine ``game`` once: its puzzles kept (public: for everyone; private: each for the player
    at its seat). Returns how many were added."""
    if puzzles.mined(game.id):
        return 0
    public = Sharing(store.engine).is_public(game.id)
    with store.engine.connect() as db:
        sat = dict(db.execute(select(game_players.c.seat, game_players.c.player)
                              .where(game_players.c.game == game.id)).all())
    found: list[Puzzle] = []
    owners: dict[str, str | None] = {}
    for seat, candidate in decisions(game):
        if not public and seat not in sat:
            continue  # a private game's seat whose player is gone: shown to nobody
        puzzle = judge(candidate)
        if puzzle is not None:
            found.append(puzzle)
            owners[puzzle.id] = None if public else sat[seat]
    return puzzles.add_mined(game.id, found, owners)


def mine_command(db: str, limit: int = 200, quiet: bool = False) -> int:
    """``okgin puzzles mine``: mine the last ``limit`` finished games of the store at ``db`` (a
    path or a database URL) not mined yet."""
    store = Store(db if "://" in db else f"sqlite:///{db}")
    started = time.monotonic()
    puzzles = PuzzleStore(store.engine)
    added = 0
    games = store.finished(None, limit)
    for game in games:
        count = mine_game(store, puzzles, game)
        added += count
        if not quiet and count:
            print(f"game {game.id}: {count} puzzle{'s' if count != 1 else ''}", file=sys.stderr, flush=True)
    store.close()
    print(f"okgin puzzles mine: {added} puzzles from {len(games)} finished games "
          f"({time.monotonic() - started:.0f} s)")
    return 0
