"""Making and checking puzzles: the themes' rules on positions worked by hand, the making
reproducible from its seed (and a shorter run the start of a longer one), the check refusing the
making salts and naming a puzzle whose answer does not hold."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from okgin.advice.worlds import Worlds
from okgin.cli import main
from okgin.puzzles.check import check_puzzle
from okgin.puzzles.make import make
from okgin.puzzles.price import MAKE_SALTS
from okgin.puzzles.puzzle import dump, shipped, view_of
from okgin.puzzles.themes import one_from_gin, themes_of

BOARD = {"rules": "oklahoma", "players": "", "target": "", "seat": "0", "dealer": "1", "upcard": "9S",
         "scores": ""}


def _view(hand: str, moves: str, **more: str):  # type: ignore[no-untyped-def]
    return view_of({**BOARD, "hand": hand, "moves": moves, **more})


def test_the_offer_and_take_or_draw_are_the_draws_themes() -> None:
    offer = _view("2C 3C 4C 7D 8D 9D KH KS QC 5H", "")
    assert themes_of(offer, offer.legal[0], Worlds(offer, guesses=4)) == ("the offer",)
    draw = _view("2C 3C 4C 7D 8D 9D KH KS QC 6S",
                 "0 pass\n1 pass\n0 draw\n0 discard 5H\n1 draw\n1 discard 2D")
    assert themes_of(draw, draw.legal[0], Worlds(draw, guesses=4)) == ("take or draw",)


def test_a_knock_short_of_gin_is_knock_or_play_on_and_gin_or_knock_when_one_card_from_gin() -> None:
    # Eleven cards after drawing: 2-3-4♣, 7-8-9♦, J-Q-K♠ and 5♥ 6♥: discarding the 6♥ knocks with
    # 5 (the limit is 9), and discarding either heart leaves ten cards that the other's
    # neighbour (4♥, 7♥ or the other heart's pair) would make gin.
    view = _view("2C 3C 4C 7D 8D 9D JS QS KS 5H 6H", "0 pass\n1 pass\n0 draw")
    found = themes_of(view, view.legal[0], Worlds(view, guesses=16))
    assert found[:2] == ("knock or play on", "gin or knock")
    assert one_from_gin(view)


def test_a_plain_discard_is_the_discard() -> None:
    view = _view("2C 5C 9C 3D 7D JD 4H 8H QH 6S KS", "0 pass\n1 pass\n0 draw")
    answer = next(m for m in view.legal if str(m) == "0 discard KS")
    themes = themes_of(view, answer, Worlds(view, guesses=16))
    assert themes in (("the discard",), ("feeding the next seat",))
    assert not one_from_gin(view)


def test_the_check_refuses_the_salts_puzzles_are_made_on() -> None:
    for salt in MAKE_SALTS:
        with pytest.raises(ValueError, match="was used when making"):
            check_puzzle(shipped()[0], salt)


@pytest.mark.slow
def test_making_is_reproducible_and_a_shorter_run_is_the_start_of_a_longer() -> None:
    """Two runs from one seed: the shorter's puzzle is the longer's first, as made again."""
    two = make(7, 2)
    assert len(two) == 2 and two[0].to_json() != two[1].to_json()
    assert [p.to_json() for p in make(7, 1)] == [two[0].to_json()]


@pytest.mark.slow
def test_the_check_command_names_a_puzzle_whose_answer_does_not_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    good = next(p for p in shipped() if len(p.values) == 2)  # a draw: two moves, quick to price
    wrong = replace(good, id="deadbeef", answer=good.values[1][0])
    path = tmp_path / "set.json"
    path.write_text(dump([good], {"seed": 0}), encoding="utf-8")
    assert main(["puzzles", "check", "--file", str(path), "--quiet"]) == 0
    assert "1 of 1 puzzles hold at salt 404" in capsys.readouterr().out
    path.write_text(dump([good, wrong], {"seed": 0}), encoding="utf-8")
    assert main(["puzzles", "check", "--file", str(path), "--quiet", "--salt", "405"]) == 1
    out = capsys.readouterr().out
    assert "deadbeef does not hold" in out and "1 of 2 puzzles hold at salt 405" in out
    assert json.loads(path.read_text(encoding="utf-8"))["made_by"] == {"seed": 0}
    assert main(["puzzles", "check", "--file", str(path), "--salt", "101"]) == 2
