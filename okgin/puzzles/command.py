"""``okgin puzzles make`` and ``okgin puzzles check``: the starting set made from a seed, and
every shipped puzzle priced again on fresh guesses (docs/puzzles.md)."""

from __future__ import annotations

import sys
import time
from importlib import resources
from pathlib import Path

from okgin.puzzles.check import Checked, check_all, sample
from okgin.puzzles.make import make
from okgin.puzzles.price import (
    CHECK_SALT,
    GUESSES,
    MAKE_SALTS,
    MARGIN,
    MIDDLE_GUESSES,
    MIDDLE_MARGIN,
    QUICK_GUESSES,
    QUICK_MARGIN,
)
from okgin.puzzles.puzzle import SHIPPED, Puzzle, dump, load, shipped

SAVE_EVERY = 10
"""The set is written after every ``SAVE_EVERY`` puzzles, so a long run stopped keeps its work."""


def make_command(seed: int, count: int, out: str | None, quiet: bool = False) -> int:
    """Mine ``count`` puzzles from seed ``seed`` and write them to ``out`` (default: the
    shipped set's file in this okgin's source)."""
    path = Path(out) if out else Path(str(resources.files("okgin.puzzles").joinpath("data", SHIPPED)))
    started, cpu = time.monotonic(), time.process_time()

    def report(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr, flush=True)

    def write(puzzles: list[Puzzle]) -> None:
        """The set so far, written whole (a file of the first ``n`` is the run of ``--count n``)."""
        if len(puzzles) % SAVE_EVERY and len(puzzles) != count:
            return
        made_by = {"command": f"okgin puzzles make --seed {seed} --count {len(puzzles)}", "seed": seed,
                   "count": len(puzzles), "guesses": GUESSES, "margin": MARGIN, "salts": list(MAKE_SALTS),
                   "quick": [[QUICK_GUESSES, QUICK_MARGIN], [MIDDLE_GUESSES, MIDDLE_MARGIN]],
                   "seconds": round(time.monotonic() - started),
                   "cpu_seconds": round(time.process_time() - cpu)}
        partial = path.with_suffix(".part")
        partial.write_text(dump(puzzles, made_by), encoding="utf-8")
        partial.replace(path)

    puzzles = make(seed, count, report, write)
    write(puzzles)
    print(f"okgin puzzles make: {len(puzzles)} puzzles in {path} "
          f"({time.monotonic() - started:.0f} s, {time.process_time() - cpu:.0f} s CPU)")
    return 0


def check_command(salt: int = CHECK_SALT, path: str | None = None, count: int | None = None,
                  quiet: bool = False) -> int:
    """Price every puzzle of ``path`` (default: the shipped set), or a sample of ``count``,
    on guesses of ``salt``: 0 when all hold, 1 naming those that do not."""
    try:
        puzzles = load(Path(path).read_text(encoding="utf-8")) if path else list(shipped())
        if count is not None:
            puzzles = sample(puzzles, count, salt)
        started = time.monotonic()

        def report(checked: Checked) -> None:
            if not quiet:
                print(checked, file=sys.stderr, flush=True)

        failed = check_all(puzzles, salt, report)
    except (OSError, ValueError) as error:
        print(f"okgin puzzles check: {error}", file=sys.stderr)
        return 2
    for checked in failed:
        print(checked)
    print(f"okgin puzzles check: {len(puzzles) - len(failed)} of {len(puzzles)} puzzles hold at salt {salt} "
          f"({time.monotonic() - started:.0f} s)")
    return 1 if failed else 0
