"""The server's clock, which says what day the daily deal is on: the real UTC time, or (for
tests, only with `okgin serve --allow-seeds`, as seeds are) the time written in a file, so a test
can move a real server to the next day by writing the file, with nothing of the server replaced."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path


class ClockError(Exception):
    """The clock file could not be read as a time: the message says why."""


class Clock:
    """UTC now: the real time, or the time in ``path`` (an ISO 8601 time, UTC if it names no zone,
    read at each call so a test may change it while the server runs)."""

    def __init__(self, path: str | None = None) -> None:
        self.path = Path(path) if path else None

    def now(self) -> datetime:
        if self.path is None:
            return datetime.now(UTC)
        try:
            text = self.path.read_text(encoding="utf-8").strip()
            moment = datetime.fromisoformat(text)
        except (OSError, ValueError) as error:
            raise ClockError(f"the clock file {self.path} holds no ISO time: {error}") from None
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

    def today(self) -> date:
        """The UTC date now."""
        return self.now().date()
