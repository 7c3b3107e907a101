"""Train a small agent against `simple` through okgin.env: REINFORCE, numpy only.

    python examples/train_policy_gradient.py [--hands 12000] [--seed 1] [--out docs/training-curve.svg]

The agent sees only its observation (okgin.env's 547 numbers and the action mask). From it
it reads its own cards, the top discard and the knock limit, and scores every legal action
with a linear function of ten features (which kind of action it is, the deadwood a discard or
knock leaves, the card's points, what taking the top discard would save); a softmax of the
scores is its policy. Each episode is one hand of Oklahoma against `simple`, rewarded with
the learner's points less `simple`'s (``relative=True``). The weights follow the policy
gradient (REINFORCE with a running-mean baseline, Adam steps), and the script draws the
learning curve (mean points per hand, per block of hands) as an SVG, with the greedy policy's
final score measured on fresh deals.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from okgin.bots.memo import deadwood
from okgin.cards import DECK
from okgin.env import OkginGymEnv
from okgin.env.encoding import BIG_GIN, DISCARD, DRAW, KNOCK, KNOCK_LIMIT, PASS, TAKE, TOP

FEATURES = ("draw", "take", "pass", "discard", "knock", "big gin",
            "take: deadwood saved", "discard: deadwood left", "discard: card points",
            "knock: deadwood left")
Floats = npt.NDArray[np.float64]


def features(obs: dict[str, npt.NDArray[np.generic]]) -> tuple[list[int], Floats]:
    """The legal actions and a feature row for each, from the observation alone."""
    vector, mask = obs["observation"], obs["action_mask"]
    hand = sum(1 << int(i) for i in np.flatnonzero(vector[:52]))
    top = np.flatnonzero(vector[TOP:TOP + 52])
    legal = [int(a) for a in np.flatnonzero(mask)]
    rows = np.zeros((len(legal), len(FEATURES)))
    for row, action in zip(rows, legal, strict=True):
        if action in (DRAW, TAKE, PASS):
            row[action] = 1.0
            if action == TAKE and len(top):
                with_top = hand | 1 << int(top[0])
                after = min(deadwood(with_top & ~(1 << c)) for c in range(52)
                            if with_top >> c & 1 and c != int(top[0]))
                row[6] = (deadwood(hand) - after) / 10
        elif action == BIG_GIN:
            row[5] = 1.0
        elif action < KNOCK:
            card = action - DISCARD
            row[3], row[7], row[8] = 1.0, deadwood(hand & ~(1 << card)) / 10, DECK[card].points / 10
        else:
            row[4], row[9] = 1.0, deadwood(hand & ~(1 << (action - KNOCK))) / 10
    assert vector[KNOCK_LIMIT] >= 0
    return legal, rows


def policy(weights: Floats, rows: Floats) -> Floats:
    scores = rows @ weights
    scores -= scores.max()
    odds = np.exp(scores)
    return odds / odds.sum()  # type: ignore[no-any-return]


def play_hand(game: OkginGymEnv, weights: Floats, rng: np.random.Generator, seed: int,
              greedy: bool = False) -> tuple[float, Floats]:
    """One hand. Returns the learner's reward and the gradient of its log-probabilities."""
    obs, _ = game.reset(seed=seed)
    grad = np.zeros_like(weights)
    total, over, cut = 0.0, False, False
    while not (over or cut):
        legal, rows = features(obs)
        probs = policy(weights, rows)
        pick = int(np.argmax(probs)) if greedy else int(rng.choice(len(legal), p=probs))
        grad += rows[pick] - probs @ rows
        obs, reward, over, cut, _ = game.step(legal[pick])
        total += reward
    return total, grad


def train(hands: int, seed: int, block: int) -> tuple[list[float], Floats]:
    """REINFORCE with a baseline; returns the mean reward of each block of hands."""
    game = OkginGymEnv("oklahoma", opponents="simple", relative=True)
    rng = np.random.default_rng(seed)
    weights = np.zeros(len(FEATURES))
    moment, square = np.zeros_like(weights), np.zeros_like(weights)
    baseline, curve, rewards = 0.0, [], []
    for hand in range(1, hands + 1):
        reward, grad = play_hand(game, weights, rng, seed * 1_000_003 + hand)
        baseline += 0.01 * (reward - baseline)
        step = -(reward - baseline) * grad / 50  # ascend: Adam minimises the negative
        moment = 0.9 * moment + 0.1 * step
        square = 0.999 * square + 0.001 * step * step
        weights -= 0.05 * (moment / (1 - 0.9**hand)) / (np.sqrt(square / (1 - 0.999**hand)) + 1e-8)
        rewards.append(reward)
        if hand % block == 0:
            curve.append(float(np.mean(rewards[-block:])))
    return curve, weights


def evaluate(weights: Floats, hands: int, seed: int) -> tuple[float, float]:
    """Mean reward per hand of the greedy policy on fresh deals, with its 95% half-width."""
    game = OkginGymEnv("oklahoma", opponents="simple", relative=True)
    rng = np.random.default_rng(seed)
    got = [play_hand(game, weights, rng, 10**9 + seed * 10_007 + i, greedy=True)[0] for i in range(hands)]
    return float(np.mean(got)), float(1.96 * np.std(got, ddof=1) / np.sqrt(hands))


def svg(curve: list[float], block: int, final: float, path: Path) -> None:
    """The learning curve as a small standalone SVG (no plotting library needed)."""
    width, height, left, bottom, top, right = 640, 360, 60, 44, 20, 20
    low, high = min([*curve, final, 0.0]) - 2, max([*curve, final, 0.0]) + 2
    def x(i: float) -> float:
        return left + (width - left - right) * i / max(1, len(curve))
    def y(v: float) -> float:
        return top + (height - top - bottom) * (high - v) / (high - low)
    points = " ".join(f"{x(i + 1):.1f},{y(v):.1f}" for i, v in enumerate(curve))
    ticks = range(int(np.ceil(low / 5) * 5), int(high) + 1, 5)
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        *(f'<line x1="{left}" x2="{width - right}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#ddd"/>'
          f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t}</text>' for t in ticks),
        f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#888" '
        'stroke-dasharray="4 3"/>',
        f'<text x="{width - right}" y="{y(0) - 5:.1f}" text-anchor="end" fill="#555">'
        "even with simple</text>",
        *(f'<text x="{x(i):.1f}" y="{height - bottom + 16}" text-anchor="middle">{i * block:,}</text>'
          for i in range(0, len(curve) + 1, max(1, len(curve) // 6))),
        f'<polyline points="{points}" fill="none" stroke="#1f6fb2" stroke-width="2"/>',
        f'<line x1="{left}" x2="{width - right}" y1="{y(final):.1f}" y2="{y(final):.1f}" '
        'stroke="#c0392b"/>',
        f'<text x="{left + 6}" y="{y(final) - 5:.1f}" fill="#c0392b">greedy policy after training: '
        f"{final:+.1f}</text>",
        f'<text x="{width / 2}" y="{height - 4}" text-anchor="middle">hands played '
        f"(mean of each block of {block})</text>",
        f'<text x="14" y="{height / 2}" transform="rotate(-90 14 {height / 2})" '
        'text-anchor="middle">points per hand vs simple</text>',
        "</svg>",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=12_000)
    parser.add_argument("--block", type=int, default=400)
    parser.add_argument("--eval", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("docs/training-curve.svg"))
    args = parser.parse_args()
    start = time.perf_counter()
    curve, weights = train(args.hands, args.seed, args.block)
    trained = time.perf_counter() - start
    final, half = evaluate(weights, args.eval, args.seed)
    svg(curve, args.block, final, args.out)
    print(f"{args.hands} hands in {trained:.0f} s; first block {curve[0]:+.2f}, last block "
          f"{curve[-1]:+.2f} points per hand; greedy over {args.eval} fresh hands: "
          f"{final:+.2f} ± {half:.2f}")
    print("weights: " + ", ".join(f"{name} {w:+.2f}" for name, w in zip(FEATURES, weights, strict=True)))
    print(f"curve written to {args.out}")


if __name__ == "__main__":
    main()
