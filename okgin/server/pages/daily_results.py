"""The daily deal's results: a day's table (names, duplicate scores, ranks; the seed and the
replays once the day is over), the week's best for the leaderboard, and a finished attempt's
five deals for the replay viewer. Blocking calls over the store: run them in a thread."""

from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from okgin.daily import DEALS, LEVEL, day_seed, duplicate, replayed, shown
from okgin.server.store.daily_store import DailyStore, Finisher
from okgin.steps import game_steps

PLAYER = "Player"
"""The person's seat in a replay when they chose no name."""
GUEST = "A guest"
"""How a player who chose no name is shown."""
WEEK_SHOWN = 20
"""The players the leaderboard's week's best shows."""


def _ranked(finishers: list[Finisher]) -> list[tuple[int, Finisher, Fraction]]:
    """Each finisher with their rank (equal scores share one) and day score, best first; equal
    scores in the order they finished."""
    scores = duplicate({f.player: f.total for f in finishers})
    ordered = sorted(finishers, key=lambda f: -scores[f.player])
    out: list[tuple[int, Finisher, Fraction]] = []
    for place, finisher in enumerate(ordered, start=1):
        score = scores[finisher.player]
        rank = out[-1][0] if out and out[-1][2] == score else place
        out.append((rank, finisher, score))
    return out


def day_results(store: DailyStore, day: date, today: date) -> dict[str, Any]:
    """What the day's page shows: each finisher's rank, name, total and score (the replay's code
    once the day is over), the average, who has not finished, and the seed once it is over."""
    finishers = store.finishers([day.isoformat()])[day.isoformat()]
    over = day < today
    rows = [{"rank": rank, "name": f.name or GUEST, "total": f.total, "points": list(f.points),
             "score": shown(score), "code": f.code, "player": f.player}
            for rank, f, score in _ranked(finishers)]
    average = Fraction(sum(f.total for f in finishers), len(finishers)) if finishers else None
    return {
        "day": day.isoformat(), "over": over, "today": day == today, "rows": rows,
        "average": None if average is None else shown(average).lstrip("+"),
        "unfinished": store.unfinished(day.isoformat()),
        "seed": day_seed(store.secret(), day) if over else None,
        "previous": (day - timedelta(days=1)).isoformat() if day > date.min else None,
        "next": (day + timedelta(days=1)).isoformat() if day < today else None,
        "deals": DEALS,
    }


def week_of(today: date) -> list[date]:
    """The days of ``today``'s UTC week (Monday first) up to today."""
    monday = today - timedelta(days=today.weekday())
    return [monday + timedelta(days=n) for n in range((today - monday).days + 1)]


def week_best(
    store: DailyStore, today: date, you: str | None,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The week's best: each player's day scores summed over this UTC week's days so far
    (today's as it stands), best first, the first ``WEEK_SHOWN`` of those the leaderboard lists
    (a name chosen, not banned: every finisher counts in the days' averages all the same); and
    ``you``'s own sum and days, if you played this week."""
    days = week_of(today)
    found = store.finishers([d.isoformat() for d in days])
    sums: dict[str, Fraction] = {}
    names: dict[str, str | None] = {}
    played: dict[str, int] = {}
    for finishers in found.values():
        for _rank, f, score in _ranked(finishers):
            sums[f.player] = sums.get(f.player, Fraction(0)) + score
            names[f.player] = f.name
            played[f.player] = played.get(f.player, 0) + 1
    banned = store.banned(set(sums))
    listed = [p for p in sums if names[p] and p not in banned]
    ordered = sorted(listed, key=lambda p: -sums[p])[:WEEK_SHOWN]
    rows = [{"name": names[p], "score": shown(sums[p]), "days": played[p], "you": p == you} for p in ordered]
    yours = None if you is None or you not in sums else {
        "score": shown(sums[you]), "days": played[you], "listed": you in listed}
    return rows, yours


def replay_steps(store: DailyStore, day: date, code: str) -> dict[str, Any] | None:
    """A finished attempt's five deals for the replay viewer, every hand face up (the day being
    over: its seed is published); None when there is no such finished attempt."""
    attempt = store.by_code(day.isoformat(), code)
    if attempt is None or attempt.finished is None:
        return None
    seed = day_seed(store.secret(), day)
    finishers = store.finishers([day.isoformat()])[day.isoformat()]
    named = next((f.name for f in finishers if f.code == code), None)
    names = [named or PLAYER, LEVEL]
    every = [game_steps(replayed(seed, deal, moves), names) for deal, moves in enumerate(attempt.moves)]
    hands = [{**hand, "number": deal + 1} for deal, steps in enumerate(every) for hand in steps["hands"]]
    return {**every[0], "hands": hands}
