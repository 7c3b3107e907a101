"""Matches: dealer rotation, the target (points won), and the final bonuses, from records."""

from __future__ import annotations

import random

import pytest
from deals import (
    DEFENDER_4,
    DEFENDER_14,
    DEFENDER_18,
    DEFENDER_21,
    DEFENDER_30,
    GIN_10,
    KNOCKER_6,
    deal,
    draw_and_discard,
    hand_entry,
    opening,
    record,
    replay_match,
    replayed,
    win_hand,
)

from okgin.errors import IllegalActionError, RecordError
from okgin.match import Match
from okgin.record import replay
from okgin.rules import PRESETS


def to_156(first_dealer: int = 1) -> list[dict]:
    """Seat 0 wins 86, 46 (132), then 24: 156. The dealer alternates 1, 0, 1."""
    d = first_dealer
    return [
        win_hand(d, 0, GIN_10, DEFENDER_18, "6S", "KD"),  # (25 + 18) × 2 = 86
        win_hand(1 - d, 0, GIN_10, DEFENDER_21, "KC", "KD", spare="AD"),  # 25 + 21 = 46
        win_hand(d, 0, KNOCKER_6, DEFENDER_30, "9D", "KD"),  # 30 − 6 = 24
    ]


def test_at_132_a_24_point_hand_takes_you_to_156_and_wins():
    hands = to_156()
    before = replayed(record(hands[:2]))
    assert [h["points"] for h in before["hands"]] == [[86, 0], [46, 0]]
    assert before["totals"] == [132, 0]
    assert before["final"] is None
    after = replayed(record(hands))
    assert after["hands"][2]["points"] == [24, 0]
    assert after["totals"] == [156, 0]
    assert after["final"] is not None
    assert after["final"]["winner"] == 0


def test_final_bonuses_shutout_doubles_the_game_bonus():
    final = replayed(record(to_156()))["final"]
    # 3 hands × 25 + 100 for the game + 100 more: the opponent scored nothing.
    assert final["bonuses"] == [3 * 25 + 100 + 100, 0]
    assert final["scores"] == [156 + 275, 0]
    assert replay_match(record(to_156())).final.shutout


def test_final_bonuses_without_a_shutout():
    first = win_hand(0, 1, KNOCKER_6, DEFENDER_14, "6H", "KD")  # seat 1 knocks: 8
    match = replay_match(record([first, *to_156(first_dealer=1)]))
    final = match.final
    assert final is not None
    assert final.points == (156, 8)
    assert final.hands_won == (3, 1)
    assert final.bonuses == (3 * 25 + 100, 25)
    assert final.scores == (331, 33)
    assert not final.shutout


def test_no_hand_can_follow_the_end_of_the_match():
    hands = [*to_156(), win_hand(0, 1, KNOCKER_6, DEFENDER_14, "6H", "KD")]
    with pytest.raises(RecordError, match="hand 4: the match is over"):
        replay(record(hands))


def test_double_score_shutout_doubles_the_winners_whole_score():
    rules = {"preset": "oklahoma-big-gin", "target": 50}
    final = replayed(record([win_hand(1, 0, GIN_10, DEFENDER_18, "6S", "KD")], rules))["final"]
    # 86 + 25 + 100 = 211, doubled: the loser won no hand.
    assert final["scores"] == [2 * 211, 0]
    assert final["bonuses"] == [2 * 211 - 86, 0]


def test_double_score_shutout_not_when_the_loser_won_a_hand():
    rules = {"preset": "oklahoma-big-gin", "target": 50}
    hands = [
        win_hand(1, 1, KNOCKER_6, DEFENDER_14, "6H", "KD", spare="AD"),  # seat 1: 8
        win_hand(0, 0, GIN_10, DEFENDER_18, "6S", "KD", spare="AD"),  # seat 0 deals and wins 86
    ]
    final = replayed(record(hands, rules))["final"]
    assert final["winner"] == 0
    assert final["scores"] == [86 + 25 + 100, 8 + 25]


def test_boxes_are_paid_at_the_end_outside_the_target():
    rules = {"preset": "oklahoma", "boxes": 25, "target": 60, "shutout": "none"}
    hands = [
        win_hand(1, 0, KNOCKER_6, DEFENDER_4, "6S", "KD"),  # seat 1 undercuts: 54, 1 box × 2
        win_hand(0, 1, GIN_10, DEFENDER_18, "6H", "KD"),  # seat 1 gin: 43, 2 boxes
    ]
    match = replay_match(record(hands, rules))
    assert [h.result.boxes for h in match.hands] == [(0, 2), (0, 2)]
    final = match.final
    assert final is not None
    assert final.winner == 1
    assert final.boxes == (0, 4)
    assert final.bonuses == (0, 2 * 25 + 100 + 4 * 25)
    assert final.scores == (0, 97 + 250)


def test_box_value_20():
    rules = {"preset": "oklahoma", "boxes": 20, "target": 40, "shutout": "none"}
    match = replay_match(record([win_hand(1, 0, GIN_10, DEFENDER_18, "6H", "KD")], rules))
    assert match.final is not None
    assert match.final.bonuses == (25 + 100 + 2 * 20, 0)


def test_the_target_counts_points_won_not_penalties():
    rules = {"preset": "oklahoma-multiplayer", "players": 2, "target": 30}
    hands = [
        win_hand(1, 0, GIN_10, DEFENDER_18, "6H", "KD"),  # seat 0: +25, seat 1 −18
        win_hand(0, 1, GIN_10, DEFENDER_18, "6H", "KD"),  # (winner deals) seat 1: +25, seat 0 −18
        win_hand(1, 0, KNOCKER_6, DEFENDER_14, "6H", "KD"),  # seat 0 +10: won 35, total 17
    ]
    match = replay_match(record(hands, rules))
    assert match.totals == (25 - 18 + 10, -18 + 25 - 8)
    assert match.won == (35, 25)
    assert match.final is not None
    assert match.final.winner == 0


def test_dealer_alternates_after_scored_hands():
    hands = to_156()
    match = replay_match(record(hands[:2]))
    assert [h.dealer for h in match.hands] == [1, 0]
    assert match.next_dealer == 1
    wrong = win_hand(0, 0, KNOCKER_6, DEFENDER_30, "9D", "KD", spare="AD")
    with pytest.raises(RecordError, match="hand 3: seat 1 deals this hand, not seat 0"):
        replay(record([*hands[:2], wrong]))


def void_hand(dealer: int) -> dict:
    the_deal = deal([KNOCKER_6, DEFENDER_14], "KC")
    actions = opening(dealer) + draw_and_discard(the_deal, 1 - dealer, 0, 29)
    return hand_entry(dealer, the_deal, actions)


def test_the_same_dealer_deals_again_after_a_void_hand():
    match = replay_match(record([void_hand(1)]))
    assert match.hands[0].result.outcome == "void"
    assert match.totals == (0, 0)
    assert match.next_dealer == 1
    again = win_hand(1, 0, KNOCKER_6, DEFENDER_14, "6H", "KD")
    report = replayed(record([void_hand(1), again]))
    assert report["totals"] == [8, 0]
    with pytest.raises(RecordError, match="hand 2: seat 1 deals this hand, not seat 0"):
        replay(record([void_hand(1), void_hand(0)]))


def test_the_winner_deals_next_with_dealer_winner():
    rules = {"preset": "oklahoma-multiplayer", "players": 2}
    seat0_wins_as_non_dealer = win_hand(1, 0, KNOCKER_6, DEFENDER_14, "6H", "KD")
    match = replay_match(record([seat0_wins_as_non_dealer], rules))
    assert match.next_dealer == 0
    match = replay_match(record([win_hand(1, 1, KNOCKER_6, DEFENDER_14, "6H", "KD", spare="AD")], rules))
    assert match.next_dealer == 1


def test_the_winner_deals_next_after_an_undercut():
    rules = {"preset": "oklahoma", "dealer": "winner"}
    match = replay_match(record([win_hand(0, 1, KNOCKER_6, DEFENDER_4, "6H", "KD")], rules))
    assert match.hands[0].result.winner == 0  # the defender undercut the knocker
    assert match.next_dealer == 0


def three_player_hand(dealer: int, knocker: int) -> dict:
    """Three players; everyone passes, draws and throws back until ``knocker`` draws KH and knocks."""
    cards = {knocker: "5H 6H 7H JC JD JS 4C"}
    others = ["KC KD KS 9C 9D 9S 8D", "QC QD QS TC TD TS 6S"]
    for seat in range(3):
        if seat != knocker:
            cards[seat] = others.pop()
    turns = (knocker - dealer - 1) % 3  # the players before the knocker draw and throw back
    the_deal = deal([cards[s] for s in range(3)], "5C", at={turns: "KH"})
    actions = opening(dealer, 3) + draw_and_discard(the_deal, (dealer + 1) % 3, 0, turns, 3)
    return hand_entry(dealer, the_deal, [*actions, f"{knocker} draw", f"{knocker} knock KH"])


def test_three_player_dealer_rotation_goes_round_the_table():
    rules = {"preset": "oklahoma", "players": 3}
    hands = [three_player_hand(2, 0), three_player_hand(0, 0), three_player_hand(1, 0)]
    match = replay_match(record(hands, rules))
    assert [h.result.winner for h in match.hands] == [0, 0, 0]
    assert [h.dealer for h in match.hands] == [2, 0, 1]
    assert match.next_dealer == 2
    winner_deals = replay_match(record([*hands[:1], three_player_hand(0, 2)], "oklahoma-multiplayer"))
    assert winner_deals.next_dealer == 2
    # Seat 1 won, so seat 1 deals, not the next seat (0).
    with pytest.raises(RecordError, match="hand 2: seat 1 deals this hand, not seat 0"):
        replay(record([three_player_hand(2, 1), three_player_hand(0, 1)], "oklahoma-multiplayer"))


def test_match_refuses_a_hand_while_one_is_being_played_and_a_bad_dealer():
    match = Match(PRESETS["oklahoma"])
    match.deal_next(random.Random(1))
    with pytest.raises(IllegalActionError, match="the hand in progress is not over"):
        match.deal_next(random.Random(2))
    with pytest.raises(IllegalActionError, match="dealer 2 is not a seat"):
        Match(PRESETS["oklahoma"], first_dealer=2)


def test_apply_legal_scores_hands_and_ends_the_match_as_apply_does():
    from okgin.hand import play_chance

    matches = (Match(PRESETS["oklahoma"], first_dealer=1), Match(PRESETS["oklahoma"], first_dealer=1))
    chance = (random.Random(5), random.Random(5))
    choose = random.Random(6)
    while not matches[0].over:
        hands = [m.deal_next(r) for m, r in zip(matches, chance, strict=True)]
        while not hands[0].over:
            action = choose.choice(hands[0].legal_actions())
            matches[0].apply(action)
            matches[1].apply_legal(action)
            for hand, rng in zip(hands, chance, strict=True):
                play_chance(hand, rng)
        assert matches[1].totals == matches[0].totals and matches[1].won == matches[0].won
    assert matches[1].final == matches[0].final and matches[1].next_dealer == matches[0].next_dealer
    with pytest.raises(IllegalActionError, match="no hand is being played"):
        matches[1].apply_legal(action)
