"""The PettingZoo AEC environment: one hand (or one match) of any preset, 2 to 4 players.

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers). Each observes only its seat's
view (``encoding.encode``) with ``action_mask``; chance (deals, reshuffles) comes from the
generator seeded by ``reset(seed=...)``. Rewards are the points the rules score: each hand's
points when it ends, and with ``reward="match"`` the match's bonuses when the match ends too,
so an agent's rewards add up to its final score.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from okgin.env.encoding import (
    ACTIONS,
    OBSERVATION_SIZE,
    SCORE_CLIP,
    action_of,
    describe,
)
from okgin.env.render import render_text
from okgin.env.tracker import Tracker
from okgin.errors import RulesError
from okgin.hand import Hand, play_chance
from okgin.match import Match
from okgin.rules import Rules, preset
from okgin.view import SeatView, seat_view

RewardMode = Literal["hand", "match"]
MAX_HANDS = 200
"""A match still going after this many hands is truncated (random players may never win)."""


def make_rules(
    rules: str | Rules = "oklahoma", players: int | None = None, house: dict[str, Any] | None = None
) -> Rules:
    """A preset (or ``Rules``) with ``players`` and house rules applied. Raises RulesError."""
    chosen = preset(rules) if isinstance(rules, str) else rules
    changes = dict(house or {})
    if players is not None:
        changes["players"] = players
    return chosen.replace(**changes) if changes else chosen


class OkginEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """Oklahoma Gin for PettingZoo. ``reward="hand"``: an episode is one hand;
    ``"match"``: a whole match to the target (truncated after ``max_hands``)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "okgin_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Rules = "oklahoma",
        players: int | None = None,
        house: dict[str, Any] | None = None,
        reward: RewardMode = "hand",
        render_mode: str | None = None,
        max_hands: int = MAX_HANDS,
    ) -> None:
        super().__init__()
        if reward not in ("hand", "match"):
            raise RulesError(f"reward must be 'hand' or 'match', not {reward!r}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.rules = make_rules(rules, players, house)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.max_hands = max_hands
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self.agent_selection = self.possible_agents[0]
        box = spaces.Box(-SCORE_CLIP, SCORE_CLIP, (OBSERVATION_SIZE,), np.float32)
        mask = spaces.Box(0, 1, (ACTIONS,), np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(ACTIONS)
        self._chance = random.Random()
        self.match = Match(self.rules)
        self.hand: Hand | None = None
        self._tracker: Tracker | None = None
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._paid = False
        """Whether the last step paid rewards (``self.rewards`` is otherwise all zero)."""

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # -- what an agent is given -------------------------------------------------------------

    def view(self, agent: str) -> SeatView:
        """``agent``'s view of the hand being played (what a computer player is given)."""
        hand = self._current()
        return seat_view(hand, self.possible_agents.index(agent), self.match.totals, self.match.won)

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: ``encode(self.view(agent))`` and its action mask, kept up
        to date as actions are played (``tracker.Tracker``) rather than made from the view
        each time (tests check the two agree at every step)."""
        tracker = self._tracking()
        seat = self._seat_of[agent]
        return {"observation": tracker.observation(seat), "action_mask": tracker.action_mask(seat)}

    # -- playing ------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. ``seed`` fixes the deals and reshuffles; ``options={"dealer": s}``
        picks the first dealer (else it is drawn)."""
        if seed is not None:
            self._chance = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._paid = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        dealer = (options or {}).get("dealer")
        if dealer is None:
            dealer = self._chance.randrange(self.rules.players)
        self.match = Match(self.rules, first_dealer=int(dealer))
        self._deal()

    def step(self, action: int | None) -> None:
        """Play action number ``action`` for ``agent_selection``. Raises ValueError, changing
        nothing, when it is not legal (``action_mask`` says which are)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        tracker = self._tracking()
        hand = tracker.hand
        if action is None:
            raise ValueError(f"{agent} must choose an action: it is its turn")
        chosen = action_of(action, self._seat_of[agent])  # raises ValueError outside 0-107
        if not tracker.legal()[action]:  # the mask is the engine's legal actions (tested)
            raise ValueError(
                f"action {int(action)} ({describe(int(action))}) is not legal for {agent} now"
            )
        top = hand.top_discard
        played = len(hand.actions)
        self.match.apply_legal(chosen)  # checked just above, against the mask
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # the last step paid rewards: this one starts from none
            self.rewards = {a: 0.0 for a in self.agents}
            self._paid = False
        play_chance(hand, self._chance)
        tracker.played(chosen, -1 if top is None else top.index, len(hand.actions) > played + 1)
        if hand.over:
            self._hand_over(hand)
            self._paid = True
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[hand.to_act or 0]
        if self.render_mode == "human":
            self.render()

    def _hand_over(self, hand: Hand) -> None:
        """Pay the hand's points; end the episode, or deal the match's next hand."""
        assert hand.result is not None
        for seat, points in enumerate(hand.result.points):
            self.rewards[self.possible_agents[seat]] += float(points)
        final = self.match.final
        if final is not None and self.reward_mode == "match":
            for seat, bonus in enumerate(final.bonuses):
                self.rewards[self.possible_agents[seat]] += float(bonus)
        for agent in self.agents:
            self.infos[agent] = {"outcome": str(hand.result.outcome), "scores": self.match.totals}
        if self.reward_mode == "hand" or final is not None:
            self.terminations = {a: True for a in self.agents}
        elif len(self.match.hands) >= self.max_hands:
            self.truncations = {a: True for a in self.agents}
        else:
            self._deal()

    def _deal(self) -> None:
        hand = self.match.deal_next(self._chance)
        self.hand = hand
        self._tracker = Tracker(self.match)
        self.agent_selection = self.possible_agents[hand.to_act or 0]

    def _current(self) -> Hand:
        return self._tracking().hand

    def _tracking(self) -> Tracker:
        if self._tracker is None:
            raise RuntimeError("call reset() before playing")
        return self._tracker

    def render(self) -> str | None:
        """The table in text (every hand shown: a view for someone watching, not for an agent)."""
        if self.render_mode is None:
            return None
        text = render_text(self._current(), self.match.totals)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; closing twice is fine."""


def env(**kwargs: Any) -> OkginEnv:
    """``OkginEnv(**kwargs)``, the name PettingZoo's environments are made by."""
    return OkginEnv(**kwargs)
