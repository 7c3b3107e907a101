"""The coach's line: one answer worked out at a time in a process, and past the line's length a
question is refused as busy without being worked out."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from okgin.server.coach.line import CoachBusy, CoachLine
from okgin.server.refusals import Code


def _until(test: Callable[[], bool]) -> None:
    give_up = time.monotonic() + 10
    while not test():
        assert time.monotonic() < give_up, "the line never got there"
        time.sleep(0.001)


class Work:
    """Answers that each hold the coach until released, counting how many work at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.working = 0
        self.most = 0
        self.done: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, name: str) -> str:
        with self._lock:
            self.working += 1
            self.most = max(self.most, self.working)
        self.release.wait(10)
        with self._lock:
            self.working -= 1
            self.done.append(name)
        return name


def test_answers_are_worked_out_one_at_a_time_and_each_in_turn_is_answered() -> None:
    line, work = CoachLine(waiting=8), Work()
    answers: dict[str, str] = {}
    threads = [threading.Thread(target=lambda n=name: answers.__setitem__(n, line.run(work, n)))
               for name in "abcd"]
    for thread in threads:
        thread.start()
    _until(lambda: line.asked == 4 and work.working == 1)  # one works, three wait
    work.release.set()
    for thread in threads:
        thread.join(10)
    assert answers == {name: name for name in "abcd"} and sorted(work.done) == list("abcd")
    assert work.most == 1 and line.asked == 0


def test_past_the_lines_length_a_question_is_refused_as_busy_and_not_worked_out() -> None:
    line, work = CoachLine(waiting=1), Work()
    threads = [threading.Thread(target=line.run, args=(work, name)) for name in "ab"]
    for thread in threads:
        thread.start()
    _until(lambda: line.asked == 2)  # one working, one waiting: the line is full
    with pytest.raises(CoachBusy) as refused:
        line.run(work, "c")
    assert refused.value.code == Code.RATE_LIMITED and "the coach is busy" in str(refused.value)
    work.release.set()
    for thread in threads:
        thread.join(10)
    assert sorted(work.done) == ["a", "b"] and line.asked == 0
    assert line.run(str.upper, "free again") == "FREE AGAIN"


def test_an_answer_that_fails_gives_the_coach_back() -> None:
    line = CoachLine(waiting=0)
    with pytest.raises(ZeroDivisionError):
        line.run(lambda: 1 // 0)
    assert line.asked == 0 and line.run(len, "abc") == 3
