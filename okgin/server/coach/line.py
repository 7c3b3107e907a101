"""The coach's line: its dear answers are worked out in a process of their own, one at a time.

A hand's review costs a quarter of a second of CPU at the median and up to a second; a position
on the analysis board or a puzzle a tenth of a second or more; a long record's replay seconds.
Worked out in the server's own process each held the interpreter lock that the event loop needs
for every game's moves: a flood of reviews from 60 guests of one address took another player's
p99 from 8 ms to 977 ms (docs/performance.md). In a process of their own they take the lock of
that process only, and one at a time they take one core at most, leaving the server's the other.
A finished game's statistics (a review of each of its hands) take their turn too, never refused
(``run_background``). (Hints and advice, tens of milliseconds each, stay in the server's threads:
fifty people may ask at once.)

The process is spawned on the first question (as the thinking processes are) and let go after
``IDLE`` seconds without one (some 100 MB a server process; the next question spawns it again).
A question waits for its turn in that process's queue; past ``WAITING`` questions in line,
another is refused as busy, with nothing worked out and nothing changed (a page asks again a
second later, as when it is rate-limited). Each question names who asks (a player, an address
without a session, a seat at a table): one asker holds at most ``EACH`` places, so a flooder is
refused past its share and cannot keep the others out. The work is a module-level function of
its arguments alone (pickled there).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any, TypeVar

from okgin.server.refusals import Code, WireError
from okgin.server.rooms.thinking import SpawnedPool

T = TypeVar("T")

WAITING = 12
"""Questions that may wait for the coach while it works on another."""
IDLE = 600.0
"""Seconds with the line empty after which the coach's process is let go."""
EACH = 3
"""Questions one asker may have in the line (working and waiting): a person waits for one
answer at a time, a second tab or a page asking again makes two or three."""


class CoachBusy(WireError):
    """The coach's line is full (``status`` 503), or holds the asker's share (429): nothing was
    worked out; ask again in a moment."""

    def __init__(self, reason: str = "the coach is busy with other players' questions",
                 status: int = 503) -> None:
        super().__init__(f"{reason}: ask again in a moment", Code.RATE_LIMITED)
        self.status = status


class CoachLine:
    """One answer at a time in the coach's process, at most ``waiting`` more in line and at
    most ``each`` of one asker's."""

    def __init__(self, waiting: int = WAITING, each: int = EACH, idle: float = IDLE) -> None:
        self.waiting = waiting
        self.each = each
        self.idle = idle
        self._process = SpawnedPool(1)
        self._counting = threading.Lock()
        self._asked = 0  # working and waiting
        self._by: dict[str, int] = {}  # the same, by asker (none kept at 0)
        self._idle_timer: threading.Timer | None = None

    def run(self, asker: str, work: Callable[..., T], *args: Any) -> T:
        """From a worker thread: ``work(*args)`` in the coach's process, waited for. Raises
        CoachBusy (sending nothing) when ``waiting`` questions already wait or ``asker``
        already has ``each`` in the line."""
        with self._place(asker):
            return self._submit(work, *args).result()

    def run_background(self, work: Callable[..., T], *args: Any) -> T:
        """``run`` for work nobody waits for and that must not be lost (a finished game's
        statistics): it takes its turn however long the line, never refused."""
        with self._place(None):
            return self._submit(work, *args).result()

    async def answer(self, asker: str, work: Callable[..., T], *args: Any) -> T:
        """From the event loop: ``run``'s answer, awaited (no thread waits for it)."""
        with self._place(asker):
            return await asyncio.wrap_future(self._submit(work, *args))

    def _submit(self, work: Callable[..., T], *args: Any) -> Future[T]:
        return self._process.get().submit(work, *args)

    @contextlib.contextmanager
    def _place(self, asker: str | None) -> Iterator[None]:
        """A place in the line for one question of ``asker`` (None: never refused), given back
        when it is answered or fails."""
        with self._counting:
            if asker is not None:
                if self._by.get(asker, 0) >= self.each:
                    raise CoachBusy(f"you have {self.each} questions waiting for the coach already", 429)
                if self._asked > self.waiting:
                    raise CoachBusy()
                self._by[asker] = self._by.get(asker, 0) + 1
            self._asked += 1
        try:
            yield
        finally:
            with self._counting:
                self._asked -= 1
                if asker is not None:
                    self._by[asker] -= 1
                    if not self._by[asker]:
                        del self._by[asker]
                if not self._asked:
                    self._let_go_later()

    def _let_go_later(self) -> None:
        """(Holding ``_counting``, the line empty.) Let the process go ``idle`` seconds from now
        unless a question comes first."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        self._idle_timer = threading.Timer(self.idle, self._let_go)
        self._idle_timer.daemon = True
        self._idle_timer.start()

    def _let_go(self) -> None:
        """The process is closed only while the line is empty: a question counts itself in the
        line before it asks for the process, under the same lock."""
        with self._counting:
            if not self._asked:
                self._process.close()

    @property
    def running(self) -> bool:
        """Whether the coach's process is there (spawned and not let go)."""
        return self._process.made

    @property
    def asked(self) -> int:
        """Questions being worked on or waiting."""
        return self._asked

    def close(self) -> None:
        with self._counting:
            if self._idle_timer is not None:
                self._idle_timer.cancel()
        self._process.close()
