"""A sim's ``--records`` folder: which run it holds, its records written whole, and the
matches of a stopped run read back so that ``--resume`` plays only the rest.

Every group of a run is seeded by the run's seed and its own number alone, so the groups of
a run stopped part way, read back, and the groups played after are the same matches as one
run from the start (docs/bots.md).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from okgin.errors import OkginError
from okgin.match import Match
from okgin.record import dumps, loads, match_to_record, replay
from okgin.rules import Rules

MANIFEST = "sim.json"
"""The file that says which run a folder's records are of."""


def manifest(levels: Sequence[str], rules: Rules, seed: int, budget: int | None) -> dict[str, Any]:
    """What makes a run's matches what they are (not their number: a resumed run may go on
    to more matches than the one it resumes)."""
    return {"players": list(levels), "rules": rules.to_json(), "seed": seed, "budget": budget}


def check_resumable(folder: Path, expected: dict[str, Any]) -> None:
    """Raise OkginError unless ``folder`` holds the records of the run ``expected`` describes."""
    path = folder / MANIFEST
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OkginError(f"cannot resume: {folder} has no {MANIFEST}, so it holds no okgin sim run") from None
    except (OSError, ValueError) as error:
        raise OkginError(f"cannot resume: {path} is unreadable ({error})") from None
    if not isinstance(found, dict):
        raise OkginError(f"cannot resume: {path} is not a run's description")
    differing = [key for key in expected if found.get(key) != expected[key]]
    if differing:
        key = differing[0]
        raise OkginError(f"cannot resume: {folder} holds another run ({key} {found.get(key)!r}, "
                         f"not {expected[key]!r})")


def claim(folder: Path, described: dict[str, Any]) -> None:
    """Say in ``folder`` which run its records are of."""
    write_whole(folder / MANIFEST, json.dumps(described))


def record_path(folder: Path, group: int, rotation: int) -> Path:
    return folder / f"match-{group:05d}-{rotation}.json"


def keep(folder: Path, group: int, rotation: int, match: Match, labels: Sequence[str]) -> None:
    """Write a finished match's record (whole or not at all: a run stopped while writing
    leaves no half a record for ``--resume`` to trip on)."""
    write_whole(record_path(folder, group, rotation), dumps(match_to_record(match, labels)))


def write_whole(path: Path, text: str) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)


def read_back(folder: Path, group: int, rotation: int, labels: Sequence[str], rules: Rules) -> Match | None:
    """The match of ``group`` and ``rotation`` from its record (None when there is none).
    Raises OkginError naming the file when it does not replay or is of other players."""
    path = record_path(folder, group, rotation)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        match, players = replay(loads(text))
    except OkginError as error:
        raise OkginError(f"cannot resume: {path}: {error}") from None
    if players != list(labels) or match.rules != rules or match.final is None:
        raise OkginError(f"cannot resume: {path} is not this run's finished match "
                         f"(players {players}, expected {list(labels)})")
    return match
