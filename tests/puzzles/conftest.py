"""The ``puzzles`` marker: the check of every shipped puzzle on fresh guesses (about 0.8 s of
CPU a puzzle) runs only when asked for by marker (``make check-puzzles``: ``-m puzzles``); any
other run leaves it out, as ``make test`` must."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "puzzles" in (config.option.markexpr or ""):
        return
    left = [item for item in items if item.get_closest_marker("puzzles") is not None]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item.get_closest_marker("puzzles") is None]
