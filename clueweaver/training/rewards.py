"""The reward wiring: the protocol's registry (``clueweaver.protocol.reward_registry.REWARD_FUNCS``) as
TRL reward functions.

Each reward component is its own TRL reward function, so TRL logs ``rewards/<name>/mean`` per
component; the weights must make the weighted sum exactly the paper's total (weight-0 functions are
only logged), which is checked. A recipe naming the Interpreter's open-answer rewards
(``interpreter_open_*``, :mod:`clueweaver.protocol.open_rewards`) is checked against their total.
"""

from __future__ import annotations

import math
from dataclasses import asdict

from clueweaver.protocol.open_rewards import OPEN_REWARD_PREFIX, OpenAnswerRewardConfig, open_component_names
from clueweaver.protocol.reward_registry import get_reward_funcs
from clueweaver.protocol.rewards import FinderRewardConfig, InterpreterRewardConfig, component_names
from clueweaver.training.arguments import TrainingSetupError


def _reward_family(agent: str, names: list[str] | None) -> tuple[list[str], str]:
    """(components, total's name) of the reward ``names`` belong to: the agent's paper reward, or
    the Interpreter's open-answer reward when every name is one of its functions."""
    if agent == "interpreter" and names and all(name.startswith(OPEN_REWARD_PREFIX) for name in names):
        return open_component_names(), f"{OPEN_REWARD_PREFIX}total"
    return component_names(agent), f"{agent}_total"


def select_reward_funcs(
    agent: str,
    names: list[str] | None = None,
    weights: list[float] | None = None,
    *,
    allow_ablation: bool = False,
    aggregation: str = "sum_then_normalize",
):
    """``(functions, weights)`` for GRPOTrainer from the protocol's registry.

    Default: every component of the agent, weight 1, so TRL logs each component and the reward it
    optimises (their weighted sum) is the paper's total. The weighted sum must count each
    component exactly once (the agent's ``<agent>_total`` counts all of them; weight 0 only logs).
    """
    components, total = _reward_family(agent, names)
    names = list(names) if names else components
    weights = [float(w) for w in weights] if weights is not None else [1.0] * len(names)
    if len(weights) != len(names):
        raise TrainingSetupError(f"{len(names)} reward function(s) but {len(weights)} reward weight(s)")
    foreign = [n for n in names if not (n in components or n == total)]
    if foreign:
        raise TrainingSetupError(
            f"reward function(s) {', '.join(foreign)} are not {agent} rewards; use {', '.join(components)} or {total}"
        )
    try:
        funcs = get_reward_funcs(names)
    except ValueError as exc:
        raise TrainingSetupError(str(exc)) from None
    counted = dict.fromkeys(components, 0.0)
    for name, weight in zip(names, weights):
        for component in components if name == total else [name]:
            counted[component] += weight
    wrong = {c: w for c, w in counted.items() if not math.isclose(w, 1.0)}
    if not allow_ablation:
        if wrong:
            detail = ", ".join(f"{c} x{w:g}" for c, w in wrong.items())
            raise TrainingSetupError(
                f"the weighted reward is not the paper's total ({detail}); give each component weight 1 once, "
                "or pass --allow_reward_ablation true"
            )
        if aggregation != "sum_then_normalize":
            raise TrainingSetupError(
                f"multi_objective_aggregation={aggregation!r} normalizes each component before summing, so the "
                "reward is not the paper's total; use sum_then_normalize or pass --allow_reward_ablation true"
            )
    return funcs, weights


def reward_design(agent: str, names: list[str], weights: list[float]) -> dict:
    """The reward as trained: functions, weights and every constant of the protocol's config."""
    config = FinderRewardConfig() if agent == "finder" else InterpreterRewardConfig()
    if _reward_family(agent, names)[1] == f"{OPEN_REWARD_PREFIX}total":
        config = OpenAnswerRewardConfig()
    return {
        "functions": dict(zip(names, weights)),
        "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(config).items()},
        "max_total": config.max_total,
    }
