"""The suite's order: longest files first, each file's tests together and in their own order."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from longest_first import DURATIONS, DurationsRecorder, known_seconds, longest_first

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Node:
    nodeid: str


def ids(nodes: list[Node]) -> list[str]:
    return [node.nodeid for node in nodes]


def test_longest_files_go_first_and_unknown_files_keep_their_order_after_them() -> None:
    items = [Node(i) for i in ("a.py::1", "a.py::2", "new.py::1", "b.py::1", "b.py::2", "old.py::x",
                               "c.py::1")]
    seconds = {"a.py": 3.0, "b.py": 40.0, "c.py": 0.0}
    assert ids(longest_first(items, seconds)) == [
        "b.py::1", "b.py::2", "a.py::1", "a.py::2", "c.py::1", "new.py::1", "old.py::x"]


def test_the_recorder_adds_each_files_phases(tmp_path: Path) -> None:
    recorder = DurationsRecorder()
    for nodeid, seconds in (("x.py::t", 1.25), ("x.py::t", 0.5), ("y.py::u[1]", 2.0)):
        recorder.add(pytest.TestReport(nodeid, ("x.py", 1, "t"), {}, "passed", None, "call", [],
                                       duration=seconds))
    recorder.write(tmp_path / "d.json")
    assert known_seconds(tmp_path / "d.json") == {"x.py": 1.8, "y.py": 2.0}


def test_every_file_the_durations_name_exists() -> None:
    assert all((ROOT / name).is_file() for name in known_seconds(DURATIONS)), "run --write-durations"
