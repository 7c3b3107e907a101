"""Reproducible computer players: a seeded `okgin sim` prints the same report on a busy machine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from okgin.cli import main

SIM = [
    sys.executable, "-m", "okgin.cli", "sim", "hard", "normal", "--matches", "6", "--seed", "7",
    "--json", "--no-times", "--quiet",
]


def _sim() -> str:
    done = subprocess.run(SIM, capture_output=True, text=True, check=True, timeout=300)
    return done.stdout


@pytest.mark.slow
def test_a_seeded_sim_gives_the_same_json_on_a_busy_machine() -> None:
    quiet = _sim()
    # Two processes that only burn the CPU, so `hard`'s searches run with the cores taken.
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)
    ]
    try:
        busy = _sim()
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert '"hard"' in quiet and quiet == busy


def test_the_report_without_times_leaves_out_only_the_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["sim", "hard", "simple", "--matches", "2", "--seed", "3", "--json", "--quiet"]
    assert main(args) == 0
    timed = json.loads(capsys.readouterr().out)
    assert main([*args, "--no-times"]) == 0
    untimed = json.loads(capsys.readouterr().out)
    for entry in timed["entrants"]:
        for key in ("p50_ms", "p95_ms", "p99_ms"):
            del entry[key]
    assert timed == untimed
