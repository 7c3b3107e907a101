"""okgin.env: Oklahoma Gin as a PettingZoo AEC environment and a Gymnasium single-agent one.

Needs the ``rl`` extra (``pip install 'okgin[rl]'``: pettingzoo, gymnasium, numpy); importing
``okgin`` alone never imports them. See docs/env.md for the observation and action tables.

>>> from okgin.env import OkginEnv, OkginGymEnv
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ModuleNotFoundError as missing:  # pragma: no cover - depends on what is installed
    raise ModuleNotFoundError(
        f"okgin.env needs the rl extra ({missing.name} is missing): pip install 'okgin[rl]'"
    ) from None

from okgin.env.aec import OkginEnv, env, make_rules
from okgin.env.encoding import ACTIONS, OBSERVATION_SIZE, action_index, action_of, encode, legal_mask
from okgin.env.single import OkginGymEnv

__all__ = [
    "ACTIONS", "OBSERVATION_SIZE", "OkginEnv", "OkginGymEnv", "action_index", "action_of",
    "encode", "env", "legal_mask", "make_rules",
]
