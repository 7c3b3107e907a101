"""A Gymnasium environment for one learner: okgin's computer players take the other seats.

The observation and action numbering are the AEC environment's (docs/env.md). The other
seats are played by computer players of the given levels, each given only its seat's view.
An illegal action (one the ``action_mask`` rules out) ends the episode with
``illegal_reward`` and ``info["illegal"]``: that way a plain ``action_space.sample()`` loop
still runs; with ``illegal="raise"`` it raises ValueError instead. A hand that ends before
the learner's first decision (another seat takes the upcard and knocks at once) is not an
episode: ``reset`` deals again and lists the learner's rewards from such hands in
``info["skipped"]``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np

from okgin.bots import LEVELS, Player, make_player
from okgin.env.aec import MAX_HANDS, OkginEnv, RewardMode
from okgin.env.encoding import action_index
from okgin.errors import OkginError
from okgin.rules import Rules

ILLEGAL_REWARD = -100.0
"""What an illegal action costs by default: about a lost hand's worth of points."""


class OkginGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Seat ``seat`` is the learner; ``opponents`` names a level per other seat (one name:
    every other seat plays it). ``relative``: rewards are the learner's points less the
    others' mean rather than its points alone."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  # gymnasium's own declaration

    def __init__(
        self,
        rules: str | Rules = "oklahoma",
        players: int | None = None,
        house: dict[str, Any] | None = None,
        opponents: str | Sequence[str] = "simple",
        seat: int = 0,
        reward: RewardMode = "hand",
        illegal: Literal["end", "raise"] = "end",
        illegal_reward: float = ILLEGAL_REWARD,
        budget: int | None = None,
        render_mode: str | None = None,
        max_hands: int = MAX_HANDS,
        relative: bool = False,
    ) -> None:
        self.game = OkginEnv(rules, players, house, reward, render_mode, max_hands)
        n = self.game.rules.players
        levels = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != n - 1 or any(level not in LEVELS for level in levels):
            raise OkginError(
                f"opponents must be {n - 1} of " + ", ".join(LEVELS) + f", not {opponents!r}"
            )
        if not 0 <= seat < n:
            raise OkginError(f"seat must be 0 to {n - 1}, not {seat!r}")
        if illegal not in ("end", "raise"):
            raise OkginError(f"illegal must be 'end' or 'raise', not {illegal!r}")
        self.levels = levels
        self.seat = seat
        self.agent = self.game.possible_agents[seat]
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.budget = budget
        self.relative = relative
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(self.agent)
        self.action_space = self.game.action_space(self.agent)
        self._bots: dict[int, Player] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**62))
        others = [s for s in range(self.game.rules.players) if s != self.seat]
        self._bots = {
            s: make_player(level, random.Random(f"{seed}/{s}"), self.budget)
            for s, level in zip(others, self.levels, strict=True)
        }
        self.game.reset(seed=seed, options=options)
        skipped = []
        reward = self._play_others()
        while self.game.terminations[self.agent] or self.game.truncations[self.agent]:
            # The hand ended before the learner had a choice (the other seat took the upcard
            # and knocked at once): that is no episode, so deal again from the same stream.
            skipped.append(reward)
            self.game.reset(options=options)
            reward = self._play_others()
        return self.game.observe(self.agent), {"reward_before": reward, "skipped": skipped}

    def step(self, action: int | np.int64) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        try:
            if not isinstance(action, int | np.integer):
                raise ValueError(f"action {action!r} is not an action number")
            self.game.step(int(action))  # checks it against the mask; refused, nothing changes
        except ValueError as refused:
            if self.illegal == "raise":
                raise ValueError(f"action {action!r} is not legal now (see the action_mask)") from refused
            return self.game.observe(self.agent), self.illegal_reward, True, False, {"illegal": True}
        reward = self._reward() + self._play_others()
        over = self.game.terminations[self.agent]
        cut = self.game.truncations[self.agent]
        return self.game.observe(self.agent), float(reward), over, cut, dict(self.game.infos[self.agent])

    def _play_others(self) -> float:
        """Let the computer players act until it is the learner's turn or the episode ends.
        Returns the learner's rewards meanwhile."""
        total = 0.0
        game = self.game
        while not (game.terminations[self.agent] or game.truncations[self.agent]):
            seat = game.possible_agents.index(game.agent_selection)
            if seat == self.seat:
                break
            action = self._bots[seat].act(game.view(game.agent_selection))
            game.step(action_index(action))
            total += self._reward()
        return total

    def _reward(self) -> float:
        """The learner's reward for the last step: its points, or with ``relative`` its
        points less the other seats' mean (so losing a hand costs what the winner gains)."""
        rewards = self.game.rewards
        mine = float(rewards[self.agent])
        if not self.relative:
            return mine
        others = [float(v) for a, v in rewards.items() if a != self.agent]
        return mine - sum(others) / len(others)

    def render(self) -> str | None:
        return self.game.render()

    def close(self) -> None:
        self.game.close()
