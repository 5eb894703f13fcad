"""The reward wiring: the protocol's registry (``clueweaver.protocol.reward_registry.REWARD_FUNCS``) as
TRL reward functions, and a recipe's own reward functions named by import path (TRL's convention).

Each reward component is its own TRL reward function, so TRL logs ``rewards/<name>/mean`` per
component; the weights must make the weighted sum exactly the paper's total (weight-0 functions are
only logged), which is checked. A recipe naming the Interpreter's open-answer rewards
(``interpreter_open_*``, :mod:`clueweaver.protocol.open_rewards`) is checked against their total.
A recipe's own reward (``my_package.my_module.my_reward``) is outside those families: it is
imported and added with its weight, unchecked, beside whichever protocol rewards the recipe names.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import asdict

from clueweaver.protocol.open_rewards import OPEN_REWARD_PREFIX, OpenAnswerRewardConfig, open_component_names
from clueweaver.protocol.reward_registry import REWARD_FUNCS
from clueweaver.protocol.rewards import FinderRewardConfig, InterpreterRewardConfig, component_names
from clueweaver.training.arguments import TrainingSetupError


def _reward_family(agent: str, names: list[str] | None) -> tuple[list[str], str]:
    """(components, total's name) of the reward ``names`` belong to: the agent's paper reward, or
    the Interpreter's open-answer reward when every name is one of its functions."""
    if agent == "interpreter" and names and all(name.startswith(OPEN_REWARD_PREFIX) for name in names):
        return open_component_names(), f"{OPEN_REWARD_PREFIX}total"
    return component_names(agent), f"{agent}_total"


def is_import_path(name: str) -> bool:
    """A reward named ``package.module.function`` is a recipe's own, imported (TRL's convention for
    ``reward_funcs``); the protocol's names have no dot."""
    return "." in name


def import_reward(path: str):
    """The reward function at import ``path``: a callable ``(prompts, completions, **columns) ->
    list[float]`` as TRL calls it. A path that leads nowhere fails here, naming it, rather than
    after the model has loaded."""
    module_name, _, attribute = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except (ImportError, ValueError) as exc:
        raise TrainingSetupError(f"reward function {path}: cannot import {module_name!r} ({exc})") from None
    if not hasattr(module, attribute):
        raise TrainingSetupError(f"reward function {path}: module {module_name} has no {attribute!r}")
    func = getattr(module, attribute)
    if not callable(func):
        raise TrainingSetupError(f"reward function {path} is not callable (a {type(func).__name__})")
    return func


def select_reward_funcs(
    agent: str,
    names: list[str] | None = None,
    weights: list[float] | None = None,
    *,
    allow_ablation: bool = False,
    aggregation: str = "sum_then_normalize",
):
    """``(functions, weights)`` for GRPOTrainer: the protocol's rewards by name, a recipe's own by
    import path.

    Default: every component of the agent, weight 1, so TRL logs each component and the reward it
    optimises (their weighted sum) is the paper's total. The protocol's rewards named must count
    each component of their family exactly once (the agent's ``<agent>_total`` counts all of them;
    weight 0 only logs); a recipe's own rewards are added to that sum unchecked.
    """
    names = list(names) if names else component_names(agent)
    weights = [float(w) for w in weights] if weights is not None else [1.0] * len(names)
    if len(weights) != len(names):
        raise TrainingSetupError(f"{len(names)} reward function(s) but {len(weights)} reward weight(s)")
    protocol = [(name, weight) for name, weight in zip(names, weights) if not is_import_path(name)]
    if protocol:
        _check_paper_total(agent, protocol, allow_ablation=allow_ablation, aggregation=aggregation)
    return [import_reward(name) if is_import_path(name) else REWARD_FUNCS[name] for name in names], weights


def _check_paper_total(agent: str, weighted: list[tuple[str, float]], *, allow_ablation: bool, aggregation: str):
    """The protocol's rewards in ``weighted`` are one family of the agent and, unless this is an
    ablation, their weighted sum is its total."""
    components, total = _reward_family(agent, [name for name, _ in weighted])
    foreign = [name for name, _ in weighted if not (name in components or name == total)]
    if foreign:
        raise TrainingSetupError(
            f"reward function(s) {', '.join(foreign)} are not {agent} rewards; use {', '.join(components)} or "
            f"{total}, or a reward function's import path (my_package.my_module.my_reward)"
        )
    if allow_ablation:
        return
    counted = dict.fromkeys(components, 0.0)
    for name, weight in weighted:
        for component in components if name == total else [name]:
            counted[component] += weight
    wrong = {c: w for c, w in counted.items() if not math.isclose(w, 1.0)}
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


def reward_design(agent: str, names: list[str], weights: list[float]) -> dict:
    """The reward as trained: functions (a recipe's own by import path), weights and every constant
    of the protocol's config."""
    config = FinderRewardConfig() if agent == "finder" else InterpreterRewardConfig()
    protocol = [name for name in names if not is_import_path(name)]
    if _reward_family(agent, protocol)[1] == f"{OPEN_REWARD_PREFIX}total":
        config = OpenAnswerRewardConfig()
    return {
        "functions": dict(zip(names, weights)),
        "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(config).items()},
        "max_total": config.max_total,
    }
