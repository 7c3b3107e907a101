"""Game records: replay end to end, write and read back, and errors that name the place."""

from __future__ import annotations

import copy
import random

import pytest
from deals import DEFENDER_14, KNOCKER_6, deal, hand_entry, record, replay_match, replayed, win_hand

from okgin.bots.random_player import RandomPlayer
from okgin.errors import RecordError
from okgin.match import Match
from okgin.record import FORMAT, deal_from_json, deal_to_json, dumps, loads, match_to_record, replay, report
from okgin.rules import PRESETS
from okgin.runner import play_hand

KNOCK = win_hand(1, 0, KNOCKER_6, DEFENDER_14, "6S", "KD")


def test_report_of_a_replayed_knock():
    assert replayed(record([KNOCK])) == {
        "hands": [{
            "outcome": "knock", "knocker": 0, "winner": 0, "knock_limit": 6, "multiplier": 2,
            "deadwood": [6, 14], "layoffs": [], "points": [16, 0],
        }],
        "totals": [16, 0],
        "final": None,
    }


def test_a_hand_in_progress_is_reported_as_such():
    unfinished = copy.deepcopy(KNOCK)
    unfinished["actions"] = unfinished["actions"][:3]
    report_ = replayed(record([unfinished]))
    assert report_["hands"][0]["outcome"] is None
    assert report_["hands"][0]["knock_limit"] == 6
    assert report_["totals"] == [0, 0]


def test_rules_in_object_form():
    rec = record([KNOCK], {"preset": "oklahoma", "spade_double": False})
    assert replayed(rec)["hands"][0]["points"] == [8, 0]


def test_deal_json_round_trip():
    the_deal = deal([KNOCKER_6, DEFENDER_14], "6S")
    assert deal_from_json(deal_to_json(the_deal)) == the_deal
    data = deal_to_json(the_deal)
    data["upcard"] = "6♠"
    assert deal_from_json(data) == the_deal


def random_match(name: str, seed: int) -> Match:
    rules = PRESETS[name]
    rng = random.Random(seed)
    match = Match(rules, first_dealer=seed % rules.players)
    players = [RandomPlayer(random.Random(seed + s)) for s in range(rules.players)]
    for _ in range(3):
        hand = match.deal_next(rng)
        play_hand(hand, players, rng, match.totals, match)
        if match.over:
            break
    return match


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_played_match_writes_a_record_that_replays_to_the_same_result(name):
    match = random_match(name, 11)
    names = [f"p{s}" for s in range(match.rules.players)]
    rec = match_to_record(match, names)
    again, players = replay(loads(dumps(rec)))
    assert players == names
    assert report(again) == report(match)
    assert [h.actions for h in again.hands] == [h.actions for h in match.hands]


def test_reshuffles_are_recorded_with_their_order_and_replay():
    for seed in range(40):
        match = random_match("oklahoma-reshuffle", seed)
        text = dumps(match_to_record(match, ["a", "b"]))
        if '"reshuffle ' in text:
            break
    else:
        pytest.fail("no reshuffle in 40 random matches")
    assert report(replay(loads(text))[0]) == report(match)


def test_dumps_writes_readable_json():
    text = dumps(record([KNOCK]))
    assert '"format": "okgin/1"' in text
    assert "♠" not in text and "\n" in text
    assert loads(text)["format"] == FORMAT


def broken(**changes) -> dict:
    rec = record([copy.deepcopy(KNOCK)])
    for key, value in changes.items():
        rec[key] = value
    return rec


@pytest.mark.parametrize(
    ("rec", "message"),
    [
        (broken(format="okgin/2"), "^format must be 'okgin/1', not 'okgin/2'$"),
        (broken(rules="poker"), "^rules: no preset 'poker'"),
        (broken(rules={"players": 9}), "^rules: rule players is 9, expected 2 to 4$"),
        (broken(players=["Ann"]), "^players must be a list of 2 names$"),
        (broken(players=["Ann", 2]), "^players must be a list of 2 names$"),
        (broken(hands={}), "^hands must be a list$"),
        (broken(hands=[3]), "^hand 1: must be an object$"),
        (broken(hands=[{"dealer": "1"}]), "^hand 1: dealer must be a seat number$"),
        (broken(hands=[{"dealer": True}]), "^hand 1: dealer must be a seat number$"),
        (
            broken(hands=[{"dealer": 2, "deal": KNOCK["deal"], "actions": []}]),
            "^hand 1: dealer 2 is not a seat",
        ),
        (broken(hands=[{"dealer": 0}]), "^hand 1: deal must be an object with hands, upcard and stock$"),
        (broken(hands=[{"dealer": 0, "deal": KNOCK["deal"]}]), "^hand 1: actions must be a list$"),
    ],
)
def test_record_errors_name_the_place(rec, message):
    with pytest.raises(RecordError, match=message):
        replay(rec)


def with_actions(actions: list) -> dict:
    entry = copy.deepcopy(KNOCK)
    entry["actions"] = actions
    return record([entry])


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (["0 pass", "1 pass", "0 take"],
         "^hand 1, action 3 '0 take': 0 take: everyone passed the upcard, so seat 0 draws from the stock$"),
        (["1 pass"], "^hand 1, action 1 '1 pass': 1 pass: it is seat 0's turn to take or pass the upcard$"),
        (["0 take", "0 discard 6S"],
         "^hand 1, action 2 '0 discard 6S': cannot discard 6S: it was just taken from the discard pile$"),
        (["0 pass", "1 pass", "0 draw", "0 discard AS"],
         "^hand 1, action 4 '0 discard AS': cannot discard AS: it is not in the hand$"),
        (["0 pass", "1 pass", "0 draw", "0 knock 6C"],
         "^hand 1, action 4 '0 knock 6C': cannot knock: 10 deadwood, the limit is 6$"),
        (["0 pass", "1 pass", "0 draw", "0 knock KD 2C-3C-5C"],
         "^hand 1, action 4 '0 knock KD 2C-3C-5C': cannot knock: 2C-3C-5C is not a set or a run$"),
        (["0 pass", "0 fly"], "^hand 1, action 2 '0 fly': '0 fly': unknown verb 'fly'"),
        (["0 pass", "1 discard 1S"], "^hand 1, action 2 '1 discard 1S': '1S' is not a card"),
        (["0 pass", 7], "^hand 1, action 2 7: an action is a string"),
        (["0 pass", "1 pass", "0 draw", "0 knock KD", "1 draw"], "^hand 1, action 5 '1 draw': "),
    ],
)
def test_illegal_actions_in_a_record_name_hand_action_and_reason(actions, message):
    with pytest.raises(RecordError, match=message):
        replay(with_actions(actions))


def test_deal_errors_name_the_hand():
    entry = copy.deepcopy(KNOCK)
    entry["deal"]["stock"][0] = entry["deal"]["stock"][1]
    with pytest.raises(RecordError, match=r"^hand 1: the deal holds .* twice$"):
        replay(record([entry]))
    entry = copy.deepcopy(KNOCK)
    entry["deal"]["upcard"] = "1S"
    with pytest.raises(RecordError, match=r"^hand 1: deal: '1S' is not a card"):
        replay(record([entry]))
    entry = copy.deepcopy(KNOCK)
    entry["deal"]["hands"][0].pop()
    with pytest.raises(RecordError, match=r"^hand 1: seat 0 is dealt 9 cards, the rules deal 10$"):
        replay(record([entry]))
    entry = copy.deepcopy(KNOCK)
    entry["deal"]["hands"] = "AS"
    with pytest.raises(RecordError, match=r"^hand 1: deal.hands must be a list of lists of cards$"):
        replay(record([entry]))
    entry = copy.deepcopy(KNOCK)
    entry["deal"]["stock"] = "AS"
    with pytest.raises(RecordError, match=r"^hand 1: .*cards must be given as a list"):
        replay(record([entry]))


def test_an_unfinished_hand_may_only_be_the_last():
    unfinished = copy.deepcopy(KNOCK)
    unfinished["actions"] = unfinished["actions"][:2]
    with pytest.raises(RecordError, match=r"^hand 1: ends before the hand is over, yet more hands follow$"):
        replay(record([unfinished, KNOCK]))


def test_loads_errors():
    with pytest.raises(RecordError, match=r"^not JSON: .* at line 1$"):
        loads("{")
    with pytest.raises(RecordError, match=r"^a record is a JSON object$"):
        loads("[]")


def test_an_empty_record_is_a_match_not_started():
    match = replay_match(record([]))
    assert match.hands == [] and match.totals == (0, 0)


def test_hand_entry_builds_the_record_shape():
    entry = hand_entry(1, deal([KNOCKER_6, DEFENDER_14], "6S"), ["0 pass"])
    assert set(entry) == {"dealer", "deal", "actions"}
    assert len(entry["deal"]["stock"]) == 31


def test_a_hand_written_record_with_a_reshuffle_and_a_void_after_the_second_exhaustion():
    from deals import draw_and_discard, opening

    the_deal = deal([KNOCKER_6, DEFENDER_14], "KC")
    first = opening(1) + draw_and_discard(the_deal, 0, 0, 29)
    pile = [the_deal.upcard, *the_deal.stock[:28]]  # all but the top card (the 29th discard)
    order = list(reversed(pile))
    new_stock = [*the_deal.stock[29:31], *order]
    second = []
    for i in range(29):
        seat = (1 + i) % 2  # seat 0 threw last, so seat 1 draws first
        second += [f"{seat} draw", f"{seat} discard {new_stock[i]}"]
    actions = [*first, "reshuffle " + " ".join(map(str, order)), *second]
    rec = record([hand_entry(1, the_deal, actions)], "oklahoma-reshuffle")
    match = replay_match(rec)
    hand = match.hands[0]
    assert hand.result.outcome == "void"
    assert hand.stock() == list(new_stock[29:])
    assert match.next_dealer == 1
    bad = copy.deepcopy(rec)
    bad["hands"][0]["actions"][60] = "reshuffle " + " ".join(map(str, order[1:]))
    message = r"^hand 1, action 61 'reshuffle .*': reshuffle: the new stock must be"
    with pytest.raises(RecordError, match=message):
        replay(bad)
    short = copy.deepcopy(rec)
    del short["hands"][0]["actions"][60:]
    short["hands"][0]["actions"].append("0 draw")
    with pytest.raises(RecordError, match=r"the discard pile must be reshuffled first"):
        replay(short)


def test_a_knock_naming_its_melds_replays_and_keeps_its_notation():
    entry = copy.deepcopy(KNOCK)
    entry["actions"][-1] = "0 knock KD 2C-3C-4C 7D-7H-7S TH-JH-QH"
    match = replay_match(record([entry]))
    assert str(match.hands[0].actions[-1]) == "0 knock KD 2C-3C-4C 7D-7H-7S TH-JH-QH"
    assert report(match)["hands"][0]["points"] == [16, 0]
    assert match_to_record(match, ["Ann", "Bob"])["hands"][0]["actions"] == entry["actions"]
