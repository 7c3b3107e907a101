"""Reproducible computer players: a seeded `okgin sim` prints the same report on a busy machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from okgin.cli import main

SIM = [sys.executable, "-m", "okgin.cli", "sim", "--json", "--no-times", "--quiet"]
SEARCHERS = (["hard", "normal", "--matches", "2", "--seed", "7", "--budget", "40"],
             ["expert", "normal", "--matches", "2", "--seed", "8", "--budget", "40"])
"""The levels that search, each in a seeded sim of its own against `normal`, with a quarter of
`hard`'s guesses: what the test checks, that no clock enters a search's choices, holds whatever
the number of guesses (a sim of two searchers, or of all their guesses, costs more and checks
nothing more)."""


def _sim(cpu: int | None = None) -> str:
    outs = []
    for players in SEARCHERS:
        with subprocess.Popen([*SIM, *players], stdout=subprocess.PIPE, text=True) as sim:
            if cpu is not None:
                os.sched_setaffinity(sim.pid, {cpu})
            out, _ = sim.communicate(timeout=300)
        assert sim.returncode == 0
        outs.append(out)
    return "".join(outs)


@pytest.mark.slow
def test_a_seeded_sim_gives_the_same_json_on_a_busy_machine() -> None:
    quiet = _sim()
    # The busy sim and two processes that only burn the CPU share one core, so `hard`'s searches
    # run on a third of it (less under the rest of the suite), and the burners leave the other
    # cores to the other tests.
    cpu = min(os.sched_getaffinity(0))
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)
    ]
    for burner in burners:
        os.sched_setaffinity(burner.pid, {cpu})
    try:
        busy = _sim(cpu)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert '"hard"' in quiet and '"expert"' in quiet and quiet == busy


def test_the_report_without_times_leaves_out_only_the_times(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["sim", "hard", "simple", "--matches", "2", "--seed", "3", "--budget", "8", "--json", "--quiet"]
    assert main(args) == 0
    timed = json.loads(capsys.readouterr().out)
    assert main([*args, "--no-times"]) == 0
    untimed = json.loads(capsys.readouterr().out)
    for entry in timed["entrants"]:
        for key in ("p50_ms", "p95_ms", "p99_ms"):
            del entry[key]
    assert timed == untimed
