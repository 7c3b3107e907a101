"""One hand: the upcard offer, knock limits, the end of the stock, and illegal actions."""

from __future__ import annotations

import random

import pytest
from deals import (
    DEFENDER_14,
    GIN_10,
    KNOCKER_6,
    KNOCKER_9,
    deal,
    draw_and_discard,
    opening,
    play,
)

from okgin.actions import Discard, Draw, Knock, Pass, Reshuffle, Take, parse_action
from okgin.cards import DECK, parse_card
from okgin.errors import IllegalActionError
from okgin.hand import Hand, Phase, play_chance, reshuffle_action
from okgin.rules import PRESETS, Rules

OK = PRESETS["oklahoma"]


def names(actions) -> list[str]:
    return [str(a) for a in actions]


def illegal(hand: Hand, text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        hand.apply(parse_action(text))


# -- the upcard offer ---------------------------------------------------------------------------


def test_the_non_dealer_is_offered_the_upcard_first_then_the_dealer():
    hand = play(OK, 1, deal([KNOCKER_6, DEFENDER_14], "KC"), [])
    assert (hand.phase, hand.to_act) == (Phase.OFFER, 0)
    assert names(hand.legal_actions()) == ["0 pass", "0 take"]
    hand.apply(Pass(0))
    assert (hand.phase, hand.to_act) == (Phase.OFFER, 1)
    assert names(hand.legal_actions()) == ["1 pass", "1 take"]


def test_when_both_pass_the_non_dealer_must_draw_from_the_stock():
    the_deal = deal([KNOCKER_6, DEFENDER_14], "KC")
    hand = play(OK, 1, the_deal, ["0 pass", "1 pass"])
    assert (hand.phase, hand.to_act) == (Phase.DRAW, 0)
    assert names(hand.legal_actions()) == ["0 draw"]
    illegal(hand, "0 take", "everyone passed the upcard, so seat 0 draws from the stock")
    hand.apply(Draw(0))
    assert the_deal.stock[0] in hand.cards_of(0)
    assert hand.stock_count == 30


def test_the_dealer_may_take_the_upcard_after_the_non_dealer_passes():
    hand = play(OK, 1, deal([KNOCKER_6, DEFENDER_14], "KC"), ["0 pass", "1 take"])
    assert parse_card("KC") in hand.cards_of(1)
    assert hand.discards == ()
    assert hand.to_act == 1 and hand.phase == Phase.DISCARD
    hand.apply(parse_action("1 discard 2D"))
    assert (hand.phase, hand.to_act) == (Phase.DRAW, 0)
    assert names(hand.legal_actions()) == ["0 draw", "0 take"]


def test_a_card_taken_from_the_pile_cannot_be_discarded_that_turn():
    hand = play(OK, 1, deal([KNOCKER_6, DEFENDER_14], "KC"), ["0 take"])
    assert hand.taken == parse_card("KC")
    assert Discard(0, parse_card("KC")) not in hand.legal_actions()
    assert all(getattr(a, "card", None) != parse_card("KC") for a in hand.legal_actions())
    illegal(hand, "0 discard KC", "cannot discard KC: it was just taken from the discard pile")
    # Later, the card is an ordinary card of the hand and may go.
    hand.apply(parse_action("0 discard 6C"))
    hand.apply(parse_action("1 draw"))
    hand.apply(parse_action(f"1 discard {hand.cards_of(1)[0]}"))
    hand.apply(parse_action("0 draw"))
    hand.apply(parse_action("0 discard KC"))
    assert hand.discards[-1] == parse_card("KC")


def test_a_card_taken_later_from_the_pile_cannot_be_discarded_either():
    actions = ["0 pass", "1 pass", "0 draw", "0 discard 6C", "1 take"]
    hand = play(OK, 1, deal([KNOCKER_6, DEFENDER_14], "KC"), actions)
    illegal(hand, "1 discard 6C", "just taken from the discard pile")
    illegal(hand, "1 knock 6C", "just taken from the discard pile")


# -- knock limits -------------------------------------------------------------------------------


def knock_hand(cards: str, upcard: str, rules: Rules = OK) -> Hand:
    """Seat 0 (dealer 1) has drawn KD after both passed; it is seat 0's discard."""
    return play(rules, 1, deal([cards, DEFENDER_14], upcard, "KD"), ["0 pass", "1 pass", "0 draw"])


def test_knock_over_the_limit_is_refused_with_the_deadwood_and_the_limit():
    hand = knock_hand(KNOCKER_9, "6H")
    assert hand.knock_limit == 6
    assert not any(isinstance(a, Knock) for a in hand.legal_actions())
    illegal(hand, "0 knock KD", "^cannot knock: 9 deadwood, the limit is 6$")
    hand.apply(parse_action("0 discard KD"))  # the refusal changed nothing
    assert hand.phase == Phase.DRAW


def test_knock_at_the_limit_is_allowed():
    hand = knock_hand(KNOCKER_9, "9H")
    assert Knock(0, parse_card("KD")) in hand.legal_actions()
    hand.apply(parse_action("0 knock KD"))
    assert hand.result.outcome == "knock" and hand.result.deadwood[0] == 9


@pytest.mark.parametrize(("upcard", "limit"), [("JH", 10), ("QC", 10), ("KD", 10), ("TS", 10), ("2C", 2)])
def test_knock_limit_of_face_and_number_cards(upcard, limit):
    assert OK.knock_limit_for(parse_card(upcard)) == limit


def test_face_card_upcard_lets_a_knock_with_10():
    hand = knock_hand("2C 3C 4C 7D 7H 7S TH JH QH TS", "JC")
    assert hand.knock_limit == 10
    hand.apply(parse_action("0 knock KD"))
    assert hand.result.deadwood[0] == 10


def test_ace_upcard_allows_only_gin():
    hand = knock_hand("2C 3C 4C 7D 7H 7S TH JH QH AD", "AH")
    assert hand.knock_limit == 0
    assert not any(isinstance(a, Knock) for a in hand.legal_actions())
    illegal(hand, "0 knock KD", r"^cannot knock: 1 deadwood, and only gin ends this hand$")
    gin = knock_hand(GIN_10, "AH")
    gin.apply(parse_action("0 knock KD"))
    assert gin.result.outcome == "gin"


def test_ace_upcard_allows_one_point_with_ace_upcard_one():
    rules = OK.replace(ace_upcard="one")
    hand = knock_hand("2C 3C 4C 7D 7H 7S TH JH QH AD", "AH", rules)
    assert hand.knock_limit == 1
    hand.apply(parse_action("0 knock KD"))
    assert hand.result.outcome == "knock" and hand.result.deadwood[0] == 1
    over = knock_hand("2C 3C 4C 7D 7H 7S TH JH QH 2S", "AH", rules)
    illegal(over, "0 knock KD", "cannot knock: 2 deadwood, the limit is 1")


def test_a_numeric_knock_limit_ignores_the_upcard():
    rules = OK.replace(knock_limit=5)
    hand = knock_hand(KNOCKER_6, "KH", rules)
    assert hand.knock_limit == 5
    illegal(hand, "0 knock KD", "cannot knock: 6 deadwood, the limit is 5")
    gin_rules = PRESETS["gin"]
    assert knock_hand(KNOCKER_9, "AH", gin_rules).knock_limit == 10
    assert gin_rules.multiplier_for(parse_card("AS")) == 1


def test_spade_upcard_doubles_only_with_spade_double():
    assert knock_hand(KNOCKER_6, "9S").multiplier == 2
    assert knock_hand(KNOCKER_6, "9H").multiplier == 1
    assert knock_hand(KNOCKER_6, "9S", OK.replace(spade_double=False)).multiplier == 1


# -- knocks with the melds named ----------------------------------------------------------------


def test_knock_naming_its_melds():
    hand = knock_hand(KNOCKER_6, "6H")
    hand.apply(parse_action("0 knock KD 2C-3C-4C 7D-7H-7S TH-JH-QH"))
    assert hand.result.outcome == "knock"
    assert names(hand.result.shown[0].unmatched) == ["6C"]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("0 knock KD 2C-3C-5C", "^cannot knock: 2C-3C-5C is not a set or a run$"),
        ("0 knock KD 2C-3C", "^cannot knock: 2C-3C is not a set or a run$"),
        ("0 knock QH TH-JH-QH", "^cannot knock: QH is not among the cards kept$"),
        ("0 knock KD 2S-3S-4S", "^cannot knock: 2S is not among the cards kept$"),
        ("0 knock KD 7D-7H-7S", "^cannot knock: 45 deadwood, the limit is 6$"),
    ],
)
def test_knock_naming_bad_melds_is_refused(action, message):
    hand = knock_hand(KNOCKER_6, "6H")
    illegal(hand, action, message)
    assert hand.phase == Phase.DISCARD and hand.actions[-1] == Draw(0)


def test_knock_naming_a_card_in_two_melds_is_refused():
    hand = knock_hand("5C 6C 7C 7D 7H 2C 3C 4C TH JH", "6H")
    illegal(hand, "0 knock KD 7C-7D-7H 5C-6C-7C 2C-3C-4C", "^cannot knock: 7C is in two melds$")


def test_a_knock_may_show_a_legal_arrangement_worse_than_the_best():
    hand = knock_hand("2C 3C 4C 5C 7D 7H 7S TH JH QH", "KH")
    # Best: 2C-3C-4C-5C (no deadwood, gin); shown: 2C-3C-4C, leaving 5C as deadwood.
    hand.apply(parse_action("0 knock KD 2C-3C-4C 7D-7H-7S TH-JH-QH"))
    assert hand.result.outcome == "knock"
    assert hand.result.deadwood[0] == 5


# -- Big Gin --------------------------------------------------------------------------------------


def test_big_gin_only_where_the_rules_have_it():
    the_deal = deal([GIN_10, DEFENDER_14], "6S", "5C")
    hand = play(OK, 1, the_deal, ["0 pass", "1 pass", "0 draw"])
    assert not any(str(a).endswith("big-gin") for a in hand.legal_actions())
    illegal(hand, "0 big-gin", "^cannot go Big Gin: these rules have no Big Gin$")
    big = play(PRESETS["oklahoma-big-gin"], 1, the_deal, ["0 pass", "1 pass", "0 draw"])
    assert "0 big-gin" in names(big.legal_actions())
    short = play(PRESETS["oklahoma-big-gin"], 1, deal([KNOCKER_6, DEFENDER_14], "6S", "9C"),
                 ["0 pass", "1 pass", "0 draw"])
    illegal(short, "0 big-gin", "^cannot go Big Gin: 15 deadwood in the hand$")


# -- illegal actions ------------------------------------------------------------------------------


def test_wrong_seat_and_wrong_phase_are_refused():
    hand = play(OK, 1, deal([KNOCKER_6, DEFENDER_14], "KC"), [])
    illegal(hand, "1 pass", "^1 pass: it is seat 0's turn to take or pass the upcard$")
    illegal(hand, "0 draw", "^0 draw: seat 0 must take or pass the upcard now$")
    illegal(hand, "0 discard 6C", "seat 0 must take or pass the upcard now")
    hand.apply(Pass(0))
    hand.apply(Pass(1))
    illegal(hand, "1 draw", "it is seat 0's turn to draw from the stock or take the discard")
    hand.apply(Draw(0))
    illegal(hand, "0 draw", "^0 draw: seat 0 must discard now$")
    illegal(hand, "0 discard AS", "^cannot discard AS: it is not in the hand$")
    illegal(hand, "0 knock AS", "^cannot discard AS: it is not in the hand$")
    illegal(hand, "reshuffle", "the discard pile is not being reshuffled now")


def test_nothing_is_legal_once_the_hand_is_over():
    hand = knock_hand(KNOCKER_6, "6H")
    hand.apply(parse_action("0 knock KD"))
    assert hand.over and hand.to_act is None
    assert hand.legal_actions() == []
    illegal(hand, "1 draw", "^1 draw: the hand is over$")


# -- the end of the stock -------------------------------------------------------------------------


def exhaust(rules: Rules, draws: int, the_deal=None) -> Hand:
    the_deal = the_deal or deal([KNOCKER_6, DEFENDER_14], "KC")
    return play(rules, 1, the_deal, opening(1) + draw_and_discard(the_deal, 0, 0, draws))


def test_the_hand_goes_on_with_three_stock_cards_and_is_void_at_two():
    hand = exhaust(OK, 28)
    assert hand.stock_count == 3 and hand.phase == Phase.DRAW and hand.to_act == 0
    hand.apply(Draw(0))
    hand.apply(Discard(0, hand.deal.stock[28]))
    assert hand.stock_count == 2
    assert hand.over
    assert hand.result.outcome == "void"
    assert hand.result.points == (0, 0) and hand.result.winner is None


def test_a_knock_on_the_last_card_drawn_still_scores():
    the_deal = deal([KNOCKER_6, DEFENDER_14], "KC", at={28: "KD"})
    hand = exhaust(OK, 28, the_deal)
    hand.apply(Draw(0))
    assert hand.stock_count == 2
    hand.apply(parse_action("0 knock KD"))
    assert hand.result.outcome == "knock" and hand.result.points == (8, 0)


LAST_CHANCE = OK.replace(last_chance_knock=True)
# Seat 1 knocks with 5 (the 5S) once it has QH (the 29th stock card, which seat 0 throws).
CHANCER = "2C 3C 4C 7D 7H 7S TH JH 5S KD"
VICTIM = "4D 5D 6D 8S 8D 8H 6S 2D 3H 4H"


def last_chance_hand() -> Hand:
    the_deal = deal([VICTIM, CHANCER], "9D", at={28: "QH"})
    hand = play(LAST_CHANCE, 1, the_deal, opening(1) + draw_and_discard(the_deal, 0, 0, 29))
    assert hand.stock_count == 2 and hand.discards[-1] == parse_card("QH")
    return hand


def test_last_chance_take_and_knock():
    hand = last_chance_hand()
    assert (hand.phase, hand.to_act) == (Phase.LAST_CHANCE, 1)
    assert hand.legal_actions() == [Pass(1), Take(1)]
    illegal(hand, "1 draw", "seat 1 must take the final discard to knock, or pass now")
    hand.apply(Take(1))
    hand.apply(parse_action("1 knock KD"))
    result = hand.result
    assert result.outcome == "knock" and result.winner == 1
    assert result.deadwood == (15, 5)
    assert result.points == (0, 10)


def test_last_chance_pass_voids_the_hand():
    hand = last_chance_hand()
    hand.apply(Pass(1))
    assert hand.result.outcome == "void"


def test_last_chance_take_then_plain_discard_voids_the_hand():
    hand = last_chance_hand()
    hand.apply(Take(1))
    illegal(hand, "1 discard QH", "just taken")
    hand.apply(parse_action("1 discard KD"))
    assert hand.over and hand.result.outcome == "void"


def test_without_last_chance_the_same_hand_is_void():
    the_deal = deal([VICTIM, CHANCER], "9D", at={28: "QH"})
    hand = play(OK, 1, the_deal, opening(1) + draw_and_discard(the_deal, 0, 0, 29))
    assert hand.result.outcome == "void"


RESHUFFLE = PRESETS["oklahoma-reshuffle"]


def test_reshuffle_puts_the_pile_under_the_two_stock_cards_once():
    the_deal = deal([KNOCKER_6, DEFENDER_14], "KC")
    hand = exhaust(RESHUFFLE, 29, the_deal)
    assert hand.phase == Phase.RESHUFFLE and hand.to_act is None
    assert hand.legal_actions() == []
    illegal(hand, "1 draw", "the discard pile must be reshuffled first")
    top = hand.discards[-1]
    pile = sorted(hand.discards[:-1])
    assert len(pile) == 29
    with pytest.raises(IllegalActionError, match="the discard pile but its top card, 29 cards"):
        hand.apply(Reshuffle(tuple(pile[1:])))
    with pytest.raises(IllegalActionError, match="the discard pile but its top card"):
        hand.apply(Reshuffle((*pile[1:], top)))
    play_chance(hand, random.Random(3))
    assert isinstance(hand.actions[-1], Reshuffle)
    assert sorted(hand.actions[-1].stock) == pile
    assert hand.discards == (top,)
    assert hand.stock_count == 31
    assert hand.stock()[:2] == list(the_deal.stock[29:31])
    assert sorted(hand.stock()[2:]) == pile
    assert (hand.phase, hand.to_act) == (Phase.DRAW, 1)  # after seat 0, who threw last
    # The second time the stock is down to two, the hand is void.
    for i in range(29):
        seat = (1 + i) % 2
        hand.apply(Draw(seat))
        hand.apply(Discard(seat, _last_drawn(hand, seat)))
    assert hand.over and hand.result.outcome == "void"
    assert sum(isinstance(a, Reshuffle) for a in hand.actions) == 1


def _last_drawn(hand: Hand, seat: int):
    """The card seat just drew: the one in its hand that was not there at the deal."""
    dealt = set(hand.deal.hands[seat])
    extra = [c for c in hand.cards_of(seat) if c not in dealt]
    assert len(extra) == 1
    return extra[0]


def test_reshuffle_action_is_a_permutation_of_the_pile():
    hand = exhaust(RESHUFFLE, 29)
    action = reshuffle_action(hand, random.Random(9))
    assert sorted(action.stock) == sorted(hand.discards[:-1])
    assert action.public == "reshuffle"


def test_the_deal_must_hold_every_card_once():
    from okgin.errors import RecordError
    from okgin.hand import Deal

    good = deal([KNOCKER_6, DEFENDER_14], "KC")
    with pytest.raises(RecordError, match="the deal holds 6C twice"):
        Hand(OK, 0, Deal(good.hands, good.upcard, (parse_card("6C"), *good.stock[1:])))
    with pytest.raises(RecordError, match="the deal holds 51 cards, not 52"):
        Hand(OK, 0, Deal(good.hands, good.upcard, good.stock[1:]))
    with pytest.raises(RecordError, match="seat 1 is dealt 9 cards, the rules deal 10"):
        Hand(OK, 0, Deal((good.hands[0], good.hands[1][1:]), good.upcard, (*good.stock, good.hands[1][0])))
    with pytest.raises(RecordError, match="the deal has 2 hands for 3 players"):
        Hand(OK.replace(players=3), 0, good)
    with pytest.raises(RecordError, match="dealer 2 is not a seat of 2 players"):
        Hand(OK, 2, good)
    assert len(DECK) == 52


# -- the unchecked path -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_legal_plays_exactly_as_apply(name, players):
    # apply_legal skips the checks for callers that took the action from legal_actions()
    # (the RL environment): given such actions, every state and result must be apply's.
    from okgin.hand import Deal

    rules = PRESETS[name].replace(players=players)
    for seed in range(12):
        rng = random.Random(seed)
        deal_ = Deal.shuffle(rules, rng)
        checked, unchecked = Hand(rules, seed % players, deal_), Hand(rules, seed % players, deal_)
        while not checked.over:
            if checked.phase == Phase.RESHUFFLE:
                action = reshuffle_action(checked, rng)
                checked.apply(action)
                unchecked.apply(action)
            else:
                legal = checked.legal_actions()
                assert unchecked.legal_actions() == legal
                assert unchecked.must_draw == (legal == [Draw(checked.to_act)])
                action = rng.choice(legal)
                checked.apply(action)
                unchecked.apply_legal(action)
            assert unchecked.phase == checked.phase and unchecked.to_act == checked.to_act
            assert unchecked.taken == checked.taken
            assert unchecked.discards == checked.discards and unchecked.stock() == checked.stock()
            assert unchecked.top_discard == (checked.discards[-1] if checked.discards else None)
            assert [unchecked.hand_mask(s) for s in range(players)] == [
                checked.hand_mask(s) for s in range(players)
            ]
        assert unchecked.actions == checked.actions
        assert unchecked.public_actions == checked.public_actions
        assert unchecked.result == checked.result
