"""How to play, written from the rules: the knocking paragraph agrees with its subject."""

from __future__ import annotations

from okgin.rules import preset
from okgin.server.pages.howto import how_to_play


def knocking(rules_name: str, players: int) -> str:
    rules = preset(rules_name).replace(players=players)
    return dict(how_to_play(rules))["Knocking"]


def test_one_opponent_lays_off_and_several_lay_off() -> None:
    assert "Your opponent then lays off any cards they can" in knocking("oklahoma", 2)
    assert "The other players then lay off any cards they can" in knocking("oklahoma-multiplayer", 3)


def test_the_keyboard_paragraph_names_every_key() -> None:
    keys = dict(how_to_play(preset("oklahoma")))["Keyboard"]
    for words in ("K knock", "G gin", "Escape puts it back", "? all the keys"):
        assert words in keys
