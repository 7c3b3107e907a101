"""Soak: many random-legal hands per preset without an exception.

300 hands per preset by default; set ``OKGIN_SOAK=10000`` for the long run.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter

import pytest

from okgin.bots.random_player import RandomPlayer
from okgin.cards import DECK
from okgin.hand import Deal, Hand
from okgin.rules import PRESET_NAMES, PRESETS
from okgin.runner import play_hand
from okgin.scoring import Outcome

HANDS = int(os.environ.get("OKGIN_SOAK", "300"))


def accounted(hand: Hand) -> list:
    """Every card: the hands, the stock, the pile, and a knock's face-down discard."""
    cards = [c for seat in range(hand.players) for c in hand.cards_of(seat)]
    cards += hand.stock() + list(hand.discards)
    last = hand.actions[-1] if hand.actions else None
    if hand.result is not None and hand.result.outcome in (Outcome.KNOCK, Outcome.GIN, Outcome.UNDERCUT):
        cards.append(last.card)
    for _, laid in hand.result.layoffs if hand.result else ():
        cards += laid
    return cards


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_soak_random_legal_hands(name):
    rules = PRESETS[name]
    rng = random.Random(f"soak {name}")
    players = [RandomPlayer(random.Random(f"{name} {seat}")) for seat in range(rules.players)]
    outcomes: Counter[str] = Counter()
    started = time.perf_counter()
    for number in range(HANDS):
        hand = Hand(rules, number % rules.players, Deal.shuffle(rules, rng))
        play_hand(hand, players, rng)
        result = hand.result
        assert result is not None, f"hand {number} did not end"
        outcomes[str(result.outcome)] += 1
        cards = accounted(hand)
        assert sorted(cards) == list(DECK), f"hand {number}: cards lost or doubled"
        if result.outcome == Outcome.VOID:
            assert result.points == (0,) * rules.players
        else:
            assert result.points[result.winner] >= 0
            assert result.deadwood[result.knocker] <= hand.knock_limit
    seconds = time.perf_counter() - started
    print(f"\nsoak {name}: {HANDS} hands in {seconds:.1f}s, outcomes {dict(sorted(outcomes.items()))}")
    assert sum(outcomes.values()) == HANDS
