"""Reports: a player reports another met at a table (their name, what they said, leaving games,
or something else), named by the game and seat they shared (players' ids are never shown to
players); the server's operator reads them with `okgin admin reports` (docs/moderation.md).
Calls block: run them in a thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine

from okgin.server.players.blocks import person_at
from okgin.server.store.db import storage_errors
from okgin.server.store.schema import player_reports, players

REASONS = {
    "name": "their name",
    "phrases": "what they said at the table",
    "abandonment": "leaving games",
    "other": "something else",
}
"""What a report may be for, and how the profile's form says it."""
MAX_TEXT = 300
"""The most characters a report's own words may have."""
DAILY = 10
"""The most reports a player may make in 24 hours (more would only bury the operator's list)."""


class ReportError(ValueError):
    """A report refused: the message says why; nothing was kept."""


@dataclass(frozen=True, slots=True)
class Report:
    """A report as the operator reads it."""

    id: int
    reported: str
    name: str | None
    reporter: str
    reason: str
    text: str
    game: str
    created: float
    handled: float | None


class Reports:
    """The reports kept in the game store's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def report(self, reporter: str, game: object, seat: object, reason: object, text: object) -> int:
        """``reporter`` reports whoever sat at ``seat`` of ``game`` (a game ``reporter`` sat in
        too) for ``reason``; returns the report's number. Raises ReportError (nothing kept)."""
        if reason not in REASONS:
            raise ReportError("say what the report is for: " + ", ".join(REASONS.values()))
        words = " ".join(text.split()) if isinstance(text, str) else ""
        if len(words) > MAX_TEXT:
            raise ReportError(f"say it in {MAX_TEXT} characters or fewer")
        now = time.time()
        with storage_errors("could not keep the report"), self.engine.begin() as db:
            try:
                other = person_at(db, reporter, game, seat, "report")
            except LookupError as error:
                raise ReportError(str(error)) from None
            made = db.execute(select(func.count()).select_from(player_reports).where(
                player_reports.c.reporter == reporter, player_reports.c.created > now - 86400)).scalar()
            if (made or 0) >= DAILY:
                raise ReportError(f"you have made {DAILY} reports today: the operator reads them all; "
                                  "report more tomorrow")
            made_id = db.execute(insert(player_reports).values(
                reporter=reporter, reported=other, game=str(game), seat=int(str(seat)), reason=reason,
                text=words, created=now)).inserted_primary_key
        return int(made_id[0]) if made_id else 0

    def listed(self, every: bool = False) -> list[Report]:
        """The reports not yet handled (``every``: all), oldest first, with the reported's name now."""
        query = (select(player_reports, players.c.name)
                 .outerjoin(players, players.c.id == player_reports.c.reported)
                 .order_by(player_reports.c.id))
        if not every:
            query = query.where(player_reports.c.handled.is_(None))
        with storage_errors("could not read the reports"), self.engine.connect() as db:
            return [Report(row.id, row.reported, row.name, row.reporter, row.reason, row.text, row.game,
                           row.created, row.handled) for row in db.execute(query)]
