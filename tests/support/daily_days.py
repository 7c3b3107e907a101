"""The daily deal's fixed day for tests: a store whose secret is known (so the day's seed, its
deals and hard's answers are too), a clock file a real server reads, and two players' fixed ways
of choosing among the page's buttons (docs/daily.md)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from sqlalchemy import insert

from okgin.server.pages import daily_play
from okgin.server.pages.daily_table import table
from okgin.server.store.daily_store import Attempt, DailyStore
from okgin.server.store.migrate import upgrade
from okgin.server.store.schema import daily_secrets
from okgin.server.store.storage import Store

SECRET = "5e" * 32
"""The store's secret in these tests (a real store makes its own, at random)."""
DAY = "2026-12-07"
NOON = f"{DAY}T12:00:00"
NEXT_DAY = "2026-12-08T00:00:01"


def seeded_store(db: Path) -> str:
    """A store at the schema's head holding the test secret; its URL."""
    url = f"sqlite:///{db}"
    upgrade(url)
    store = Store(url)
    with store.engine.begin() as rows:
        rows.execute(insert(daily_secrets).values(id=1, secret=SECRET))
    store.close()
    return url


def clock_file(folder: Path, moment: str = NOON) -> Path:
    path = folder / "clock.txt"
    path.write_text(moment, encoding="utf-8")
    return path


def choose(moves: list[str], knocker: bool) -> str:
    """A player's fixed choice among the moves on offer (record notation, page order): the
    knocker knocks with the first card it may, else takes the first plain move (pass, take,
    draw), else discards its highest card in the page's order; the other never knocks, passes
    or draws (never takes) and discards its first card."""
    knocks = [m for m in moves if " knock " in m]
    plain = [m for m in moves if re.fullmatch(r"0 (pass|take|draw|big-gin)", m)]
    discards = [m for m in moves if " discard " in m]
    if knocker:
        if knocks:
            return knocks[0]
        if plain:
            return plain[0]
        return discards[-1]
    steady = [m for m in plain if not m.endswith("take")]
    if steady:
        return steady[0]
    if plain:
        return plain[0]
    return discards[0]


def play_attempt(url: str, day: date, player: str, knocker: bool, until_discard: bool = False) -> Attempt:
    """``player``'s attempt at ``day`` played through the daily deal's own calls (as the page's
    forms make them) with ``choose``: to the end, or with ``until_discard`` only until they are
    to discard (a table with a button per card)."""
    store = Store(url)
    daily = DailyStore(store.engine)
    try:
        attempt = daily_play.start(daily, day, player)
        while attempt.finished is None:
            found = daily_play.current(daily, day, player)
            assert found is not None
            attempt, match = found
            if match.current is None:
                attempt = daily_play.next_deal(daily, day, player, attempt.version)
                continue
            shown = table(attempt, match)  # the moves in the page's order
            moves = [code for group in ("plain", "discards", "knocks") for code, _shown in shown[group]]
            if until_discard and any(" discard " in move for move in moves):
                break
            attempt = daily_play.move(daily, day, player, choose(moves, knocker), attempt.version)
        return attempt
    finally:
        store.close()
