"""okgin.env: PettingZoo's and Gymnasium's own checkers, fair observations, whole decks."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from okgin.actions import Discard, Knock, Reshuffle
from okgin.cards import mask_of
from okgin.env import ACTIONS, OBSERVATION_SIZE, OkginEnv, OkginGymEnv, action_index, encode, legal_mask
from okgin.env.encoding import action_of
from okgin.hand import Deal, Hand, play_chance
from okgin.rules import PRESET_NAMES, preset
from okgin.view import seat_view

TABLES = [(name, players) for name in PRESET_NAMES for players in (2, 3, 4)]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_pettingzoo_api_test_passes(rules: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to prefer a Box over a Dict space
        api_test(OkginEnv(rules, players, reward="match"), num_cycles=300)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_gymnasium_check_env_passes(rules: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it cannot try other render modes without a registry spec
        check_env(OkginGymEnv(rules, players, opponents="normal"))


def test_house_rules_reach_the_game() -> None:
    game = OkginEnv("gin", 3, house={"gin_bonus": 31, "big_gin_bonus": 40})
    game.reset(seed=1)
    assert game.rules.gin_bonus == 31 and game.rules.players == 3
    assert len(game.agents) == 3


def test_actions_number_every_move_once() -> None:
    seen = {str(action_of(i, 1)) for i in range(ACTIONS)}
    assert len(seen) == ACTIONS
    assert all(action_index(action_of(i, 2)) == i for i in range(ACTIONS))
    with pytest.raises(ValueError, match="not a number from 0 to 107"):
        action_of(108, 0)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = OkginEnv()
    game.reset(seed=3)
    agent = game.agent_selection
    before = game.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal for player_"):
        game.step(illegal)
    assert game.agent_selection == agent
    assert np.array_equal(game.observe(agent)["observation"], before["observation"])


def _random_history(rules_name: str, players: int, seed: int, steps: int) -> tuple[Hand, list[object]]:
    """A hand dealt and played ``steps`` random legal actions (stopping before its end)."""
    rules = preset(rules_name).replace(players=players)
    rng = random.Random(seed)
    hand = Hand(rules, dealer=seed % players, deal=Deal.shuffle(rules, rng))
    for _ in range(steps):
        play_chance(hand, rng)
        legal = [a for a in hand.legal_actions() if not isinstance(a, Knock)]
        if hand.over or not legal:
            break
        hand.apply(rng.choice(legal))
    return hand, list(hand.actions)


def _hidden_swapped(hand: Hand, seat: int, actions: list[object], shuffle: random.Random) -> Hand:
    """The same public game with the cards ``seat`` cannot see dealt differently: the
    cards now in the stock or in another seat's hand, unseen by ``seat``, trade places in
    the deal, and the same actions are replayed."""
    view = seat_view(hand, seat)
    seen = view.hand_mask | mask_of(view.discards)
    for cards in view.picked:
        seen |= mask_of(cards)
    for action in actions:  # a card thrown and then reshuffled into the stock was seen too
        if isinstance(action, Discard):
            seen |= action.card.mask
    deal = hand.deal
    slots = [c for cards in deal.hands for c in cards] + list(deal.stock)
    hidden = [i for i, c in enumerate(slots) if not c.mask & seen and _hidden_now(hand, seat, c.mask)]
    cards = [slots[i] for i in hidden]
    shuffle.shuffle(cards)
    for i, card in zip(hidden, cards, strict=True):
        slots[i] = card
    size = hand.rules.cards_each
    hands = tuple(tuple(slots[s * size:(s + 1) * size]) for s in range(hand.players))
    other = Hand(hand.rules, hand.dealer, Deal(hands, deal.upcard, tuple(slots[hand.players * size:])))
    for action in actions:
        other.apply(action)  # type: ignore[arg-type]
    return other


def _hidden_now(hand: Hand, seat: int, mask: int) -> bool:
    """Whether the card is in the stock or in another seat's hand now (not thrown or held by us)."""
    if mask & mask_of(hand.stock()):
        return True
    return any(mask & hand.hand_mask(s) for s in range(hand.players) if s != seat)


@settings(max_examples=40, deadline=None)
@given(
    rules_name=st.sampled_from(PRESET_NAMES), players=st.integers(2, 4),
    seed=st.integers(0, 10**6), steps=st.integers(0, 80), shuffle=st.integers(0, 10**6),
)
def test_an_observation_is_the_same_whatever_the_hidden_cards_are(
    rules_name: str, players: int, seed: int, steps: int, shuffle: int
) -> None:
    hand, actions = _random_history(rules_name, players, seed, steps)
    for seat in range(players):
        other = _hidden_swapped(hand, seat, actions, random.Random(shuffle))
        mine, theirs = seat_view(hand, seat), seat_view(other, seat)
        assert np.array_equal(encode(mine), encode(theirs))
        assert np.array_equal(legal_mask(mine), legal_mask(theirs))


def test_the_swap_does_change_the_hidden_cards() -> None:
    # Without this the test above could pass by swapping nothing.
    hand, actions = _random_history("oklahoma", 2, 5, 30)
    other = _hidden_swapped(hand, 0, actions, random.Random(1))
    assert other.hand_mask(1) != hand.hand_mask(1) or other.stock() != hand.stock()
    assert other.hand_mask(0) == hand.hand_mask(0)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_random_episodes_end_with_every_card_accounted_for(rules: str, players: int) -> None:
    game = OkginEnv(rules, players)
    rng = np.random.default_rng(players)
    for episode in range(6):
        game.reset(seed=episode)
        earned = dict.fromkeys(game.possible_agents, 0.0)
        for agent in game.agent_iter():
            obs, reward, over, cut, _ = game.last()
            earned[agent] += reward
            view = game.view(agent)  # the incremental observation is exactly the view's encoding
            assert np.array_equal(obs["observation"], encode(view))
            assert np.array_equal(obs["action_mask"], legal_mask(view))
            assert obs is not None and obs["observation"].shape == (OBSERVATION_SIZE,)
            if over or cut:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        hand = game.hand
        assert hand is not None and hand.result is not None
        _assert_whole_deck(hand)
        points = hand.result.points
        assert [earned[a] for a in game.possible_agents] == list(points)


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_every_seats_observation_is_its_views_encoding_through_a_match(rules: str, players: int) -> None:
    # The environment keeps each seat's vector up to date action by action (okgin/env/tracker.py):
    # every seat's, not only the one acting, must be its view's encoding at every step, across
    # hands, reshuffles and the match's end, and what it gives out must be the caller's to keep.
    game = OkginEnv(rules, players, reward="match", max_hands=6)
    rng = np.random.default_rng(players)
    game.reset(seed=players)
    first = game.observe(game.agent_selection)["observation"]
    first_encoded = encode(game.view(game.agent_selection))
    for _ in game.agent_iter():
        for other in game.possible_agents:
            obs = game.observe(other)
            view = game.view(other)
            assert np.array_equal(obs["observation"], encode(view))
            assert np.array_equal(obs["action_mask"], legal_mask(view))
            obs["observation"][:] = 9.0  # changing a given observation changes nothing else
            obs["action_mask"][:] = 1
        obs, _, over, cut, _ = game.last()
        if over or cut:
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(game.match.hands) > 1
    assert np.array_equal(first, first_encoded)  # what was given out is not changed later
    assert any(isinstance(a, Reshuffle) for hand in game.match.hands for a in hand.actions) or (
        game.rules.stock_end != "reshuffle"
    )


def _assert_whole_deck(hand: Hand) -> None:
    """Each of the 52 cards is in exactly one place at the end of the hand."""
    places = [hand.hand_mask(s) for s in range(hand.players)]
    places += [mask_of(hand.stock()), mask_of(hand.discards)]
    places += [mask_of(cards) for _, cards in (hand.result.layoffs if hand.result else ())]
    places += [a.card.mask for a in hand.actions[-1:] if isinstance(a, Knock)]
    total = 0
    for mask in places:
        assert total & mask == 0, "a card is in two places"
        total |= mask
    assert total == (1 << 52) - 1


@pytest.mark.parametrize("bad", ["masked", 1.5])
def test_the_gym_env_refuses_an_illegal_action(bad: str | float) -> None:
    game = OkginGymEnv("oklahoma", illegal="raise")
    obs, _ = game.reset(seed=1)
    action = int(np.flatnonzero(obs["action_mask"] == 0)[0]) if bad == "masked" else bad
    played = len(game.game.match.current.actions)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="is not legal now"):
        game.step(action)  # type: ignore[arg-type]
    assert len(game.game.match.current.actions) == played  # type: ignore[union-attr]
    ending = OkginGymEnv("oklahoma")
    ending.reset(seed=1)
    _, reward, over, _, info = ending.step(action)  # type: ignore[arg-type]
    assert (reward, over, info) == (-100.0, True, {"illegal": True})


def test_the_gym_env_plays_to_the_end_and_scores_the_learner() -> None:
    game = OkginGymEnv("oklahoma", opponents="simple", reward="match", max_hands=50)
    obs, _ = game.reset(seed=4)
    rng = np.random.default_rng(0)
    total, over, cut = 0.0, False, False
    while not (over or cut):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, over, cut, info = game.step(action)
        total += reward
        assert "illegal" not in info
    assert game.game.match.totals[0] <= total or cut  # the final bonuses come on top


def test_importing_okgin_imports_no_rl_library() -> None:
    code = (
        "import sys, okgin, okgin.bots, okgin.sim, okgin.cli;"
        "print([m for m in ('pettingzoo', 'gymnasium', 'numpy') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_training_example_learns_from_the_env(tmp_path: Path) -> None:
    # A few dozen hands of examples/train_policy_gradient.py: the policy starts uniform, so
    # its first hands lose heavily to `simple`; it must move its weights and draw its chart.
    script = Path(__file__).resolve().parents[2] / "examples" / "train_policy_gradient.py"
    spec = importlib.util.spec_from_file_location("train_pg", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    curve, weights = module.train(60, 3, 20)
    assert len(curve) == 3 and np.all(np.isfinite(weights)) and np.any(weights != 0)
    out = tmp_path / "curve.svg"
    module.svg(curve, 20, curve[-1], out)
    assert out.read_text().startswith("<svg") and "polyline" in out.read_text()


def test_a_hand_over_before_the_learner_acts_is_dealt_again() -> None:
    # Seed 2997: `simple` takes the upcard and knocks before seat 0 has a choice.
    game = OkginGymEnv("oklahoma", opponents="simple", relative=True)
    obs, info = game.reset(seed=2997)
    assert info["skipped"] == [-33.0]
    assert obs["action_mask"].any() and not game.game.terminations["player_0"]
