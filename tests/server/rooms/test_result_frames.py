"""The result and the final tally as the page receives them: each term of a hand's sum named,
the spade double named, and what each final bonus is worth (for the page to work each row out)."""

from __future__ import annotations

from deals import DEFENDER_4, DEFENDER_18, GIN_10, KNOCKER_6, record, replay_match, win_hand

from okgin.rules import Rules
from okgin.server.rooms.frames import final_json, result_json


def test_an_undercut_on_a_spade_names_its_bonus_its_deadwood_and_the_double():
    match = replay_match(record([win_hand(1, 0, KNOCKER_6, DEFENDER_4, "6S", "KD")]))
    frame = result_json(match.hands[0].result)
    assert frame["working"] == [None, "(25 + 6 − 4) × 2 = 54"]
    assert frame["terms"] == [None, [
        {"name": "undercut bonus", "text": "25", "points": 25, "of": None, "against": None},
        {"name": "deadwood difference", "text": "6 − 4", "points": 2, "of": 0, "against": 1},
    ]]
    assert frame["multiplier_name"] == "spade double"


def test_a_hand_not_doubled_has_no_multiplier_name():
    match = replay_match(record([win_hand(1, 0, GIN_10, DEFENDER_18, "6H", "KD")]))
    frame = result_json(match.hands[0].result)
    assert frame["multiplier_name"] is None
    assert [term["name"] for term in frame["terms"][0]] == ["gin bonus", "deadwood"]


def test_the_final_tally_says_what_each_bonus_is_worth():
    rules = {"preset": "oklahoma-big-gin", "target": 50}
    match = replay_match(record([win_hand(1, 0, GIN_10, DEFENDER_18, "6S", "KD")], rules))
    assert match.final is not None
    frame = final_json(match.final, Rules.from_json(rules))
    assert frame["bonuses"] == {"hand": 25, "game": 100, "box": None, "shutout": "double-score"}
    assert frame["shutout"] is True
    assert frame["seats"][0]["shutout_bonus"] == 86 + 25 + 100
