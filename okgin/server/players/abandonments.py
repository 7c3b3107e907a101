"""Abandonment of Play online's rated games: who left a game to a computer player, and the
growing wait before their next seek (docs/play-online.md, "Leaving a rated game").

The rows are written when the game is rated (``rating_store``, in the rating's transaction);
here they are read, by the pool's seek. Calls block: run them in a thread.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.engine import Engine

from okgin.server.store.db import storage_errors
from okgin.server.store.schema import abandonments

WINDOW = 24 * 3600.0
"""Seconds an abandonment counts toward the wait."""
WAITS = (0.0, 0.0, 120.0, 600.0, 3600.0)
"""The wait after the latest abandonment, by how many the player made within ``WINDOW``: none
after the first, 2 minutes after the second, 10 after the third, an hour after a fourth or more."""


def wait_after(times: Sequence[float], now: float) -> float:
    """Seconds a player who abandoned games at ``times`` still waits before seeking at ``now``."""
    recent = [at for at in times if now - WINDOW < at <= now]
    if not recent:
        return 0.0
    wait = WAITS[min(len(recent), len(WAITS) - 1)]
    return max(0.0, max(recent) + wait - now)


def wait_words(seconds: float, count: int) -> str:
    """The seek's refusal, as a sentence."""
    minutes = math.ceil(seconds / 60)
    when = "in a minute" if minutes <= 1 else f"in {minutes} minutes"
    return (f"You left {count} rated games to a computer player in the last 24 hours: "
            f"you may play online again {when}.")


class Abandonments:
    """The abandonments kept in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def recent(self, player: str, now: float | None = None) -> list[float]:
        """When ``player`` abandoned games within ``WINDOW`` of ``now``."""
        now = time.time() if now is None else now
        query = select(abandonments.c.created).where(abandonments.c.player == player,
                                                     abandonments.c.created > now - WINDOW)
        with storage_errors("could not read your last games"), self.engine.connect() as db:
            return [row.created for row in db.execute(query)]

    def refusal(self, player: str, now: float | None = None) -> str | None:
        """Why ``player`` may not seek yet (None: they may)."""
        now = time.time() if now is None else now
        times = self.recent(player, now)
        wait = wait_after(times, now)
        return wait_words(wait, len(times)) if wait > 0 else None
