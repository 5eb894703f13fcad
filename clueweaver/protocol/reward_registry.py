"""The one registry of TRL reward functions that recipes name (``reward_funcs``): the paper's
Finder and Interpreter rewards (``clueweaver.protocol.rewards``) and the Interpreter's open-answer
rewards (``clueweaver.protocol.open_rewards``).

It is built here, from both modules, so that it is complete whatever was imported first: the
open-answer module builds on the paper's, so the paper's module cannot hold the registry without an
import cycle, and a registry that modules join as they are imported depends on import order.
"""

from __future__ import annotations

from typing import Iterable

from clueweaver.protocol.open_rewards import build_open_reward_funcs
from clueweaver.protocol.rewards import RewardFunc, build_reward_funcs

REWARD_FUNCS: dict[str, RewardFunc] = {**build_reward_funcs(), **build_open_reward_funcs()}
finder_reward = REWARD_FUNCS["finder_total"]
interpreter_reward = REWARD_FUNCS["interpreter_total"]


def get_reward_funcs(names: Iterable[str], registry: dict[str, RewardFunc] = REWARD_FUNCS) -> list[RewardFunc]:
    """The registry's functions for ``names`` (a recipe's ``reward_funcs`` list)."""
    names = list(names)
    unknown = [name for name in names if name not in registry]
    if unknown:
        raise ValueError(f"unknown reward function(s) {', '.join(unknown)}; known: {', '.join(registry)}")
    return [registry[name] for name in names]
