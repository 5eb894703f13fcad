"""The recipe of a run: TRL's ``TrlParser`` reads a YAML recipe (``configs/<agent>/*.yaml``) and
command-line overrides into three dataclasses: :class:`GRPOScriptArguments` (data, rewards, checks,
Hub revisions), TRL's ``GRPOConfig`` (optimisation, rollouts, logging) and TRL's ``ModelConfig``
(base model, LoRA)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from clueweaver.core.errors import ClueWeaverError

AGENTS = ("finder", "interpreter")
MAX_PROMPT_TOKENS = 9216  # Table 7: the longest prompt, after the chat template, either agent trains on


class TrainingSetupError(ClueWeaverError, ValueError):
    """A recipe, dataset or environment that cannot train; the message says what and how to fix it."""


@dataclass
class GRPOScriptArguments:
    """The parts of a recipe that are not TRL's: data, rewards, checks, Hub revisions."""

    dataset_name: str | None = field(
        default=None,
        metadata={
            "help": "Training data: a `datasets` save_to_disk folder, a .jsonl/.json file, or a Hub dataset name."
        },
    )
    dataset_config: str | None = field(default=None, metadata={"help": "Hub dataset configuration name."})
    dataset_split: str = field(default="train", metadata={"help": "Split to train on."})
    max_train_samples: int | None = field(
        default=None,
        metadata={
            "help": (
                "Train on at most this many rows, drawn with the data seed (Table 7: Finder 12K, Interpreter 1.0K)."
            )
        },
    )
    max_prompt_length: int = field(
        default=MAX_PROMPT_TOKENS,
        metadata={"help": "Most tokens a prompt may have after the chat template (Table 7: 9,216)."},
    )
    overlong_prompts: str = field(
        default="error",
        metadata={
            "help": (
                "What to do with prompts over max_prompt_length: 'error' (stop with a report) or 'drop' (filter, "
                "report)."
            )
        },
    )
    check_protocol_prompts: bool = field(
        default=True,
        metadata={"help": "Require every system message to be the protocol's prompt for this agent."},
    )
    chat_template_path: str | None = field(
        default=None,
        metadata={"help": "A Jinja chat template file for a model whose tokenizer has none (base models)."},
    )
    reward_funcs: list[str] | None = field(
        default=None,
        metadata={
            "help": "Reward functions of clueweaver.protocol.reward_registry.REWARD_FUNCS, or a reward function's "
            "import path (my_package.my_module.my_reward) (default: the agent's components)."
        },
    )
    allow_reward_ablation: bool = field(
        default=False,
        metadata={"help": "Allow reward functions/weights whose weighted sum is not the paper's total reward."},
    )
    objective: str = field(
        default="trl",
        metadata={
            "help": (
                "'paper': the paper's sequence-level GRPO objective (sequence ratio and KL, 1/K group std; needs "
                "loss_type grpo and importance_sampling_level sequence); 'trl': TRL's loss as loss_type sets it."
            )
        },
    )
    cpu_compact_logprobs: bool = field(
        default=False,
        metadata={
            "help": (
                "CPU runs only (tests, CPU experiments): score only completion positions, patching TRL 1.16's "
                "private trl.trainer.utils._use_triton; 6x faster steps for the same log-probs."
            )
        },
    )
    base_model_id: str | None = field(
        default=None,
        metadata={
            "help": (
                "The base model's Hugging Face Hub id, for the model card, when model_name_or_path is a local folder."
            )
        },
    )
    base_model_license: str | None = field(
        default=None,
        metadata={
            "help": "The base model's license (e.g. apache-2.0), for the model card; read from its README when unset."
        },
    )
    auto_resume: bool = field(
        default=True,
        metadata={"help": "Resume from the last checkpoint in output_dir when resume_from_checkpoint is not given."},
    )
    hub_revision_per_checkpoint: bool = field(
        default=False,
        metadata={"help": "Push every checkpoint to its own revision (branch step-NNNNNN) of hub_model_id."},
    )


def recipe_parser():
    """TRL's parser for (script arguments, GRPOConfig, ModelConfig): a YAML recipe via ``--config``,
    then command-line overrides."""
    from trl import GRPOConfig, ModelConfig, TrlParser

    return TrlParser((GRPOScriptArguments, GRPOConfig, ModelConfig))


def parse_recipe(argv: Iterable[str] | None = None):
    """``(script_args, training_args, model_args)`` from ``--config recipe.yaml`` and overrides."""
    return recipe_parser().parse_args_and_config(list(argv) if argv is not None else None)
