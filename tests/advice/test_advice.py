"""Explained advice: hand-written positions with the exact advice and reason, and a property
test that the analysis is the same whatever the hidden cards are."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_coach import THEIRS, make_hand

from okgin.actions import Discard, Draw, Pass, Take
from okgin.advice import Analysis, analyse
from okgin.cards import DECK, Card, parse_cards
from okgin.hand import Deal, Hand
from okgin.record import replay_text
from okgin.rules import PRESETS, Rules
from okgin.view import seat_view

NAMES = ("You", "Ruby")
MINE = "8H 9H 4C 4D 4S 2S 3S AS KC QD"
OTHER = THEIRS.replace("AS", "KS")
RECORDS = Path(__file__).parents[1] / "records"


def advise(hand: Hand, seat: int = 0) -> Analysis:
    return analyse(seat_view(hand, seat), NAMES)


def after_draw(
    mine: str, upcard: str, top: str, rules: Rules | None = None, theirs: str = OTHER
) -> Hand:
    hand = make_hand(mine, theirs, upcard, top=top)
    if rules is not None:
        hand = Hand(rules, 1, hand.deal)
    for action in (Pass(0), Pass(1), Draw(0)):
        hand.apply(action)
    return hand


def text(got: Analysis) -> str:
    assert got.suggestion is not None
    return got.suggestion.text


def kinds(got: Analysis, card: str | None = None) -> set[str]:
    return {w.kind for w in got.warnings if (w.card and str(w.card)) == card}


def test_take_a_card_that_completes_a_meld() -> None:
    got = advise(make_hand(MINE, OTHER, "7H"))
    assert got.suggestion is not None and got.suggestion.action == Take(0)
    assert text(got) == "Take the 7♥: it completes 7♥ 8♥ 9♥ and drops your deadwood from 37 to 10."


def test_take_a_card_one_from_a_meld() -> None:
    got = advise(make_hand(MINE, OTHER, "JD"))
    assert text(got) == ("Take the J♦: with your Q♦ it is one card from a meld, "
                         "and your deadwood stays 37 after your best discard.")


def test_pass_a_card_that_does_not_help() -> None:
    got = advise(make_hand(MINE, OTHER, "JC"))
    assert got.suggestion is not None and got.suggestion.action == Pass(0)
    assert text(got) == "Pass: the J♣ joins no meld of yours, so it would not lower your 37 deadwood."
    assert advise(make_hand(MINE, OTHER, "JC"), seat=1).suggestion is None  # not its turn


def test_discard_the_least_deadwood_nobody_wants() -> None:
    got = advise(after_draw("7H 8H 9H 4C 4D KS QD 2S 5C JC", "9C", "TH", theirs=THEIRS))
    assert got.suggestion is not None and got.suggestion.action == Discard(0, Card.parse("KS"))
    assert text(got) == ("Discard the K♠: it leaves 35 deadwood, the least you can, "
                         "and Ruby has shown no sign of wanting it.")
    row = next(r for r in got.discards if str(r.card) == "KS")
    assert row.deadwood == 35 and not row.can_knock and [s for s, _ in row.wanted] == [1]
    assert [tuple(map(str, m)) for m in row.melds] == [("7H", "8H", "9H", "TH")]


def test_go_gin_and_warn_against_passing_it() -> None:
    got = advise(after_draw("7H 8H 9H 4C 4D 4S 2S 3S AS KC", "5D", "TH"))
    assert text(got) == ("Go gin by discarding the K♣: all ten cards meld, "
                         "worth 25 plus the others' deadwood.")
    assert [w.text for w in got.warnings if w.kind == "pass-gin"] == [
        "You can go gin by discarding the K♣: a plain discard passes it up."
    ]
    breaks = {str(w.card): w.text for w in got.warnings if w.kind == "break-meld"}
    assert breaks["8H"] == "Discarding the 8♥ breaks one of your melds."
    assert "KC" not in breaks and "7H" not in breaks  # 8♥ 9♥ 10♥ stay a run without the 7♥
    gin = next(r for r in got.discards if r.gin)
    assert str(gin.card) == "KC" and gin.deadwood == 0 and gin.can_knock


def test_big_gin_where_the_rules_have_it() -> None:
    got = advise(after_draw("7H 8H 9H 4C 4D 4S 2S 3S AS JH", "5D", "TH", PRESETS["oklahoma-big-gin"]))
    assert text(got) == "Go Big Gin: all eleven cards meld, with no discard."


def test_knock_with_little_risk_and_warn_against_passing_it() -> None:
    got = advise(after_draw("7H 8H 9H 4C 4D 4S 2S 3S AS KC", "TD", "5D"))
    assert text(got) == ("Knock, discarding the K♣: 5 deadwood, and an undercut in only about 0% "
                         "of likely deals (worth about +55 points).")
    assert [w.text for w in got.warnings if w.kind == "pass-knock"] == [
        "Knocking is the better play here: a plain discard passes up a knock with the K♣."
    ]


def test_play_on_rather_than_a_knock_likely_undercut() -> None:
    match, names = replay_text((RECORDS / "coach_undercut.json").read_text(encoding="utf-8"))
    got = analyse(match.view(0), names)
    assert text(got) == ("Discard the 4♥ and play on rather than knock with 10: playing on is worth "
                         "about +4 points against -14 for the knock, which would be undercut in "
                         "about 69% of likely deals.")
    undercut = [w.text for w in got.warnings if w.kind == "undercut"]
    assert undercut == ["A knock now risks an undercut: about 69% of likely deals leave an "
                        "opponent with as little deadwood."]


def test_feeding_a_card_next_to_one_the_opponent_took() -> None:
    hand = make_hand("7H 8H 9H 4C 4D 4S 2S 3S AS 6C", THEIRS.replace("AS", "KC"), "7C", top="KD")
    for action in (Pass(0), Take(1), Discard(1, Card.parse("AH")), Draw(0)):
        hand.apply(action)
    got = advise(hand)
    feeds = [w.text for w in got.warnings if w.kind == "feed" and str(w.card) == "6C"]
    assert feeds == ["Careful: Ruby took the 7♣; the 6♣ may help them."]
    assert "feed" not in kinds(got, "KD")


def test_near_melds_count_live_outs() -> None:
    # The 8♣ and 9♣ want the 7♣ (the upcard the opponent took: seen, so dead) or the 10♣
    # (unseen: live); the queens want the two other queens.
    hand = make_hand("7H 8H 9H 4C 4D 4S 8C 9C QD QH", THEIRS.replace("AS", "KC"), "7C", top="KD")
    for action in (Pass(0), Take(1), Discard(1, Card.parse("AH"))):
        hand.apply(action)
    got = advise(hand)
    near = {tuple(map(str, n.cards)): (list(map(str, n.outs)), list(map(str, n.live)))
            for n in got.near_melds}
    assert near[("QD", "QH")] == (["QC", "QS"], ["QC", "QS"])
    assert near[("8C", "9C")] == (["7C", "TC"], ["TC"])


def test_low_stock_and_spade_double() -> None:
    got = advise(make_hand(MINE, THEIRS.replace("AS", "KH"), "7S"))
    assert [w.text for w in got.warnings if w.kind == "double"] == [
        "The upcard was the 7♠: spades double, so everything this hand scores counts twice."
    ]
    hand = make_hand(MINE, OTHER, "JS")
    hand.apply(Pass(0))
    hand.apply(Pass(1))
    while hand.stock_count > 6:  # each seat draws and throws the card it drew
        seat = hand.to_act or 0
        before = hand.hand_mask(seat)
        hand.apply(Draw(seat))
        hand.apply(Discard(seat, DECK[(hand.hand_mask(seat) & ~before).bit_length() - 1]))
    again = hand
    stock = [w.text for w in advise(again).warnings if w.kind == "stock"]
    assert stock == [f"Only {again.stock_count} cards are left in the stock: the hand ends with no "
                     "score when two are left."]


# -- the hidden cards never matter ------------------------------------------------------------

SEEN = parse_cards("7H 8H 9H 4C 4D 4S 2S 3S AS KC") + parse_cards("TD 5D")


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_analysis_is_the_same_whatever_the_hidden_cards(rng: random.Random) -> None:
    """Seat 0 sees its hand, the upcard and the card it draws; the rest are dealt at random."""
    hidden = [c for c in DECK if c not in SEEN]
    rng.shuffle(hidden)
    mine, upcard, drawn = SEEN[:10], SEEN[10], SEEN[11]
    deal = Deal((tuple(mine), tuple(hidden[:10])), upcard, (drawn, *hidden[10:]))
    hand = Hand(Rules(), 1, deal)
    first = advise(hand)
    for action in (Pass(0), Pass(1), Draw(0)):
        hand.apply(action)
    got = advise(hand)
    assert got == BASELINE[1] and first == BASELINE[0]


def _baseline() -> tuple[Analysis, Analysis]:
    others = [c for c in DECK if c not in SEEN]
    deal = Deal((tuple(SEEN[:10]), tuple(others[:10])), SEEN[10], (SEEN[11], *others[10:]))
    hand = Hand(Rules(), 1, deal)
    first = advise(hand)
    for action in (Pass(0), Pass(1), Draw(0)):
        hand.apply(action)
    return first, advise(hand)


BASELINE = _baseline()


def test_three_players_each_opponent_is_weighed_and_named() -> None:
    rules = PRESETS["oklahoma-multiplayer"]
    hand = Hand(rules, 2, Deal.shuffle(rules, random.Random(2)))
    hand.apply(Pass(0))
    hand.apply(Pass(1))
    hand.apply(Pass(2))
    hand.apply(Draw(0))
    got = analyse(seat_view(hand, 0), ("You", "Ruby", "Sam"))
    assert got.discards and all([seat for seat, _ in row.wanted] == [1, 2] for row in got.discards)
    assert text(got).endswith(", and neither Ruby nor Sam has shown any sign of wanting it.")


# -- the coach agrees with itself (issue 14) ----------------------------------------------------

RISKY = {"feed", "break-meld", "pass-gin", "pass-knock"}


def ruby_took_the_queen() -> Hand:
    """Ruby took the Q♥ upcard (holding the Q♦ and Q♣, unseen); you drew the 10♣. The Q♠ and
    the J♣ leave the same deadwood, but the Q♠ goes with Ruby's queen."""
    hand = make_hand("7H 8H 9H 4C 4D 4S 2S 3S QS JC", "QD QC AC 2C 3C AD 2D 3D AH 2H", "QH", top="TC")
    for action in (Pass(0), Take(1), Discard(1, Card.parse("AH")), Draw(0)):
        hand.apply(action)
    return hand


def test_the_hint_heads_the_discard_table_and_is_never_warned_against() -> None:
    got = advise(ruby_took_the_queen())
    assert got.suggestion is not None and got.suggestion.action == Discard(0, Card.parse("JC"))
    assert str(got.discards[0].card) == "JC"
    assert not [w for w in got.warnings if w.kind in RISKY and w.card in (None, Card.parse("JC"))]
    assert "feed" in kinds(got, "QS")  # the card it steers you from is still warned against
    queen = next(r for r in got.discards if str(r.card) == "QS")
    assert queen.deadwood == got.discards[0].deadwood and queen.wanted[0][1] > 0.5
    assert text(got) == ("Discard the J♣: it leaves 25 deadwood, the least you can; the Q♠ leaves "
                         "as little but would go with the Q♥ Ruby picked up (a meld for them in "
                         "about 84% of likely deals).")


def test_values_rank_the_same_way_as_the_suggestion() -> None:
    positions = [
        ruby_took_the_queen(),
        make_hand("2C 3C 2D 3D 4D 2H 9S TS JS QS", "5C 6C 7C 5H 6H 7H 8D 8S 8C KH", "4C"),
        after_draw("7H 8H 9H 4C 4D 4S 2S 3S AS KC", "TD", "5D"),
    ]
    for hand in positions:
        got = advise(hand)
        assert got.suggestion is not None
        worths = [value for _, value in got.suggestion.values]
        assert got.suggestion.values[0][0] == got.suggestion.action
        assert worths == sorted(worths, reverse=True)
        weighed = [row.worth for row in got.discards if row.worth is not None]
        assert weighed == sorted(weighed, reverse=True)


def test_the_least_deadwood_counts_only_cards_that_may_be_discarded() -> None:
    # The K♥ just taken cannot go back: throwing it would leave 28, but of the legal discards
    # the 9♥ leaves the least, 29.
    hand = make_hand("8H 9H 4C 4D 4S 2S 3S AS 5C 6D", "5H 6H 7H 8D 8S 8C KD 6C 7C 9D", "KH")
    hand.apply(Take(0))
    got = advise(hand)
    assert min(row.deadwood for row in got.discards) == 29
    assert text(got).startswith("Discard the 6♦: it leaves 32 deadwood (3 more than the least) but "
                                "keeps more ways to meld: about +12 points against +3 for the 9♥")


def test_every_seat_name_takes_its_own_verb() -> None:
    hand = after_draw("7H 8H 9H 4C 4D KS QD 2S 5C JC", "9C", "TH", theirs=THEIRS)
    assert text(analyse(seat_view(hand, 0), ("Ruby", "You"))).endswith(
        ", and you have shown no sign of wanting it.")
    assert text(analyse(seat_view(hand, 0), ("Ruby", "Sam"))).endswith(
        ", and Sam has shown no sign of wanting it.")


def test_over_whole_hands_the_hint_tops_the_table_its_values_and_no_warning() -> None:
    """Every decision of seat 0 in three hands `normal` plays against itself."""
    from okgin.actions import Knock
    from okgin.bots import make_player
    from okgin.hand import play_chance
    checked = 0
    for seed in range(3):
        hand = Hand(Rules(), 1, Deal.shuffle(Rules(), random.Random(seed)))
        players = [make_player("normal", random.Random(seed + s)) for s in range(2)]
        while not hand.over:
            seat = hand.to_act or 0
            view = seat_view(hand, seat)
            if seat == 0 and len(view.legal) > 1:
                got = analyse(view, NAMES)
                assert got.suggestion is not None
                action, values = got.suggestion.action, got.suggestion.values
                assert values[0][0] == action and [v for _, v in values] == sorted(
                    (v for _, v in values), reverse=True)
                if isinstance(action, (Discard, Knock)):
                    assert got.discards[0].card == action.card
                if isinstance(action, Discard):
                    assert not [w for w in got.warnings
                                if w.kind in RISKY and w.card in (None, action.card)]
                checked += 1
            hand.apply(players[seat].act(view))
            play_chance(hand, random.Random(seed))
    assert checked > 30
