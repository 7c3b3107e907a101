"""Where computer players think, off the event loop, so no game waits for another's.

Quick levels think in a worker thread. `hard` and `expert` search a fixed number of guessed
deals per decision, holding the interpreter lock meanwhile, so they think in a separate process:
the server's own process stays free to acknowledge every other game's actions. The daily deal's
`hard` thinks there too (``run_blocking``). ``SpawnedPool``, the pool made on first use, is the
coach's line's too (``coach/line.py``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

import anyio.to_thread

from okgin.actions import PlayerAction
from okgin.bots import Player, make_player
from okgin.errors import OkginError
from okgin.server.rooms.room import LEVELS
from okgin.view import SeatView

T = TypeVar("T")

SEARCHING = frozenset({"hard", "expert"})
_FALLBACK = dict(zip(LEVELS, ("random", "simple", "simple", "simple"), strict=True))
"""Each level's stand-in while its player is missing (a branch without it)."""


def computer_player(level: str, rng: random.Random) -> Player:
    """The computer player of ``level``, or the nearest level there is while it is missing."""
    try:
        return make_player(level, rng)
    except OkginError:
        return make_player(_FALLBACK.get(level, "simple"), rng)


def _decide(level: str, seed: int, view: SeatView) -> PlayerAction:
    """In a worker process: one decision by a fresh player (players keep no state between turns)."""
    return computer_player(level, random.Random(seed)).act(view)


class SpawnedPool:
    """A pool of ``processes`` made on first use, from the loop or a worker thread (spawned: never
    fork a threaded server), and shut down by ``close``. Its work is a module-level function of
    its arguments alone."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._making = threading.Lock()

    def get(self) -> ProcessPoolExecutor:
        with self._making:
            if self._pool is None:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(self.processes, mp_context=context)
            return self._pool

    @property
    def made(self) -> bool:
        """Whether the pool is there (made and not closed since)."""
        return self._pool is not None

    def close(self) -> None:
        with self._making:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


class Thinking:
    """Runs decisions: threads for quick levels, a process pool (made on first use) for searches."""

    def __init__(self, processes: int | None = None) -> None:
        self._pool = SpawnedPool(processes or max(1, (os.cpu_count() or 2) - 1))

    async def decide(self, level: str, player: Player, view: SeatView, rng: random.Random) -> PlayerAction:
        if level not in SEARCHING:
            return await anyio.to_thread.run_sync(player.act, view)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool.get(), _decide, level, rng.getrandbits(64), view)

    def run_blocking(self, work: Callable[..., T], *args: Any) -> T:
        """From a worker thread: ``work(*args)`` done in the thinking processes and waited for
        (``work`` a module-level function of its arguments alone, as the daily deal's answers)."""
        return self._pool.get().submit(work, *args).result()

    def close(self) -> None:
        self._pool.close()
