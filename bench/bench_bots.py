"""Benchmark the computer players' speed (a script, not a test).

    python bench/bench_bots.py [--hands N] [--matches M] [--seed S] [--budget GUESSES]
                               [--rules PRESET] [--seats 2-4]

1. ``simple`` against ``simple``: N seeded hands of ``oklahoma`` played in this one process
   through the engine (``play_hand``: every decision gets a fresh ``SeatView``), in hands per
   second, beside OpenSpiel's simple gin rummy bot playing itself (``bench/peers.py``; its
   Oklahoma knock rule on) on N hands in the same run, as a ratio. OpenSpiel is looked for in
   this interpreter, then in ``/tmp/benchvenv`` (or ``$OKGIN_PEER_PYTHON``); it is left out
   when neither has it.
2. Decision time of ``normal``, ``hard`` and ``expert`` (at their default budgets unless
   ``--budget``): M
   matches each against ``simple`` (one process; ``--rules`` and ``--seats``: the table, by
   default ``oklahoma`` for two, the others all ``simple``), p50/p95/p99 per decision, both as
   wall time and as the process's CPU time. On a quiet machine the two agree; on a shared one the
   wall time counts the waits for a core and the CPU time is what the decision costs.

The targets (docs/bots.md): simple >= 400 hands/s; normal p95 <= 10 ms; hard p95 <= 250 ms
and p99 <= 1 s; expert p95 <= 1 s and p99 <= 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from okgin.actions import PlayerAction  # noqa: E402
from okgin.bots import DEFAULT_BUDGET, Player, make_player  # noqa: E402
from okgin.bots.expert import ExpertPlayer  # noqa: E402
from okgin.hand import Deal, Hand  # noqa: E402
from okgin.match import Match  # noqa: E402
from okgin.rules import Rules, preset  # noqa: E402
from okgin.runner import play_hand, play_match  # noqa: E402
from okgin.sim import percentile  # noqa: E402
from okgin.view import SeatView  # noqa: E402

PEER_PYTHON = os.environ.get("OKGIN_PEER_PYTHON", "/tmp/benchvenv/bin/python")


def simple_selfplay(hands: int, seed: int) -> float:
    """Hands per second of ``simple`` playing itself under ``oklahoma`` in this process."""
    rules = preset("oklahoma")
    rng = random.Random(seed)
    players = [make_player("simple", random.Random(seed + s)) for s in range(2)]
    deals = [Deal.shuffle(rules, rng) for _ in range(hands)]
    start = time.perf_counter()
    for number, deal in enumerate(deals):
        play_hand(Hand(rules, number % 2, deal), players, rng)
    return hands / (time.perf_counter() - start)


def openspiel_selfplay(hands: int, seed: int) -> float | None:
    """OpenSpiel's simple bot playing itself, hands per second, or None without OpenSpiel."""
    try:
        from peers import openspiel_simple_selfplay
    except ImportError:
        return None
    rate = openspiel_simple_selfplay(hands, seed, oklahoma=True)
    if rate is not None or not Path(PEER_PYTHON).exists():
        return rate
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from peers import openspiel_simple_selfplay;"
        "print(openspiel_simple_selfplay(int(sys.argv[2]), int(sys.argv[3]), oklahoma=True))"
    )
    done = subprocess.run(
        [PEER_PYTHON, "-c", code, str(ROOT / "bench"), str(hands), str(seed)],
        capture_output=True, text=True, check=False,
    )
    text = done.stdout.strip()
    return float(text) if done.returncode == 0 and text not in ("", "None") else None


class _Clocked:
    """A player whose decisions are timed on the wall clock and on the process's CPU clock."""

    def __init__(self, player: Player) -> None:
        self.player, self.name = player, player.name
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def act(self, view: SeatView) -> PlayerAction:
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.player.act(view)
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return action


def decision_times(
    level: str, matches: int, seed: int, budget: int | None, rules: Rules | None = None
) -> dict[str, float]:
    """p50/p95/p99 in ms (wall and CPU) of ``level``'s decisions over ``matches`` matches
    against ``simple`` players (``rules``: by default ``oklahoma`` for two), its seat and the
    first dealer turning each match."""
    rules = rules or preset("oklahoma")
    seats = rules.players
    clocked = _Clocked(make_player(level, random.Random(seed), budget))
    rng = random.Random(seed)
    for number in range(matches):
        others = [make_player("simple", random.Random(seed + number * seats + s)) for s in range(1, seats)]
        turn = number % seats
        players: list[Player] = [*others[:turn], clocked, *others[turn:]]
        play_match(players, Match(rules, first_dealer=turn), rng)
    times: dict[str, float] = {"decisions": len(clocked.wall)}
    for clock, values in (("", clocked.wall), ("cpu_", clocked.cpu)):
        for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
            times[f"{clock}{name}_ms"] = 1000 * percentile(values, q)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--rules", default="oklahoma", help="the preset of the timed matches")
    parser.add_argument("--seats", type=int, default=None, help="players at the timed table")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    table = preset(args.rules)
    if args.seats is not None:
        table = replace(table, players=args.seats)
    ours = simple_selfplay(args.hands, args.seed)
    peer = openspiel_selfplay(args.hands, args.seed)
    times = {
        level: decision_times(level, args.matches, args.seed, args.budget, table)
        for level in ("normal", "hard", "expert")
    }
    if args.json:
        print(json.dumps({"simple_hands_per_s": ours, "openspiel_hands_per_s": peer, **times}))
        return
    print(f"simple vs simple, {args.hands} oklahoma hands, one process: {ours:,.0f} hands/s")
    if peer is None:
        print("OpenSpiel simple bot: not installed")
    else:
        print(f"OpenSpiel simple bot vs itself (C++, oklahoma=true): {peer:,.0f} hands/s; "
              f"okgin/OpenSpiel = {ours / peer:.1f}x")
    budgets = {"hard": DEFAULT_BUDGET, "expert": ExpertPlayer.guesses}
    for level, t in times.items():
        budget = args.budget if args.budget is not None else budgets.get(level)
        extra = f" (budget {budget} guesses)" if level in budgets else ""
        vs = "simple" if table.players == 2 else f"{table.players - 1} simple"
        vs += "" if table.preset == "oklahoma" else f" ({table.preset}, {table.players} seats)"
        print(f"{level}{extra}: {t['decisions']:.0f} decisions in {args.matches} matches vs {vs}: "
              f"p50 {t['p50_ms']:.2f} ms, p95 {t['p95_ms']:.2f} ms, p99 {t['p99_ms']:.2f} ms; "
              f"CPU p50 {t['cpu_p50_ms']:.2f} ms, p95 {t['cpu_p95_ms']:.2f} ms, "
              f"p99 {t['cpu_p99_ms']:.2f} ms (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
