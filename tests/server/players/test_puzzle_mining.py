"""Puzzles mined from the store's finished games (``okgin puzzles mine``): a private game's
puzzles are its player's alone, a game is mined once, and every mined puzzle is as sound as a
shipped one (its position the board's, its answer best by the margin at each making salt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_coach_server import seed_games

from okgin.puzzles.price import MARGIN
from okgin.server.players.identity import Players
from okgin.server.players.puzzle_mining import decisions, mine_command
from okgin.server.players.puzzle_store import PuzzleStore
from okgin.server.store.schema import puzzles
from okgin.server.store.storage import Store


@pytest.mark.slow
def test_a_private_games_puzzles_are_its_players_and_it_is_mined_once(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = Store(f"sqlite:///{db}")
    ann_session, _ = Players(store.engine).new_guest()
    ann = ann_session.player
    store.close()
    games = seed_games(db, (0, 3))  # seed 0's game holds no puzzle, seed 3's does
    store = Store(f"sqlite:///{db}")
    for game in games:
        Players(store.engine).sat_in_game(game, {0: ann})
        stored = store.load(game)
        assert stored is not None
        seats = {seat for seat, _ in decisions(stored)}
        assert seats == {0}  # the person's seat only: never the computer player's
    store.close()
    assert mine_command(str(db), quiet=True) == 0
    store = Store(f"sqlite:///{db}")
    with store.engine.connect() as rows:
        found = rows.execute(puzzles.select()).all()
    assert found and all(row.owner == ann and row.game in games for row in found)
    bob = Players(store.engine).new_guest()[0].player
    kept = PuzzleStore(store.engine)
    for row in found:
        puzzle = kept.puzzle(row.id, ann)
        assert puzzle is not None and kept.puzzle(row.id, bob) is None
        assert min(puzzle.margins) >= MARGIN and puzzle.view().seat == 0
    assert mine_command(str(db), quiet=True) == 0  # mined once: nothing more
    with store.engine.connect() as rows:
        assert len(rows.execute(puzzles.select()).all()) == len(found)
    store.close()
