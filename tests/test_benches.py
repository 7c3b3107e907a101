"""Every benchmark under bench/ still starts: the commands docs/performance.md and docs/bots.md
give are run by hand, rarely, so a moved helper would otherwise break them unseen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
COMMANDS = sorted(path for path in BENCH.glob("*.py") if "argparse" in path.read_text(encoding="utf-8"))


def test_every_benchmark_imports_its_helpers_and_answers_help() -> None:
    assert len(COMMANDS) >= 10
    started = {path.name: subprocess.Popen([sys.executable, str(path), "--help"], stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, text=True) for path in COMMANDS}
    failed = {}
    for name, process in started.items():
        out, err = process.communicate(timeout=120)
        if process.returncode != 0 or "usage:" not in out:
            failed[name] = err.strip().splitlines()[-1:] or out[:200]
    assert not failed, failed
