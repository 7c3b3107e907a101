"""Catching a game up on the log rows after its version gives exactly the game a full replay
gives, and rows that do not follow it (or a game holding unsaved changes) are refused."""

from __future__ import annotations

import random

from okgin.hand import play_chance
from okgin.rules import preset
from okgin.server.rooms.catch_up import catch_up
from okgin.server.rooms.games import Game
from okgin.server.store.storage import LogRow

NAMES = ["A", "B", "C"]


def play(game: Game, moves: int, rng: random.Random) -> None:
    """``moves`` random legal moves (and new hands as they end)."""
    for _ in range(moves):
        hand = game.match.current
        if hand is None:
            if game.match.over:
                return
            game.match.deal_next(game.rng)
            continue
        game.apply(rng.choice(list(hand.legal_actions())))
        play_chance(game.match.hands[-1], game.rng)


def snapshot(game: Game) -> tuple[Game, list[LogRow]]:
    """A copy of the game as the store holds it, and its whole log."""
    record = game.record(NAMES[: game.match.rules.players])
    log = Game.from_record("x", record).unsaved()
    return Game.from_record("x", record, len(log)), log


def test_catching_up_equals_replaying_at_every_distance() -> None:
    rng = random.Random(3)
    game = Game.deal(preset("oklahoma-multiplayer").replace(players=3), seed=5)
    snapshots = []
    for _ in range(40):
        snapshots.append(snapshot(game))
        play(game, rng.randrange(1, 12), rng)
    snapshots.append(snapshot(game))
    assert len(snapshots[-1][0].match.hands) > 2, "the games should cross several hands"
    for start in range(0, len(snapshots), 3):
        for later, log in snapshots[start:start + 6]:
            behind, _ = snapshot(snapshots[start][0])
            assert catch_up(behind, log[behind.version:])
            assert behind.version == later.version == len(log)
            assert behind.record(NAMES) == later.record(NAMES)


def test_what_does_not_follow_is_refused() -> None:
    rng = random.Random(4)
    game = Game.deal(preset("oklahoma"), seed=1)
    play(game, 6, rng)
    mine, log = snapshot(game)
    other = Game.deal(preset("oklahoma"), seed=2)  # another deal altogether
    play(other, 8, rng)
    _, other_log = snapshot(other)
    assert not catch_up(mine, other_log[mine.version:])
    ahead, _ = snapshot(game)
    play(ahead, 1, rng)  # a change of ours the store does not hold
    play(game, 1, random.Random(9))
    assert not catch_up(ahead, snapshot(game)[1][ahead.version:])
    behind, _ = snapshot(game)
    assert not catch_up(behind, [(1, "1 knock 9Z")])  # not an action
    assert not catch_up(snapshot(game)[0], log[:2])  # rows it already holds
