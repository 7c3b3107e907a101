"""Computer players, one module per level, all behind the `Player` interface."""

from __future__ import annotations

import random
from collections.abc import Callable

from okgin.bots.base import Player
from okgin.bots.easy import EasyPlayer
from okgin.bots.expert import ExpertPlayer
from okgin.bots.hard import DEFAULT_BUDGET, HardPlayer
from okgin.bots.normal import NormalPlayer
from okgin.bots.random_player import RandomPlayer
from okgin.bots.simple import SimplePlayer
from okgin.errors import OkginError

_LEVELS: dict[str, Callable[[random.Random, int | None], Player]] = {
    "random": lambda rng, budget: RandomPlayer(rng),
    "simple": lambda rng, budget: SimplePlayer(rng),
    "easy": lambda rng, budget: EasyPlayer(rng),
    "normal": lambda rng, budget: NormalPlayer(rng),
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}

LEVELS = tuple(_LEVELS)


def make_player(
    level: str, rng: random.Random | None = None, budget: int | None = None
) -> Player:
    """A computer player of ``level``; ``budget`` is the guessed deals `hard` (or `expert`)
    searches per look-ahead (None: the level's defaults, ``DEFAULT_BUDGET`` for `hard`'s close
    moves). Its choices depend on ``rng`` and the view only. Raises OkginError naming the levels
    there are."""
    try:
        factory = _LEVELS[level]
    except KeyError:
        raise OkginError(f"no player {level!r}; the players are " + ", ".join(_LEVELS)) from None
    return factory(rng or random.Random(), budget)


__all__ = ["DEFAULT_BUDGET", "LEVELS", "Player", "make_player"]
