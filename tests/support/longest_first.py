"""The suite's files in the order that ends a parallel run soonest: the longest first.

`make test` hands whole files to its workers (`--dist loadfile`). Left to itself, xdist hands out
the files with the most tests first, so a file of a few long tests (the 400 seekers, the busy
sim, the three friends' game) was handed out last and ran on one worker while the others had
nothing left to do. tests/durations.json holds each file's seconds in a full run; the files are
ordered by it, longest first (files it does not name go last, in collection order), and
`make test` asks xdist to keep that order (`--no-loadscope-reorder`).

`pytest --write-durations tests/durations.json` writes the file again from the run it ends.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Protocol, TypeVar

import pytest

DURATIONS = Path(__file__).resolve().parents[1] / "durations.json"


class HasNodeId(Protocol):
    @property
    def nodeid(self) -> str: ...


T = TypeVar("T", bound=HasNodeId)


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def known_seconds(path: Path = DURATIONS) -> dict[str, float]:
    return json.loads(path.read_text()) if path.exists() else {}


def longest_first(items: list[T], seconds: dict[str, float]) -> list[T]:
    """The items with each file's tests kept together and in their own order, the files ordered
    by their known seconds, longest first; a file of unknown length keeps its place after them."""
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(file_of(item.nodeid), len(first_seen))
    return sorted(items, key=lambda item: (-seconds.get(file_of(item.nodeid), -1.0),
                                           first_seen[file_of(item.nodeid)]))


class DurationsRecorder:
    """Adds up each file's seconds (setup, call and teardown) from the reports of a run."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def add(self, report: pytest.TestReport) -> None:
        self.seconds[file_of(report.nodeid)] += report.duration

    def write(self, path: Path) -> None:
        rounded = {name: round(total, 1) for name, total in sorted(self.seconds.items())}
        path.write_text(json.dumps(rounded, indent=1) + "\n")
