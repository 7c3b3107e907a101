"""The coach's line: its answers are worked out in a process of its own, one at a time, and past
the line's length a question is refused as busy without being sent."""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from scripted_client import run
from test_coach_server import finished_record

from okgin.server.coach import statistics
from okgin.server.coach.line import CoachBusy, CoachLine
from okgin.server.coach.statistics import HandRow, rows_of
from okgin.server.refusals import Code
from okgin.server.store.storage import Store


def _until(test: Callable[[], bool]) -> None:
    give_up = time.monotonic() + 30
    while not test():
        assert time.monotonic() < give_up, "the line never got there"
        time.sleep(0.005)


def held_until(released: str, name: str) -> str:
    """In the coach's process: an answer that takes until the file ``released`` exists."""
    while not os.path.exists(released):
        time.sleep(0.005)
    return name


def where() -> int:
    return os.getpid()


@pytest.fixture
def line() -> Iterator[CoachLine]:
    made = CoachLine(waiting=2)
    yield made
    made.close()


def test_answers_are_worked_out_in_a_process_of_their_own(line: CoachLine) -> None:
    assert line.run("ann", where) != os.getpid()
    assert run(line.answer("ann", str.upper, "from the loop")) == "FROM THE LOOP"
    assert line.asked == 0


def test_past_the_lines_length_a_question_is_refused_as_busy_and_not_sent(
    line: CoachLine, tmp_path: Path,
) -> None:
    released = str(tmp_path / "released")
    answers: list[str] = []
    threads = [threading.Thread(target=lambda n=name: answers.append(line.run(n, held_until, released, n)))
               for name in "abc"]
    for thread in threads:
        thread.start()
    _until(lambda: line.asked == 3)  # one working, two waiting: the line is full
    with pytest.raises(CoachBusy) as refused:
        line.run("d", held_until, released, "d")
    assert refused.value.code == Code.RATE_LIMITED and "the coach is busy" in str(refused.value)
    Path(released).touch()
    for thread in threads:
        thread.join(30)
    assert sorted(answers) == ["a", "b", "c"] and line.asked == 0  # "d" was never worked out
    assert line.run("d", str.upper, "free again") == "FREE AGAIN"


def test_one_asker_holds_at_most_its_share_of_the_line_and_the_others_still_get_in(tmp_path: Path) -> None:
    """A flooder who keeps asking is refused past its share (one working, two waiting), with a
    sentence that says so; another player's question still gets a place, where before the
    flooder's twelve filled the line and everyone was refused as busy."""
    line = CoachLine()
    released = str(tmp_path / "released")
    answers: list[str] = []
    try:
        def ask(asker: str, name: str) -> None:
            answers.append(line.run(asker, held_until, released, name))

        threads = [threading.Thread(target=ask, args=("flooder", name)) for name in "abc"]
        for thread in threads:
            thread.start()
        _until(lambda: line.asked == 3)
        for _ in range(20):
            with pytest.raises(CoachBusy) as refused:
                line.run("flooder", held_until, released, "d")
            assert refused.value.code == Code.RATE_LIMITED
            assert str(refused.value).startswith("you have 3 questions waiting for the coach")
        other = threading.Thread(target=ask, args=("another player", "e"))
        other.start()
        _until(lambda: line.asked == 4)  # in line behind the flooder's, not refused
        Path(released).touch()
        for thread in [*threads, other]:
            thread.join(30)
        assert sorted(answers) == ["a", "b", "c", "e"] and line.asked == 0
        assert line.run("flooder", str.upper, "once answered, again") == "ONCE ANSWERED, AGAIN"
    finally:
        line.close()


def test_the_process_is_let_go_once_the_line_is_idle_and_spawned_again_for_the_next_question(
    tmp_path: Path,
) -> None:
    """Some 100 MB a server process are given back when nobody asks the coach; a question longer
    than the idle time keeps its process, and the next question after the let-go is answered by
    a new one."""
    line = CoachLine(idle=0.2)
    released = str(tmp_path / "released")
    try:
        first = line.run("ann", where)
        _until(lambda: not line.running)
        held = threading.Thread(target=line.run, args=("ann", held_until, released, "slow"))
        held.start()
        _until(lambda: line.running and line.asked == 1)
        time.sleep(0.6)  # three idle times, the question still working
        assert line.running and line.asked == 1
        Path(released).touch()
        held.join(30)
        second = line.run("bob", where)
        assert second not in (first, os.getpid())
        _until(lambda: not line.running)
    finally:
        line.close()


def test_an_answer_that_fails_gives_its_place_back(line: CoachLine) -> None:
    with pytest.raises(ZeroDivisionError):
        line.run("ann", divmod, 1, 0)
    assert line.asked == 0 and line.run("ann", len, "abc") == 3


def test_a_finished_games_statistics_wait_their_turn_however_long_the_line(
    line: CoachLine, tmp_path: Path,
) -> None:
    """Statistics nobody waits for are never refused (they would be lost): with the line full,
    they wait; the rows written are those worked out without the line."""
    released = str(tmp_path / "released")
    held = [threading.Thread(target=line.run, args=(name, held_until, released, name)) for name in "abc"]
    for thread in held:
        thread.start()
    _until(lambda: line.asked == 3)  # full: a question now would be refused
    store = Store(f"sqlite:///{tmp_path / 'stats.db'}")
    record = finished_record(1)
    writing = threading.Thread(target=statistics.record_finished, args=(store.engine, "g", record, line))
    writing.start()
    _until(lambda: line.asked == 4)  # in line, not refused
    Path(released).touch()
    writing.join(60)
    for thread in held:
        thread.join(30)
    written = statistics.read(store.engine)
    store.close()
    assert written and _timeless(written) == _timeless(rows_of("g", record))


def _timeless(rows: list[HandRow]) -> list[HandRow]:
    return [dataclasses.replace(row, finished=0.0) for row in rows]
