"""GRPO training of the two agents with TRL's ``GRPOTrainer``: everything the entry scripts share.

``train/finder_grpo.py`` and ``train/interpreter_grpo.py`` are one line each: ``main("finder")`` /
``main("interpreter")``. A run is a recipe (``configs/<agent>/*.yaml``) plus command-line
overrides, parsed by TRL's ``TrlParser`` into three dataclasses: :class:`GRPOScriptArguments`
(data, rewards, checks), TRL's ``GRPOConfig`` (optimisation, rollouts, logging) and TRL's
``ModelConfig`` (base model, LoRA).

The package follows the seams of a run:

* ``arguments``: the script arguments and recipe parsing.
* ``data``: the training data and its checks (protocol prompts, prompt lengths).
* ``rewards``: the protocol's reward components as TRL reward functions, weights checked.
* ``settings``: chat template, wandb reporting, rollout context, resume, model and tokenizer.
* ``objective``: the paper's sequence-level GRPO objective (``objective: paper``) and its checks.
* ``trainer``: changes to how TRL's trainer computes a step (the paper's loss; a CPU switch).
* ``callbacks``: the recipe beside every checkpoint, and a Hub revision per checkpoint (pushed in
  the background).
* ``reward_cost``: the benchmark of what the reward functions cost per step.
* ``grpo``: the run itself (``build_trainer``, ``train``, ``main``).

TRL, transformers, peft, accelerate and datasets are the ``train`` extra: they are imported inside
the functions that use them, so the package imports without them.
"""

from clueweaver.training.arguments import (
    AGENTS,
    MAX_PROMPT_TOKENS,
    GRPOScriptArguments,
    TrainingSetupError,
    parse_recipe,
    recipe_parser,
)
from clueweaver.training.callbacks import (
    HUB_STAGING_DIR,
    RESUME_ONLY_FILES,
    checkpoint_revision,
    hub_revision_callback,
    recipe_callback,
)
from clueweaver.training.data import (
    OVERLONG_POLICIES,
    PROMPT_FAMILIES,
    REQUIRED_COLUMNS,
    PromptLengthReport,
    check_columns,
    check_finder_gold_rows,
    check_protocol_prompts,
    enforce_prompt_length,
    limit_rows,
    load_grpo_dataset,
    prompt_token_counts,
    protocol_prompt_problem,
)
from clueweaver.training.grpo import batch_record, build_recipe_record, build_trainer, main, train
from clueweaver.training.objective import OBJECTIVES, advantage_scale, check_objective_settings, sequence_grpo_terms
from clueweaver.training.rewards import reward_design, select_reward_funcs
from clueweaver.training.settings import (
    apply_protocol_chat_template_kwargs,
    check_rollout_settings,
    configure_reporting,
    load_tokenizer,
    model_init_kwargs,
    resume_checkpoint,
)
from clueweaver.training.trainer import paper_grpo_trainer_class, paper_loss, score_completion_tokens_only_on_cpu

__all__ = [
    "AGENTS",
    "HUB_STAGING_DIR",
    "MAX_PROMPT_TOKENS",
    "OBJECTIVES",
    "OVERLONG_POLICIES",
    "PROMPT_FAMILIES",
    "REQUIRED_COLUMNS",
    "RESUME_ONLY_FILES",
    "GRPOScriptArguments",
    "PromptLengthReport",
    "TrainingSetupError",
    "advantage_scale",
    "apply_protocol_chat_template_kwargs",
    "batch_record",
    "build_recipe_record",
    "build_trainer",
    "check_columns",
    "check_finder_gold_rows",
    "check_objective_settings",
    "check_protocol_prompts",
    "check_rollout_settings",
    "checkpoint_revision",
    "configure_reporting",
    "enforce_prompt_length",
    "hub_revision_callback",
    "limit_rows",
    "load_grpo_dataset",
    "load_tokenizer",
    "main",
    "model_init_kwargs",
    "paper_grpo_trainer_class",
    "paper_loss",
    "parse_recipe",
    "prompt_token_counts",
    "protocol_prompt_problem",
    "recipe_callback",
    "recipe_parser",
    "resume_checkpoint",
    "reward_design",
    "score_completion_tokens_only_on_cpu",
    "select_reward_funcs",
    "sequence_grpo_terms",
    "train",
]
