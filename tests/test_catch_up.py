"""Catching a match up to a newer stored record gives exactly the match a full replay gives,
and anything that is not an extension of the match is refused (the caller replays)."""

from __future__ import annotations

import copy
import random
from typing import Any

from okgin.hand import play_chance
from okgin.record import replay
from okgin.rules import preset
from okgin.server.rooms.catch_up import catch_up
from okgin.server.rooms.games import Game

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


def snapshot(game: Game) -> dict[str, Any]:
    return copy.deepcopy(game.record(NAMES[: game.match.rules.players]))


def test_catching_up_equals_replaying_at_every_distance() -> None:
    rng = random.Random(3)
    game = Game.deal(preset("oklahoma-multiplayer").replace(players=3), seed=5)
    records = []
    for _ in range(40):
        records.append(snapshot(game))
        play(game, rng.randrange(1, 12), rng)
    records.append(snapshot(game))
    assert len(records[-1]["hands"]) > 2, "the games should cross several hands"
    for start in range(0, len(records), 3):
        behind, _ = replay(records[start])
        for later in records[start:start + 6]:
            assert catch_up(behind, later)
            assert Game("x", behind).record(NAMES) == later


def test_what_is_not_an_extension_is_refused() -> None:
    rng = random.Random(4)
    game = Game.deal(preset("oklahoma"), seed=1)
    play(game, 6, rng)
    base = snapshot(game)
    other = Game.deal(preset("oklahoma"), seed=2)  # another deal altogether
    play(other, 8, rng)
    mine, _ = replay(base)
    assert not catch_up(mine, snapshot(other))
    ahead, _ = replay(base)
    play(Game("y", ahead), 1, rng)  # a change of ours the store does not hold
    assert not catch_up(ahead, base)
    changed = copy.deepcopy(base)
    last = changed["hands"][-1]["actions"]
    last[-1] = "0 pass" if last[-1] != "0 pass" else "1 pass"
    fresh, _ = replay(base)
    assert not catch_up(fresh, changed)
