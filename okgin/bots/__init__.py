"""Computer players, one module per level, all behind the `Player` interface."""

from __future__ import annotations

import random
from collections.abc import Callable

from okgin.bots.base import Player
from okgin.bots.random_player import RandomPlayer
from okgin.bots.simple import SimplePlayer
from okgin.errors import OkginError

_LEVELS: dict[str, Callable[[random.Random], Player]] = {
    "random": RandomPlayer,
    "simple": SimplePlayer,
}

LEVELS = tuple(_LEVELS)


def make_player(level: str, rng: random.Random | None = None) -> Player:
    """A computer player of ``level``. Raises OkginError naming the levels there are."""
    try:
        factory = _LEVELS[level]
    except KeyError:
        raise OkginError(f"no player {level!r}; the players are " + ", ".join(_LEVELS)) from None
    return factory(rng or random.Random())


__all__ = ["LEVELS", "Player", "make_player"]
