"""Comparing moves by playing each out over the same guessed deals (`hard`'s and `expert`'s search)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from okgin.actions import PlayerAction
from okgin.bots.guess import Guesser
from okgin.bots.race import MatchWorth
from okgin.bots.rollout import Table, play_move
from okgin.view import SeatView

SAFETY_SECONDS = 5.0
"""A search stops after this much CPU time of its thread whatever its budget: a safety net,
far above any search measured. CPU time, not the wall clock: on a machine loaded twenty times
over, a wall-clock limit cut searches short and the same seed played a different game."""


def mean_worths(
    view: SeatView, guesser: Guesser, rng: random.Random,
    moves: Sequence[tuple[PlayerAction, Table]], budget: int, worth: MatchWorth,
) -> list[float]:
    """Each move's mean worth (``worth``: its points, and under penalty scoring the match it
    leaves) over ``budget`` guessed deals, each move played out under its table on the same
    deals (at least four deals, fewer than ``budget`` only past ``SAFETY_SECONDS``)."""
    totals = [0.0] * len(moves)
    deadline = time.thread_time() + SAFETY_SECONDS
    guesses = 0
    while guesses < budget and (guesses < 4 or time.thread_time() < deadline):
        world = guesser.world(rng)
        for i, (action, table) in enumerate(moves):
            points = play_move(table, world.copy(), view.seat, action, view.phase, view.dealer)
            totals[i] += worth.value(points)
        guesses += 1
    return [total / guesses for total in totals]
