"""Scoring: every worked example of our rules (seed 000), replayed from records, and the variants."""

from __future__ import annotations

import pytest
from deals import (
    DEFENDER_4,
    DEFENDER_6,
    DEFENDER_14,
    DEFENDER_18,
    GIN_10,
    KNOCKER_6,
    play,
    record,
    replay_match,
    replayed,
    win_hand,
)
from deals import deal as make_deal

from okgin.rules import PRESETS
from okgin.scoring import Outcome, score_hand


def one_hand(winner_cards: str, loser_cards: str, upcard: str, rules: str | dict = "oklahoma"):
    """Seat 0 (dealer 1) draws KD and knocks it; the report and the hand's result."""
    rec = record([win_hand(1, 0, winner_cards, loser_cards, upcard, "KD")], rules)
    match = replay_match(rec)
    return replayed(rec)["hands"][0], match.hands[0].result


@pytest.mark.parametrize(
    ("winner_cards", "loser_cards", "upcard", "outcome", "winner", "points", "working"),
    [
        (KNOCKER_6, DEFENDER_14, "6S", "knock", 0, [16, 0], "(14 − 6) × 2 = 16"),
        (KNOCKER_6, DEFENDER_4, "6S", "undercut", 1, [0, 54], "(25 + 6 − 4) × 2 = 54"),
        (GIN_10, DEFENDER_18, "6S", "gin", 0, [86, 0], "(25 + 18) × 2 = 86"),
        (KNOCKER_6, DEFENDER_14, "6H", "knock", 0, [8, 0], "14 − 6 = 8"),
        (KNOCKER_6, DEFENDER_4, "6H", "undercut", 1, [0, 27], "25 + 6 − 4 = 27"),
        (GIN_10, DEFENDER_18, "6H", "gin", 0, [43, 0], "25 + 18 = 43"),
    ],
)
def test_worked_examples(winner_cards, loser_cards, upcard, outcome, winner, points, working):
    hand, result = one_hand(winner_cards, loser_cards, upcard)
    assert hand["outcome"] == outcome
    assert hand["knocker"] == 0
    assert hand["winner"] == winner
    assert hand["knock_limit"] == 6
    assert hand["points"] == points
    assert hand["layoffs"] == []
    assert result.working[winner] == working
    assert result.working[1 - winner] is None


def test_worked_example_deadwood_is_reported_after_the_knock():
    hand, result = one_hand(KNOCKER_6, DEFENDER_14, "6S")
    assert hand["deadwood"] == [6, 14]
    assert hand["multiplier"] == 2
    assert [str(c) for c in result.shown[0].unmatched] == ["6C"]


def test_a_tie_is_an_undercut_and_the_defender_wins():
    hand, result = one_hand(KNOCKER_6, DEFENDER_6, "6S")
    assert (hand["outcome"], hand["winner"], hand["points"]) == ("undercut", 1, [0, 50])
    assert result.working[1] == "(25 + 6 − 6) × 2 = 50"


def test_without_spade_doubling_a_spade_upcard_changes_nothing():
    hand, result = one_hand(KNOCKER_6, DEFENDER_14, "6S", {"preset": "oklahoma", "spade_double": False})
    assert hand["multiplier"] == 1
    assert hand["points"] == [8, 0]
    assert result.working[0] == "14 − 6 = 8"


def test_only_the_opening_upcard_doubles_not_spades_drawn_later():
    # The knocker draws a spade (KS is not the upcard): no doubling on a heart upcard.
    rec = record([win_hand(1, 0, KNOCKER_6, DEFENDER_14, "6H", "9S")])
    assert replayed(rec)["hands"][0]["points"] == [8, 0]


def test_big_gin_scores_31_plus_deadwood_doubled_on_a_spade():
    rules = "oklahoma-big-gin"
    the_deal = make_deal([GIN_10, DEFENDER_18], "6S", "5C")
    hand = play(PRESETS[rules], 1, the_deal, ["0 pass", "1 pass", "0 draw", "0 big-gin"])
    result = hand.result
    assert result is not None
    assert result.outcome == Outcome.BIG_GIN
    assert result.points == (98, 0)
    assert result.working[0] == "(31 + 18) × 2 = 98"
    assert result.deadwood == (0, 18)
    assert result.layoffs == ()


# -- penalty scoring (seeds 002 and 004) -------------------------------------------------------

MULTI = "oklahoma-multiplayer"
# Three players, seven cards each: seat 1 knocks with 4 (the 4C) on melds 5H-6H-7H and JC-JD-JS.
KNOCKER_4_OF_7 = "5H 6H 7H JC JD JS 4C"


def three_hand(seat2: str, seat0: str, upcard: str = "5C", knocker: str = KNOCKER_4_OF_7, rules=MULTI):
    """Dealer 0; all pass; seat 1 draws KH and knocks it."""
    the_deal = make_deal([seat0, knocker, seat2], upcard, "KH")
    actions = ["1 pass", "2 pass", "0 pass", "1 draw", "1 knock KH"]
    rec = record([{"dealer": 0, "deal": _deal_json(the_deal), "actions": actions}], rules)
    return replayed(rec)["hands"][0]


def _deal_json(the_deal):
    from okgin.record import deal_to_json

    return deal_to_json(the_deal)


def test_penalty_knock_scores_10_and_the_others_lose_their_excess():
    hand = three_hand("KC KD KS 9C 9D 9S 8D", "QC QD QS TC TD TS 6S")
    assert hand["outcome"] == "knock"
    assert hand["deadwood"] == [6, 4, 8]
    assert hand["points"] == [-(6 - 4), 10, -(8 - 4)]


def test_penalty_gin_scores_25_and_the_others_lose_their_deadwood():
    hand = three_hand(
        "KC KD KS 9C 9D 9S 8D", "QC QD QS TC TD TS 6S", knocker="5H 6H 7H JC JD JS JH"
    )
    assert hand["outcome"] == "gin"
    assert hand["points"] == [-6, 25, -8]


def test_penalty_gin_a_queen_ace_two_left_scores_minus_13():
    # Seed 002: "left with a queen, ace, two when another player goes Gin ... -13".
    hand = three_hand(
        "KC KD KS 9C 9D 9S 8D", "QC AD 2S TC TD TH TS", knocker="5H 6H 7H JC JD JS JH"
    )
    assert hand["outcome"] == "gin"
    assert hand["deadwood"][0] == 13
    assert hand["points"][0] == -13


def test_penalty_layoffs_bring_24_down_to_4():
    # Seed 004: a defender with JH, 6H and two 4s lays off JH, 6H and a 4: 24 becomes 4.
    knocker = "7H 8H 9H TH 5D 6D 7D AC AH 3C"  # 5 deadwood: AC AH 3C
    defender = "JH 6H 4S 4D KC KD KS 2C 2D 2S"
    rec = record([win_hand(1, 0, knocker, defender, "9C", "QS")], "oklahoma-reshuffle")
    hand = replayed(rec)["hands"][0]
    assert hand["layoffs"] == [[1, "4D", "6H", "JH"]]
    assert hand["deadwood"] == [5, 4]
    assert hand["outcome"] == "undercut"
    assert hand["points"] == [-(5 - 4) - 25, 25]


def test_multiplayer_undercut_tie_goes_to_the_first_after_the_knocker():
    hand = three_hand("KC KD KS 9C 9D 9S 3D", "QC QD QS TC TD TS 3S")
    assert hand["outcome"] == "undercut"
    assert hand["winner"] == 2
    assert hand["points"] == [0, -(4 - 3), 20]


def test_multiplayer_undercut_the_lowest_deadwood_wins():
    hand = three_hand("KC KD KS 9C 9D 9S 3D", "QC QD QS TC TD TS AS")
    assert hand["winner"] == 0
    assert hand["points"] == [20, -(4 - 1), -(3 - 1)]


def test_multiplayer_difference_scoring_undercut_collects_from_everyone():
    hand = three_hand(
        "KC KD KS 9C 9D 9S 3D", "QC QD QS TC TD TS AS", rules={"preset": "oklahoma", "players": 3}
    )
    assert hand["winner"] == 0
    assert hand["points"] == [25 + (4 - 1) + (3 - 1), 0, 0]


def test_undercut_penalty_costs_the_knocker():
    rec = record([win_hand(1, 0, KNOCKER_6, DEFENDER_4, "6S", "KD")], "oklahoma-reshuffle")
    hand = replayed(rec)["hands"][0]
    assert hand["multiplier"] == 1  # 004 does not double spades
    assert hand["points"] == [-(6 - 4) - 25, 25]


def test_undercut_penalty_in_difference_scoring():
    rules = {"preset": "oklahoma", "undercut_penalty": 10}
    rec = record([win_hand(1, 0, KNOCKER_6, DEFENDER_4, "6H", "KD")], rules)
    assert replayed(rec)["hands"][0]["points"] == [-10, 27]


@pytest.mark.parametrize(
    ("ending", "deadwood", "multiplier", "points", "working"),
    [
        (Outcome.KNOCK, [3, 10, 7], 1, (11, 0, 0), "10 − 3 + 7 − 3 = 11"),
        (Outcome.GIN, [0, 10, 7], 2, (84, 0, 0), "(25 + 10 + 7) × 2 = 84"),
        (Outcome.KNOCK, [5, 5, 2], 1, (0, 0, 31), "25 + 5 − 2 + 5 − 2 = 31"),
    ],
)
def test_difference_scoring_with_three_players(ending, deadwood, multiplier, points, working):
    score = score_hand(PRESETS["oklahoma"], ending, 0, deadwood, multiplier)
    assert score.points == points
    winner = points.index(max(points))
    assert score.winner == winner
    assert score.working[winner] == working


def test_knock_bonus_is_added_in_difference_scoring():
    rules = PRESETS["oklahoma"].replace(knock_bonus=10)
    score = score_hand(rules, Outcome.KNOCK, 0, [6, 14], 2)
    assert score.points == (36, 0)
    assert score.working[0] == "(10 + 14 − 6) × 2 = 36"


def test_boxes_undercut_one_gin_two_doubled_on_spades():
    rules = PRESETS["oklahoma"].replace(boxes=25)
    assert score_hand(rules, Outcome.KNOCK, 0, [6, 4], 1).boxes == (0, 1)
    assert score_hand(rules, Outcome.KNOCK, 0, [6, 14], 2).boxes == (0, 0)
    assert score_hand(rules, Outcome.GIN, 1, [9, 0], 2).boxes == (0, 4)
    assert score_hand(PRESETS["oklahoma"], Outcome.GIN, 1, [9, 0], 2).boxes == (0, 0)


@pytest.mark.parametrize(
    ("preset_name", "ending", "deadwood", "multiplier", "working"),
    [
        (MULTI, Outcome.GIN, [0, 13, 20], 1, ("25", "−(13 − 0) = −13", "−(20 − 0) = −20")),
        (MULTI, Outcome.KNOCK, [6, 14, 20], 2, ("10 × 2 = 20", "−(14 − 6) × 2 = −16", "−(20 − 6) × 2 = −28")),
        (MULTI, Outcome.KNOCK, [6, 4, 20], 1, ("−(6 − 4) = −2", "20", "−(20 − 4) = −16")),
        ("oklahoma-reshuffle", Outcome.KNOCK, [6, 4], 1, ("−(6 − 4) − 25 = −27", "25")),
    ],
)
def test_penalty_scoring_shows_every_seats_working(preset_name, ending, deadwood, multiplier, working):
    score = score_hand(PRESETS[preset_name], ending, 0, deadwood, multiplier)
    assert score.working == working
    shown_totals = [int(text.split("= ")[-1].replace("−", "-")) for text in working]
    assert list(score.points) == shown_totals


def test_an_undercut_penalty_shows_on_the_knockers_line_in_difference_scoring():
    rules = PRESETS["oklahoma"].replace(undercut_penalty=25)
    score = score_hand(rules, Outcome.KNOCK, 0, [6, 4], 2)
    assert score.working == ("−25 × 2 = −50", "(25 + 6 − 4) × 2 = 54")
    assert score.points == (-50, 54)


# -- each term of a sum named ------------------------------------------------------------------


def _named(score, seat):
    return [(term.name, term.text, term.points, term.of, term.against) for term in score.terms[seat]]


@pytest.mark.parametrize(
    ("preset_name", "ending", "deadwood", "multiplier", "seat", "named"),
    [
        ("oklahoma", Outcome.KNOCK, [6, 14], 2, 0, [("deadwood difference", "14 − 6", 8, 1, 0)]),
        ("oklahoma", Outcome.KNOCK, [6, 4], 2, 1,
         [("undercut bonus", "25", 25, None, None), ("deadwood difference", "6 − 4", 2, 0, 1)]),
        ("oklahoma", Outcome.GIN, [0, 18], 1, 0,
         [("gin bonus", "25", 25, None, None), ("deadwood", "18", 18, 1, None)]),
        ("oklahoma-big-gin", Outcome.BIG_GIN, [0, 31], 1, 0,
         [("Big Gin bonus", "31", 31, None, None), ("deadwood", "31", 31, 1, None)]),
        ("oklahoma", Outcome.KNOCK, [3, 10, 7], 1, 0,
         [("deadwood difference", "10 − 3", 7, 1, 0), ("deadwood difference", "7 − 3", 4, 2, 0)]),
        (MULTI, Outcome.KNOCK, [6, 14, 20], 2, 0, [("knock bonus", "10", 10, None, None)]),
        (MULTI, Outcome.KNOCK, [6, 14, 20], 2, 1, [("deadwood difference", "−(14 − 6)", -8, 1, 0)]),
        ("oklahoma-reshuffle", Outcome.KNOCK, [6, 4], 1, 0,
         [("deadwood difference", "−(6 − 4)", -2, 0, 1), ("undercut penalty", "−25", -25, None, None)]),
    ],
)
def test_every_term_of_a_sum_is_named(preset_name, ending, deadwood, multiplier, seat, named):
    score = score_hand(PRESETS[preset_name], ending, 0, deadwood, multiplier)
    assert _named(score, seat) == named
    assert sum(points for _, _, points, _, _ in named) * multiplier == score.points[seat]


def test_a_knock_bonus_is_named_and_a_seat_without_a_sum_has_no_terms():
    score = score_hand(PRESETS["oklahoma"].replace(knock_bonus=10), Outcome.KNOCK, 0, [6, 14], 2)
    assert [term.name for term in score.terms[0]] == ["knock bonus", "deadwood difference"]
    assert score.terms[1] is None


def test_the_hand_result_carries_the_named_terms():
    _, result = one_hand(KNOCKER_6, DEFENDER_4, "6S")
    assert [term.name for term in result.terms[1]] == ["undercut bonus", "deadwood difference"]
    assert result.terms[0] is None
