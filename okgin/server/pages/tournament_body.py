"""What a tournament's page shows (templates/tournament_live.html draws it): its settings,
entrants, standings (a knockout's bracket) and rounds, and at the end its winner and final table.

The live part is what the page's script fetches again while the tournament runs
(``/t/<code>/live``), so it is made once for both. Times are sent in UTC inside ``<time
datetime>``; the page's script shows them in the viewer's own time zone.
"""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from okgin.server.pages.template import fragment
from okgin.server.pages.tournament_bracket import round_title, table_link
from okgin.server.store.tournament_store import StoredTournament, TableRow
from okgin.server.tournaments.plan import chips_won, final_order, out_in, table_standings
from okgin.server.tournaments.settings import Settings
from okgin.server.tournaments.words import format_name, preset_name

STATUS = {"open": "open for entries", "running": "playing", "finished": "finished",
          "cancelled": "cancelled (every entry fee was given back)"}
Pool = tuple[int, dict[str, int]] | None
"""A tournament's pool of entry fees (None: free): its chips, and what each player was paid."""


def utc(when: float) -> datetime.datetime:
    """A stored time, for a ``<time>`` element (templates/tournament_words.html's ``moment``)."""
    return datetime.datetime.fromtimestamp(when, datetime.UTC)


def figure(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


def points_of(table: TableRow) -> dict[int, int]:
    """A finished table's points by seed (none while it plays)."""
    if table.result is None:
        return {}
    return dict(zip(table.result["order"], table.result["points"], strict=True))


WORDS = {"format_name": format_name, "preset_name": preset_name, "utc": utc}
"""What the tournaments' templates call to put things in words."""


def live_context(
    event: StoredTournament, settings: Settings, player: str | None, made: set[str], pool: Pool = None,
) -> dict[str, Any]:
    """Everything the live part shows: status, the pool, your table, entrants or standings and
    rounds (a knockout's bracket and final table). ``made``: the current round's rooms that
    exist (earlier rounds' all do)."""
    mine = next((e.seed for e in event.entrants if player is not None and e.player == player), None)
    finished = event.status == "finished"
    order = final_order(event, settings) if finished else []
    rows = {s.entrant: s for s in table_standings(event)}
    return {
        **WORDS, "event": event, "settings": settings, "mine": mine, "made": made, "pool": pool,
        "entrants": {e.seed: e for e in event.entrants}, "status_words": STATUS[event.status],
        "winner": next(e.name for e in event.entrants if e.seed == order[0]) if finished else "",
        "won": None if pool is None else chips_won(event, pool[1]),
        "standings": rows, "order": order if finished else list(rows),
        "gone": out_in(event) if finished and settings.format == "knockout" else {},
        "table_link": table_link, "points_of": points_of, "round_title": round_title, "figure": figure,
    }


def live_section(
    event: StoredTournament, settings: Settings, player: str | None, made: set[str], pool: Pool = None,
) -> Markup:
    """The live part alone, as the page's script fetches it."""
    return fragment("tournament_live.html", **live_context(event, settings, player, made, pool))
