"""Properties of random play (hypothesis): cards are conserved, records replay, legality is exact."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from okgin.actions import BigGin, Discard, Draw, Knock, Pass, Reshuffle, Take
from okgin.cards import DECK
from okgin.errors import IllegalActionError
from okgin.hand import Deal, Hand, Phase, play_chance, reshuffle_action
from okgin.match import Match
from okgin.record import dumps, loads, match_to_record, replay, report
from okgin.rules import PRESET_NAMES, PRESETS
from okgin.scoring import Outcome

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
presets = st.sampled_from(PRESET_NAMES)
# A seed for the play (hypothesis's own randoms draw too much data for hands this long).
seeds = st.integers(0, 2**32).map(random.Random)
extra_rules = st.sampled_from([
    {}, {"last_chance_knock": True}, {"players": 3}, {"players": 4, "stock_end": "reshuffle"},
    {"big_gin_bonus": 31, "knock_limit": 10}, {"ace_upcard": "one", "boxes": 20},
])


def all_cards(hand: Hand) -> list:
    """Hands, stock, pile, layoffs and a knock's face-down card: every card, once each."""
    cards = [c for seat in range(hand.players) for c in hand.cards_of(seat)]
    cards += hand.stock() + list(hand.discards)
    if hand.result is not None:
        if hand.result.outcome in (Outcome.KNOCK, Outcome.GIN, Outcome.UNDERCUT):
            cards.append(hand.actions[-1].card)
        for _, laid in hand.result.layoffs:
            cards += laid
    return cards


def new_hand(name: str, changes: dict, rng: random.Random) -> Hand:
    rules = PRESETS[name].replace(**changes)
    return Hand(rules, rng.randrange(rules.players), Deal.shuffle(rules, rng))


def choose(hand: Hand, rng: random.Random):
    """A random legal action, leaning towards knocks so that hands end every way."""
    legal = hand.legal_actions()
    ends = [a for a in legal if isinstance(a, Knock | BigGin)]
    if ends and rng.random() < 0.5:
        return rng.choice(ends)
    return rng.choice(legal)


@SETTINGS
@given(presets, extra_rules, seeds)
def test_every_card_is_accounted_for_through_random_play(name, changes, rng):
    hand = new_hand(name, changes, rng)
    while not hand.over:
        assert sorted(all_cards(hand)) == list(DECK)
        play_chance(hand, rng)
        if not hand.over:
            hand.apply(choose(hand, rng))
    assert sorted(all_cards(hand)) == list(DECK)
    result = hand.result
    assert result is not None and len(result.points) == hand.players
    if result.outcome != Outcome.VOID:
        assert result.deadwood[result.knocker] <= hand.knock_limit


@SETTINGS
@given(presets, seeds)
def test_replaying_a_record_gives_the_same_result(name, rng):
    rules = PRESETS[name]
    match = Match(rules, first_dealer=rng.randrange(rules.players))
    for _ in range(rng.randrange(1, 4)):
        if match.over:
            break
        hand = match.deal_next(rng)
        while match.current is not None:
            play_chance(hand, rng)
            if not hand.over:
                match.apply(choose(hand, rng))
    rec = match_to_record(match, [f"p{s}" for s in range(rules.players)])
    again, _ = replay(loads(dumps(rec)))
    assert report(again) == report(match)
    assert [h.result for h in again.hands] == [h.result for h in match.hands]
    assert again.final == match.final


def snapshot(hand: Hand) -> tuple:
    return (
        hand.phase, hand.to_act, hand.taken, [hand.hand_mask(s) for s in range(hand.players)],
        hand.stock(), hand.discards, list(hand.actions), [list(p) for p in hand.picked],
        hand.legal_actions(), hand.result,
    )


def random_action(hand: Hand, rng: random.Random):
    """Any action at all, mostly illegal: every verb, any seat (one past the table too), any card."""
    seat = rng.randrange(hand.players + 1)
    card = rng.choice(DECK)
    if rng.random() < 0.5 and hand.to_act is not None:  # often the right seat, one of its cards
        seat = hand.to_act
        card = rng.choice(hand.cards_of(seat))
    kind = rng.choice([Pass, Take, Draw, Discard, Knock, BigGin])
    if kind in (Discard, Knock):
        return kind(seat, card)
    return kind(seat)


@settings(max_examples=30, deadline=None)
@given(presets, extra_rules, seeds)
def test_only_legal_actions_are_accepted_and_a_refusal_changes_nothing(name, changes, rng):
    hand = new_hand(name, changes, rng)
    while True:
        if hand.phase == Phase.RESHUFFLE:
            before = snapshot(hand)
            for action in (Draw(0), Pass(1), Reshuffle(())):
                assert not hand.can(action)
            assert snapshot(hand) == before
            hand.apply(reshuffle_action(hand, rng))
            continue
        legal = hand.legal_actions()
        for _ in range(12):
            action = random_action(hand, rng)
            assert hand.can(action) == (action in legal), (str(action), [str(a) for a in legal])
            if action not in legal:
                before = snapshot(hand)
                try:
                    hand.apply(action)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{action} was applied though it is not legal")
                assert snapshot(hand) == before
        for action in legal:
            assert hand.can(action), str(action)
        if hand.over:
            assert legal == []
            return
        hand.apply(choose(hand, rng))
