"""Benchmark okgin.env beside OpenSpiel's gin_rummy in the same run (a script, not a test).

    python bench/bench_env.py [--steps N] [--seed S] [--rules gin] [--json]

Both play random legal actions for N agent steps (hands are dealt again as they end) and
report steps per second, median of ``--repeats`` runs:

* okgin: ``OkginEnv`` (PettingZoo AEC); each step reads the acting agent's observation
  (``env.last()``: the 547-number vector and the action mask), picks a random legal action
  and ``env.step``s it. Chance (deals, reshuffles) happens inside ``step``/``reset``.
* OpenSpiel: ``pyspiel.load_game("gin_rummy")`` through its Python API; each agent step reads
  ``state.observation_tensor()`` and ``state.legal_actions()``, picks one at random and
  ``state.apply_action``s it; chance nodes are sampled from ``state.chance_outcomes()`` and
  are not counted as steps.

OpenSpiel's gin_rummy is two-player standard gin (knock card 10), so okgin runs ``gin`` by
default (``--rules oklahoma`` for the Oklahoma preset beside OpenSpiel's ``oklahoma=true``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np

from okgin.env import OkginEnv


def okgin_steps_per_second(steps: int, seed: int, rules: str) -> float:
    """Agent steps per second of random legal play in ``OkginEnv``."""
    game = OkginEnv(rules)
    rng = random.Random(seed)
    game.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, over, cut, _ = game.last()
        if over or cut:
            game.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        game.step(int(legal[rng.randrange(len(legal))]))
        done += 1
    return steps / (time.perf_counter() - start)


def openspiel_steps_per_second(steps: int, seed: int, oklahoma: bool) -> float | None:
    """Agent steps per second of random legal play in OpenSpiel's gin_rummy; None without it."""
    try:
        import pyspiel
    except ModuleNotFoundError:
        return None
    game = pyspiel.load_game("gin_rummy(oklahoma=true)" if oklahoma else "gin_rummy")
    rng = random.Random(seed)
    state = game.new_initial_state()
    done = 0
    start = time.perf_counter()
    while done < steps:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return steps / (time.perf_counter() - start)


def measure(steps: int, seed: int, rules: str, repeats: int) -> dict[str, Any]:
    """Median steps/s of each, runs interleaved so both see the same machine load."""
    ours: list[float] = []
    peer: list[float] = []
    for i in range(repeats):
        ours.append(okgin_steps_per_second(steps, seed + i, rules))
        theirs = openspiel_steps_per_second(steps, seed + i, rules != "gin")
        if theirs is not None:
            peer.append(theirs)
    result: dict[str, Any] = {"rules": rules, "steps": steps, "repeats": repeats,
                              "okgin_steps_per_s": statistics.median(ours)}
    if peer:
        result["openspiel_steps_per_s"] = statistics.median(peer)
        result["ratio"] = result["okgin_steps_per_s"] / result["openspiel_steps_per_s"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="gin")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.steps, args.seed, args.rules, args.repeats)
    if args.json:
        print(json.dumps(result))
        return
    print(f"okgin.env ({args.rules}), random legal actions: {result['okgin_steps_per_s']:,.0f} steps/s")
    if "ratio" in result:
        print(f"OpenSpiel gin_rummy (Python API): {result['openspiel_steps_per_s']:,.0f} steps/s; "
              f"okgin/OpenSpiel = {result['ratio']:.2f}x")
    else:
        print("OpenSpiel: not installed (pip install -e '.[bench]')")


if __name__ == "__main__":
    main()
