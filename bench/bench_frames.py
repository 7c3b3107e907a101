"""Frame times while a hand animates on a phone-sized page, from Chromium's performance trace.

A report, not a test: a real server, Debian's Chromium at 375×740, opponents at "normal" speed
with motion on. The trace's frame events (DrawFrame) are grouped into bursts of drawing (gaps
under 100 ms); the intervals inside bursts are the frame times while something moves.

    .venv/bin/python bench/bench_frames.py [--moves 12] [--runs 3]
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "browser"))

from browser_play import mouse_turn
from playwright.sync_api import Page, sync_playwright
from server_process import ServerProcess

CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline.frame"]
FRAME = 1000 / 60
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def frame_intervals(trace: bytes) -> list[float]:
    """Milliseconds between drawn frames, inside bursts of drawing (idle gaps left out)."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    times = sorted(e["ts"] / 1000 for e in events if e.get("name") == "DrawFrame")
    gaps = [b - a for a, b in itertools.pairwise(times)]
    return [gap for gap in gaps if gap < 100]


def main_thread_tasks(trace: bytes) -> list[float]:
    """Milliseconds of each task on the page's main thread (CrRendererMain): a long one is work
    that holds a frame back, whatever the compositor and the machine's other load do."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    mains = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
             and e["args"].get("name") == "CrRendererMain"}
    return [e["dur"] / 1000 for e in events
            if e.get("name") == "ThreadControllerImpl::RunTask" and e.get("ph") == "X"
            and (e.get("pid"), e.get("tid")) in mains]


def play(page: Page, moves: int) -> None:
    """A new game (the deal flies) and some moves by mouse, each opponent move flying too."""
    page.evaluate("Okgin.send({type: 'new', rules: Settings.currentRules(), opponents: ['normal']})")
    for _ in range(moves):
        turn = mouse_turn(page)
        if turn in ("hand-over", "over"):
            break


def measure(url: str, moves: int) -> tuple[list[float], list[float]]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        context = browser.new_context(viewport={"width": 375, "height": 740}, reduced_motion="no-preference",
                                      bypass_csp=True)  # evaluate() strings are eval()s
        context.add_init_script("localStorage.setItem('okgin.options', JSON.stringify("
                                "{speed: 'normal', levels: ['normal'], reduceMotion: false}))")
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#hand .card")
        browser.start_tracing(page=page, categories=CATEGORIES)
        play(page, moves)
        trace = browser.stop_tracing()
        browser.close()
    return frame_intervals(trace), main_thread_tasks(trace)


def task_report(tasks: list[float]) -> str:
    long = [t for t in tasks if t > FRAME]
    return (f"main-thread tasks over 16.7 ms {len(long)} ({sum(long):.0f} ms), "
            f"longest {max(tasks, default=0):.1f} ms")


def report(intervals: list[float]) -> str:
    ordered = sorted(intervals)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    over = sum(1 for i in intervals if i > FRAME) / len(intervals)
    late = sum(1 for i in intervals if i > FRAME + 1) / len(intervals)  # beyond the clock's jitter
    missed = sum(1 for i in intervals if i > 1.5 * FRAME) / len(intervals)
    return (f"frames {len(intervals)}  median {statistics.median(intervals):.1f} ms  p95 {p95:.1f} ms  "
            f"over 16.7 ms {100 * over:.1f}%  over 17.7 ms {100 * late:.1f}%  "
            f"over 25 ms (a missed frame) {100 * missed:.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=12, help="the player's moves per run")
    parser.add_argument("--runs", type=int, default=3, help="games to trace")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "frames.db").start()
        try:
            everything: list[float] = []
            all_tasks: list[float] = []
            for run in range(args.runs):
                intervals, tasks = measure(server.url, args.moves)
                print(f"run {run + 1}: {report(intervals)}\n       {task_report(tasks)}")
                everything += intervals
                all_tasks += tasks
            print(f"all runs: {report(everything)}\n       {task_report(all_tasks)}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
