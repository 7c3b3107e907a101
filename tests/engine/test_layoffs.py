"""Layoffs after a knock: sets, runs at both ends and chained, in turn order, never after gin."""

from __future__ import annotations

from deals import GIN_10, deal, draw_and_discard, opening, play

from okgin.cards import mask_of, parse_cards
from okgin.layoffs import best_layoffs
from okgin.rules import PRESETS

OK = PRESETS["oklahoma"]
MULTI = PRESETS["oklahoma-multiplayer"]
# Seat 0 knocks with 6 (the 6C) on 2C-3C-4C, 7D-7H-7S and TH-JH-QH, after drawing KD.
KNOCKER = "2C 3C 4C 7D 7H 7S TH JH QH 6C"


def knock_against(defender: str, upcard: str = "6H", knocker: str = KNOCKER, action: str = "0 knock KD"):
    hand = play(OK, 1, deal([knocker, defender], upcard, "KD"), ["0 pass", "1 pass", "0 draw", action])
    assert hand.result is not None
    return hand.result


def laid(result) -> list[list[str]]:
    return [[str(seat), *map(str, cards)] for seat, cards in result.layoffs]


def test_a_fourth_card_on_a_set():
    result = knock_against("7C 4D 5D 6D 8S 8D 8H JS QS KS")
    assert laid(result) == [["1", "7C"]]
    assert result.deadwood == (6, 0)
    assert ["7C", "7D", "7H", "7S"] in [[str(c) for c in m] for m in result.knocker_melds]
    assert result.outcome == "undercut" and result.points == (0, 31)


def test_runs_extend_at_both_ends_and_chain():
    # AC and 5C extend 2C-3C-4C at both ends; 9H then 8H chain below TH-JH-QH, KH above.
    result = knock_against("AC 5C 8H 9H KH 2S 3S 4S JD QD", upcard="KC")
    assert laid(result) == [["1", "AC", "5C", "8H", "9H", "KH"]]
    melds = [[str(c) for c in m] for m in result.knocker_melds]
    assert ["AC", "2C", "3C", "4C", "5C"] in melds
    assert ["8H", "9H", "TH", "JH", "QH", "KH"] in melds
    assert result.deadwood == (6, 20)
    assert result.points == (14, 0)
    assert result.working[0] == "20 − 6 = 14"


def test_a_run_extension_cannot_skip_a_gap():
    # 8H could only reach TH-JH-QH through 9H, which the defender does not hold.
    result = knock_against("8H 4D 5D 6D 8S 8D JS QS KS 2S", upcard="KC")
    assert laid(result) == []
    assert result.deadwood[1] == 2  # 8H stays in its own set 8S-8D-8H


def test_the_defender_lays_off_one_card_and_keeps_the_next_in_its_own_set():
    # 9H goes on TH-JH-QH; 8H could follow it but stays in 8S-8D-8H.
    result = knock_against("9H 8H 8S 8D 4D 5D 6D JS QS KS", upcard="KC")
    assert laid(result) == [["1", "9H"]]
    assert result.deadwood == (6, 0)
    assert result.outcome == "undercut"


def test_the_defender_keeps_a_card_in_its_own_meld_when_that_is_better():
    # Laying 9H on TH-JH-QH would leave 9S 9D unmatched: 20 deadwood instead of 2.
    result = knock_against("9H 9S 9D 4D 5D 6D JS QS KS 2S", upcard="KC")
    assert laid(result) == []
    assert result.deadwood == (6, 2)
    assert result.outcome == "undercut" and result.points == (0, 25 + 6 - 2)


def test_layoff_ties_lay_off_the_fewest_cards():
    # 5C-6C-7C could all go on 2C-3C-4C, or stay a run of their own: no deadwood either way.
    plan = best_layoffs(mask_of(parse_cards("5C 6C 7C")), [mask_of(parse_cards("2C 3C 4C"))])
    assert plan.laid == 0
    assert plan.deadwood == 0
    plan = best_layoffs(mask_of(parse_cards("5C 6C 7C KD")), [mask_of(parse_cards("2C 3C 4C"))])
    assert (plan.laid, plan.deadwood) == (0, 10)


def test_layoffs_never_make_a_meld_of_the_knockers_deadwood():
    # The knocker's 6C is deadwood: the defender's 6D 6S cannot join it.
    result = knock_against("6D 6S 2D 9D 8S 8D 8H JS QS KS", upcard="KC")
    assert laid(result) == []
    assert result.deadwood[1] == 6 + 6 + 2 + 9


def test_no_layoffs_after_gin():
    # 7C would go on 7D-7H-7S and 9H on TH-JH-QH-KH after a knock; not after gin.
    result = knock_against("7C 9H 4D 5D 6D 8S 8D 8H 2S 3S", knocker=GIN_10)
    assert result.outcome == "gin"
    assert result.layoffs == ()
    assert result.deadwood == (0, 7 + 9 + 2 + 3)
    assert result.points == (25 + 21, 0)


def test_layoff_can_turn_a_knock_into_an_undercut():
    # Before layoffs the defender holds 5C AC KH 3D unmatched: 19; after them, 3D: 3.
    result = knock_against("5C AC KH 4S 5S 6S 9D 9S 9C 3D", upcard="KC")
    assert laid(result) == [["1", "AC", "5C", "KH"]]
    assert result.deadwood == (6, 3)
    assert result.outcome == "undercut" and result.winner == 1
    assert result.points == (0, 25 + 6 - 3)


def three_player_knock(seat0: str, seat2: str, knocker: str = "5H 6H 7H 2C 2D 2S 3C"):
    """Dealer 0: everyone passes; seat 1 draws QH and knocks it."""
    the_deal = deal([seat0, knocker, seat2], "5C", "QH")
    hand = play(MULTI, 0, the_deal, [*opening(0, 3), "1 draw", "1 knock QH"])
    assert hand.result is not None
    return hand.result


def test_multiplayer_layoffs_are_made_in_turn_onto_melds_as_earlier_layoffs_left_them():
    # Seat 2 (next after the knocker) lays 8H; only then can seat 0 lay 9H.
    result = three_player_knock(seat0="9H AD AS AH 6D 6S TC", seat2="8H KC KD KS 4D 4S 9C")
    assert laid(result) == [["2", "8H"], ["0", "9H"]]
    assert ["5H", "6H", "7H", "8H", "9H"] in [[str(c) for c in m] for m in result.knocker_melds]
    assert result.deadwood == (22, 3, 17)
    assert result.points == (-(22 - 3), 10, -(17 - 3))


def test_multiplayer_a_set_takes_one_fourth_card_only():
    # Seat 2 lays 2H on 2C-2D-2S; seat 0's 4H extends 5H-6H-7H.
    result = three_player_knock(seat0="4H AD AS AC 6D 6S TC", seat2="2H KC KD KS 4D 4S 9C")
    assert laid(result) == [["2", "2H"], ["0", "4H"]]
    melds = [[str(c) for c in m] for m in result.knocker_melds]
    assert ["2C", "2D", "2H", "2S"] in melds
    assert ["4H", "5H", "6H", "7H"] in melds


def test_multiplayer_a_later_defender_chains_below_an_earlier_layoff():
    result = three_player_knock(seat0="3H AD AS AC 6D 6S TC", seat2="4H KC KD KS 3D 9S 9C")
    assert laid(result) == [["2", "4H"], ["0", "3H"]]
    alone = three_player_knock(seat0="3H AD AS AC 6D 6S TC", seat2="JD KC KD KS 3D 9S 9C")
    assert laid(alone) == []
    assert alone.deadwood[0] == 3 + 6 + 6 + 10


def test_void_hands_have_no_layoffs():
    the_deal = deal([KNOCKER, "7C 4D 5D 6D 8S 8D 8H JS QS KS"], "KC")
    hand = play(OK, 1, the_deal, opening(1) + draw_and_discard(the_deal, 0, 0, 29))
    assert hand.result.outcome == "void"
    assert hand.result.layoffs == () and hand.result.knocker_melds == ()


def test_layoffs_go_on_the_melds_the_knocker_showed():
    # The knocker shows 2C-3C-4C and keeps 5C as deadwood: 6C cannot follow a card not in a meld,
    # but AC still goes below 2C.
    knocker = "2C 3C 4C 5C 7D 7H 7S TH JH QH"
    result = knock_against(
        "6C AC 4D 5D 6D 8S 8D JS QS KS", upcard="KC", knocker=knocker,
        action="0 knock KD 2C-3C-4C 7D-7H-7S TH-JH-QH",
    )
    assert result.deadwood[0] == 5
    assert laid(result) == [["1", "AC"]]
    assert result.deadwood[1] == 6 + 8 + 8
    shown = knock_against(
        "6C AC 4D 5D 6D 8S 8D JS QS KS", upcard="KC", knocker=knocker,
        action="0 knock KD 2C-3C-4C-5C 7D-7H-7S TH-JH-QH",
    )
    assert shown.outcome == "gin" and shown.layoffs == ()
