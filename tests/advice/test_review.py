"""The hand review: known blunders are found, `hard`'s own play is not blamed, no peeking,
and `okgin coach` prints it for any record (bad input: one line, no traceback)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okgin.advice.review import MISTAKE, review_hand, review_json, review_match
from okgin.bots import make_player
from okgin.bots.knock_search import KnockSearchPlayer
from okgin.cli import main
from okgin.errors import OkginError
from okgin.hand import Deal, Hand, play_chance
from okgin.match import Match
from okgin.record import loads, replay_text
from okgin.rules import Rules, preset
from okgin.runner import play_hand

RECORDS = Path(__file__).parents[1] / "records"


def replayed(name: str) -> Match:
    return replay_text((RECORDS / name).read_text(encoding="utf-8"))[0]


def test_passing_gin_is_found_and_is_the_costliest() -> None:
    review = review_match(replayed("coach_pass_gin.json"), 0, ("You", "Ruby"))[0]
    worst = review.mistakes[0]
    assert str(worst.chosen) == "0 discard 2C" and str(worst.suggested) == "0 knock 2C"
    assert worst.cost > 10
    assert worst.reason.startswith("Go gin by discarding the 2♣: all ten cards meld")


def test_discarding_into_the_opponents_meld_is_found() -> None:
    review = review_match(replayed("coach_feed.json"), 0, ("You", "Ruby"))[0]
    worst = review.mistakes[0]  # the costliest; `normal`'s own play around it may cost too
    assert str(worst.chosen) == "0 discard 6D" and str(worst.suggested) == "0 discard 3D"
    assert worst.cost >= MISTAKE
    assert worst.reason.startswith("Over likely deals, discarding the 3♦ is worth about ")
    assert "rather than the 6♦, which would complete the 6♣ 6♠ Ruby picked up." in worst.reason


def test_passing_an_upcard_that_melds_is_found_with_its_cost() -> None:
    review = review_match(replayed("coach_pass_offer.json"), 0)[0]
    worst = review.mistakes[0]
    assert (str(worst.chosen), str(worst.suggested)) == ("0 pass", "0 take")
    assert worst.move == 1 and worst.cost >= 20  # the 7♣ takes 47 deadwood to 14


def test_taking_a_discard_that_joins_nothing_is_found_with_its_cost() -> None:
    review = review_match(replayed("coach_take_nothing.json"), 0)[0]
    found = [d for d in review.mistakes if d.move == 43]
    assert [(str(d.chosen), str(d.suggested)) for d in found] == [("0 take", "0 draw")]
    assert found[0].cost >= 5  # the 9♠ lifts 9 deadwood to 14 at stock 13


def hard_hand(seed: int, level: str | None = None) -> Hand:
    """One hand of the default rules played in both seats by the knock search (`hard` before
    issue 27 gave it its close-move search; these hands were worked out on it), or by ``level``."""
    match = Match(Rules(), first_dealer=1)
    hand = match.deal_next(random.Random(seed))
    players = [KnockSearchPlayer(random.Random(seed + s)) if level is None else
               make_player(level, random.Random(seed + s)) for s in range(2)]
    while not hand.over:
        seat = hand.to_act or 0
        match.apply(players[seat].act(match.view(seat)))
        play_chance(hand, random.Random(seed))
    return hand


def test_a_hand_played_by_hard_shows_no_costly_mistake() -> None:
    # Nothing at the 5 points a real blunder costs: since the draws are priced by the best of
    # three ways of playing on (issue 18), the review prices one draw of `hard`'s here 3.6 points
    # below taking the 7♣ (47 deadwood to 45).
    hand = hard_hand(3)
    for seat in (0, 1):
        review = review_hand(hand, seat)
        assert review.decisions > 2
        assert all(d.cost < 5 for d in review.mistakes), [(str(d.chosen), d.cost) for d in review.mistakes]


def test_a_review_names_the_lower_deadwood_it_preferred() -> None:
    # Seed 0: `hard` (seat 1) throws the 4♥ keeping 27 deadwood where the 5♣ leaves 26. The
    # coach judges `hard`'s close discards by `hard`'s own function on its own guesses of the
    # next seat's hand, which here prefer the 5♣; the play-outs then price the 4♥ about 6 points
    # worse (below the mistake line before the coach used `hard`'s function).
    found = review_hand(hard_hand(0), 1, 1, ("You", "Ruby")).mistakes
    (lower,) = [d for d in found if str(d.chosen) == "1 discard 4H"]
    assert str(lower.suggested) == "1 discard 5C"
    assert lower.reason.startswith("The 4♥ left 27 deadwood where the 5♣ leaves 26. Discard the 5♣")


def test_a_lower_threshold_lists_the_smaller_disagreements_too() -> None:
    # Seed 6: `hard` (seat 1) draws at its move 31 where the coach would take, about 2.6 points
    # better by the play-outs: under the mistake line, listed when every disagreement is asked for.
    hand = hard_hand(6)
    below = [d for d in review_hand(hand, 1, threshold=2.0).mistakes if d.move == 31]
    assert [(str(d.chosen), str(d.suggested)) for d in below] == [("1 draw", "1 take")]
    assert 2.0 <= below[0].cost < MISTAKE
    assert all(d.move != 31 for d in review_hand(hand, 1).mistakes)


@pytest.mark.slow
def test_a_computer_players_own_play_is_seldom_called_a_mistake() -> None:
    # Not never: issue 27 asks at most 3% of the decisions of the levels that search their close
    # moves. Over these 8 hands (measured, docs/coach.md) 8 of `hard`'s 395 cost at least MISTAKE
    # points by the review's judgment (2.0%; 40 of 1,516 over 40 hands, 2.6%), most of them
    # discards and takes (the coach prices a draw by the best of three ways of playing on, `hard`
    # by one). `expert` on the same hands, 10 of its 355 (2.8%), is measured by
    # bench/bench_own_play.py: its play costs four times `hard`'s, the suite's dearest test. (The
    # knock search alone, `hard` until issue 27: 8 of 380, 2.1%, where issue 18 asked at most 3%.)
    hands = [hard_hand(seed, "hard") for seed in range(8)]  # each played once, reviewed from both seats
    reviews = [review_hand(hand, seat) for hand in hands for seat in (0, 1)]
    decisions = sum(review.decisions for review in reviews)
    mistakes = sum(len(review.mistakes) for review in reviews)
    assert decisions > 150
    assert mistakes <= 0.03 * decisions, (mistakes, decisions)


def test_a_review_shows_each_view_the_points_won_toward_the_target() -> None:
    # Under penalty scoring a seat's total and the points it has won differ (penalties do not
    # count toward the target); `hard`'s model of the match reads the points won, so the views
    # a review judges from must carry them as the table showed them.
    rules = preset("oklahoma-multiplayer")
    match = Match(rules, first_dealer=0)
    players = [make_player("simple", random.Random(seat)) for seat in range(rules.players)]
    rng = random.Random(4)
    won_before = []
    while len(won_before) < 4 and not match.over:
        won_before.append(match.won)
        play_hand(match.deal_next(rng), players, rng, match.totals, match, match.won)
    reviews = review_match(match, 0, threshold=0.0)
    seen = [(review.hand, d.view.won, d.view.scores) for review in reviews for d in review.mistakes]
    assert seen and all(won == won_before[number - 1] for number, won, _ in seen), seen
    assert any(won != scores for _, won, scores in seen), seen  # the case that matters


@settings(max_examples=3, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_review_never_peeks_at_cards_seat_0_never_saw(rng: random.Random) -> None:
    """Shuffle the cards still in the stock when the hand ended: the review is unchanged."""
    hand = replayed("coach_feed.json").hands[0]
    left = hand.stock()
    rng.shuffle(left)
    stock = hand.deal.stock[: len(hand.deal.stock) - len(left)] + tuple(left)
    again = Hand(hand.rules, hand.dealer, Deal(hand.deal.hands, hand.deal.upcard, stock))
    for action in hand.actions:
        again.apply(action)
    assert review_json(review_hand(again, 0)) == FEED_REVIEW


FEED_REVIEW = review_json(review_hand(replayed("coach_feed.json").hands[0], 0))


def test_okgin_coach_prints_the_review(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", str(RECORDS / "coach_pass_gin.json")]) == 0
    out = capsys.readouterr().out
    assert "played: discard the 2♣; better: knock with the 2♣" in out
    assert main(["coach", str(RECORDS / "coach_pass_gin.json"), "--json", "--hand", "1", "--seat", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == ["You", "Ruby"] and data["reviews"][0]["seat"] == 1


@pytest.mark.parametrize(("args", "message"), [
    (["missing.json"], "okgin coach: cannot read missing.json: No such file or directory"),
    ([str(RECORDS / "coach_feed.json"), "--hand", "4"], "okgin coach: no hand 4: the record has 1 hand"),
    ([str(RECORDS / "coach_feed.json"), "--seat", "2"],
     "okgin coach: no seat 2: the record has seats 0 to 1"),
])
def test_okgin_coach_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coach", *args]) == 2
    assert capsys.readouterr().err.strip() == message


def test_a_record_that_does_not_replay_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = loads((RECORDS / "coach_feed.json").read_text(encoding="utf-8"))
    record["hands"][0]["actions"][3] = "0 discard ZZ"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["coach", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("okgin coach: hand 1, action 4")


def test_review_rejects_a_seat_that_is_not_there() -> None:
    with pytest.raises(OkginError, match="seat 3 is not a seat of 2 players"):
        review_hand(replayed("coach_feed.json").hands[0], 3)


# -- reasons that name what decided them, and where each mistake was (issue 14) -----------------

THEIRS = "5C 6C 7C 5D 6D 7D 8D 8S 8C KH"


def _dealt(mine: str, theirs: str, upcard: str, top: str) -> Hand:
    """A hand dealt by seat 1 whose stock starts with ``top`` (seat 0 acts first)."""
    from okgin.cards import DECK, Card, parse_cards
    hands = (tuple(parse_cards(mine)), tuple(parse_cards(theirs)))
    first = parse_cards(top)
    used = {*hands[0], *hands[1], Card.parse(upcard), *first}
    stock = (*first, *(c for c in DECK if c not in used))
    return Hand(Rules(), 1, Deal(hands, Card.parse(upcard), stock))


def test_a_knock_with_nine_where_one_was_there_says_so() -> None:
    from okgin.actions import Draw, Knock, Pass
    from okgin.cards import Card
    hand = _dealt("7H 8H 9H 4C 4D 4S 2S 3S AS 9C", THEIRS, "TD", top="AC")
    for action in (Pass(0), Pass(1), Draw(0), Knock(0, Card.parse("AC"))):
        hand.apply(action)
    knock = next(d for d in review_hand(hand, 0, 2, ("You", "Ruby")).mistakes if d.move == 4)
    assert str(knock.suggested) == "0 knock 9C" and knock.cost >= MISTAKE
    assert knock.reason.startswith("Knock with 1, not 9: discarding the 9♣ leaves 1 deadwood "
                                   "where the A♣ left 9.")
    assert knock.turn == 2
    assert review_json(review_hand(hand, 0, 2, ("You", "Ruby")))["mistakes"][0]["when"] == (
        "Hand 2, your 2nd turn")


def test_feeding_the_next_seat_names_the_card_and_what_it_goes_with() -> None:
    from okgin.actions import Discard, Draw, Pass, Take
    from okgin.cards import Card
    hand = _dealt("7H 8H 9H 4C 4D 4S 2S 3S QS JC", "QD QC AC 2C 3C AD 2D 3D AH 2H", "QH", top="5D")
    for action in (Pass(0), Take(1), Discard(1, Card.parse("AH")), Draw(0), Discard(0, Card.parse("QS"))):
        hand.apply(action)
    every = review_hand(hand, 0, 1, ("You", "Ruby"), threshold=0.0)
    assert every.decisions == 3  # the offer, the draw, the discard: all listed at threshold 0
    fed = next(d for d in every.mistakes if d.move == 5)
    assert str(fed.suggested) == "0 discard JC" and fed.cost > 0
    assert fed.reason.startswith("Over likely deals, discarding the J♣ is worth about ")
    assert "the Q♠ leaves as little but would go with the Q♥ Ruby picked up (a meld for them" in (
        fed.reason)


def test_the_review_counts_a_seats_turns_and_names_it() -> None:
    from okgin.actions import Draw, Pass, Take
    from okgin.advice.review import ordinal, review_text
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    match = replayed("coach_feed.json")
    review = review_match(match, 0, ("You", "Ruby"))[0]
    mistake = review.mistakes[0]
    before = match.hands[0].actions[: mistake.move]
    turns = sum(isinstance(a, (Pass, Draw, Take)) and a.seat == 0 for a in before)
    assert mistake.turn == turns > 1
    assert f"  Hand 1, your {ordinal(turns)} turn (move {mistake.move}): holding " in review_text(
        review, ("You", "Ruby"))
    theirs = review_hand(match.hands[0], 1, 1, ("You", "Ruby"), threshold=0.0)
    assert review_json(theirs, ("You", "Ruby"))["mistakes"][0]["when"].startswith("Hand 1, Ruby's ")
