"""The terminal game's words: who deals, said as a sentence ("Ruby deals", "You deal")."""

from __future__ import annotations

import re

from okgin.terminal import play_in_terminal


def test_the_dealer_is_named_with_the_right_verb() -> None:
    for seed in range(6):
        lines: list[str] = []
        assert play_in_terminal("oklahoma", "easy", seed, read=lambda _: "quit", write=lines.append) == 130
        dealt = next(line for line in lines if "The upcard is" in line)
        assert re.match(r"^\n(You deal|Ruby deals)\. The upcard is", dealt), dealt
