"""The coach's line: in one server process, its dear answers are worked out one at a time.

A hand's review costs a quarter of a second of CPU at the median and up to a second; a position
on the analysis board or a puzzle a tenth of a second or more; a long record's replay seconds.
Each holds the interpreter lock while it works. Sixteen of them in worker threads at once left
the event loop a sliver of the lock, and every game on the server waited for its moves'
acknowledgements (a review flood took another player's p99 from 7 ms to 1.5 s:
docs/performance.md). Threads cannot work in parallel under that lock anyway, so one at a time
costs no throughput: the loop shares the lock with one busy thread, not sixteen. (Hints and
advice, tens of milliseconds each, are not in the line: fifty people may ask at once.)

Work waits for its turn in its worker thread (a wait that holds no lock, but one of the worker
threads the server shares). Past ``WAITING`` questions in line, another is refused as busy, with
nothing worked out and nothing changed (a page asks again a second later, as when it is
rate-limited).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread

from okgin.server.refusals import Code, WireError

T = TypeVar("T")

WAITING = 12
"""Questions that may wait for the coach while it works on another (each holds one of the 40
worker threads that every request's store work shares)."""


class CoachBusy(WireError):
    """The coach's line is full: nothing was worked out; ask again in a moment."""

    def __init__(self) -> None:
        super().__init__("the coach is busy with other players' questions: ask again in a moment",
                         Code.RATE_LIMITED)


class CoachLine:
    """One answer at a time (``run``, from a worker thread), at most ``waiting`` more in line."""

    def __init__(self, waiting: int = WAITING) -> None:
        self.waiting = waiting
        self._turn = threading.Lock()
        self._counting = threading.Lock()
        self._asked = 0  # working and waiting

    def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` once the coach is free. Raises CoachBusy (running nothing) when
        ``waiting`` questions already wait."""
        with self._counting:
            if self._asked > self.waiting:
                raise CoachBusy()
            self._asked += 1
        try:
            with self._turn:
                return work(*args)
        finally:
            with self._counting:
                self._asked -= 1

    async def answer(self, work: Callable[..., T], *args: Any) -> T:
        """From the event loop: ``run`` in a worker thread, awaited."""
        return await anyio.to_thread.run_sync(self.run, work, *args)

    @property
    def asked(self) -> int:
        """Questions being worked on or waiting (the metrics' gauge)."""
        return self._asked
