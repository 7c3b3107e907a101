"""The record shown in docs/records.md replays to the result the docs show."""

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[1] / "records" / "example.json"


def test_example_record_replays_as_documented() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "okgin.cli", "replay", str(EXAMPLE), "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert json.loads(out) == {
        "hands": [{
            "outcome": "knock", "knocker": 0, "winner": 0, "knock_limit": 6, "multiplier": 2,
            "deadwood": [4, 18], "layoffs": [[1, "4S"]], "points": [28, 0],
        }],
        "totals": [28, 0],
        "final": None,
    }


def test_example_record_text_report_shows_the_working() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "okgin.cli", "replay", str(EXAMPLE)],
        capture_output=True, text=True, check=True,
    ).stdout
    assert "knock by You; You score (18 − 4) × 2 = 28" in out
