"""The `random` baseline: a uniformly random legal action."""

from __future__ import annotations

import random

from okgin.actions import PlayerAction
from okgin.view import SeatView


class RandomPlayer:
    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def act(self, view: SeatView) -> PlayerAction:
        return self.rng.choice(view.legal)
