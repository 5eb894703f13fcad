"""GRPO training of the two agents with TRL's ``GRPOTrainer``: everything the entry scripts share.

``train/finder_grpo.py`` and ``train/interpreter_grpo.py`` are one line each: ``main("finder")`` /
``main("interpreter")``. A run is a recipe (``configs/<agent>/*.yaml``) plus command-line
overrides, parsed by TRL's ``TrlParser`` into three dataclasses: :class:`GRPOScriptArguments`
(data, rewards, checks), TRL's ``GRPOConfig`` (optimisation, rollouts, logging) and TRL's
``ModelConfig`` (base model, LoRA).

What this module adds around the trainer, and why:

* Data: a ``datasets`` folder, a JSONL file or a Hub name, built by ``data_prep/`` with the
  protocol's prompts. The prompts are checked to be the protocol's (a dataset built with an older
  prompt would teach the agent something inference never asks), and every prompt must fit
  ``max_prompt_length`` tokens once rendered with the chat template: TRL no longer truncates
  prompts, so an overlong one would silently cost memory or lose the segment's end.
* Rewards: the protocol's registry (``clueweaver.protocol.rewards.REWARD_FUNCS``). Each reward
  component is its own TRL reward function, so TRL logs ``rewards/<name>/mean`` per component;
  the weights must make the weighted sum exactly the paper's total (weight-0 functions are only
  logged), which is checked.
* Chat template: Qwen3 thinking disabled through ``chat_template_kwargs`` taken from the protocol
  (``CHAT_TEMPLATE_KWARGS``), as at inference; a base model without a template gets one from a file.
* Runs: seeds, resume from the last checkpoint of ``output_dir``, the recipe and reward design
  saved beside every checkpoint (``clueweaver_training.json``, read by ``clueweaver export``), wandb
  offline when no key is set, and optionally each checkpoint pushed to its own Hub revision.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

from clueweaver.errors import ClueWeaverError
from clueweaver.hub import push_folder, write_recipe

logger = logging.getLogger("clueweaver.training")

AGENTS = ("finder", "interpreter")
# Columns the reward functions read; the rest of a row is passed along untouched.
REQUIRED_COLUMNS = {"finder": ("prompt", "label"), "interpreter": ("prompt", "answer")}
# Prompt families of the protocol each agent is trained on (the Interpreter's self-calibration
# pass is the Interpreter too).
PROMPT_FAMILIES = {"finder": ("finder",), "interpreter": ("interpreter", "calibration")}
OVERLONG_POLICIES = ("error", "drop")
MAX_PROMPT_TOKENS = 9216  # Table 7: the longest prompt, after the chat template, either agent trains on
# Checkpoint files that only matter for resuming; a pushed revision leaves them out.
RESUME_ONLY_FILES = ["optimizer.pt", "scheduler.pt", "rng_state*.pth", "global_step*"]


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
            "help": "Reward functions from clueweaver.protocol.rewards.REWARD_FUNCS (default: the agent's components)."
        },
    )
    allow_reward_ablation: bool = field(
        default=False,
        metadata={"help": "Allow reward functions/weights whose weighted sum is not the paper's total reward."},
    )
    auto_resume: bool = field(
        default=True,
        metadata={"help": "Resume from the last checkpoint in output_dir when resume_from_checkpoint is not given."},
    )
    hub_revision_per_checkpoint: bool = field(
        default=False,
        metadata={"help": "Push every checkpoint to its own revision (branch step-NNNNNN) of hub_model_id."},
    )


# --- recipe --------------------------------------------------------------------------------------


def recipe_parser():
    """TRL's parser for (script arguments, GRPOConfig, ModelConfig): a YAML recipe via ``--config``,
    then command-line overrides."""
    from trl import GRPOConfig, ModelConfig, TrlParser

    return TrlParser((GRPOScriptArguments, GRPOConfig, ModelConfig))


def parse_recipe(argv: Iterable[str] | None = None):
    """``(script_args, training_args, model_args)`` from ``--config recipe.yaml`` and overrides."""
    return recipe_parser().parse_args_and_config(list(argv) if argv is not None else None)


# --- data ----------------------------------------------------------------------------------------


def load_grpo_dataset(source: str, *, split: str = "train", config: str | None = None):
    """A training set from a ``save_to_disk`` folder (a Dataset, or a DatasetDict and ``split``),
    a JSONL/JSON file, or a Hub dataset name."""
    import datasets

    if not source:
        raise TrainingSetupError("no training data: set dataset_name in the recipe or pass --dataset_name")
    path = Path(source).expanduser()
    if path.is_dir():
        if not any((path / name).is_file() for name in ("dataset_dict.json", "dataset_info.json", "state.json")):
            raise TrainingSetupError(
                f"{path}: not a `datasets` save_to_disk folder (no dataset_info.json or dataset_dict.json)"
            )
        loaded = datasets.load_from_disk(str(path))
        if isinstance(loaded, datasets.DatasetDict):
            if split not in loaded:
                raise TrainingSetupError(f"{path}: no split {split!r}; it has {', '.join(loaded)}")
            loaded = loaded[split]
        return loaded
    if path.is_file():
        if path.suffix not in (".jsonl", ".json"):
            raise TrainingSetupError(f"{path}: training data must be a datasets folder or a .jsonl/.json file")
        return datasets.load_dataset("json", data_files=str(path), split="train")
    if path.suffix in (".jsonl", ".json") or source.startswith((".", "/", "~")):
        raise TrainingSetupError(f"{path}: training data not found")
    return datasets.load_dataset(source, config, split=split)


def check_columns(dataset, agent: str, source: str = "the dataset") -> None:
    """The columns the agent's rewards need are there, and prompts are chat conversations."""
    missing = [c for c in REQUIRED_COLUMNS[agent] if c not in dataset.column_names]
    if missing:
        raise TrainingSetupError(
            f"{source}: the {agent} needs column(s) {', '.join(missing)}; it has {', '.join(dataset.column_names)}"
        )
    if len(dataset) == 0:
        raise TrainingSetupError(f"{source}: no rows to train on")
    first = dataset[0]["prompt"]
    if not (isinstance(first, list) and first and all(isinstance(m, dict) and "role" in m for m in first)):
        raise TrainingSetupError(
            f"{source}: column 'prompt' must hold chat messages ([{{'role': ..., 'content': ...}}, ...]); row 0 has "
            f"{first!r:.200}"
        )


def _system_template_parts(agent: str) -> list[tuple[str, str]]:
    """(prefix, suffix) of each protocol system message the agent is trained on, split where the
    answer-format line goes (it names the question's own labels)."""
    from clueweaver.protocol.prompts import TEMPLATES

    families = PROMPT_FAMILIES[agent]
    parts = []
    for (family, _kind), template in TEMPLATES.items():
        if family in families:
            prefix, _, suffix = template.system.partition("{answer_format}")
            parts.append((prefix, suffix))
    return parts


_ANSWER_LINE = re.compile(r"<answer>[^<>\n]{1,80}</answer>")


def protocol_prompt_problem(messages: list[dict], agent: str) -> str | None:
    """Why ``messages`` is not a protocol prompt of ``agent`` (None when it is)."""
    system = [m.get("content") for m in messages if m.get("role") == "system"]
    if len(system) != 1 or not isinstance(system[0], str):
        return "it does not have exactly one system message"
    if not any(m.get("role") == "user" for m in messages):
        return "it has no user message"
    text = system[0]
    for prefix, suffix in _system_template_parts(agent):
        if text.startswith(prefix) and text.endswith(suffix):
            middle = text[len(prefix) : len(text) - len(suffix)]
            if _ANSWER_LINE.fullmatch(middle):
                return None
    return (
        f"its system message is not the protocol's {agent} prompt (was the dataset built with another prompt version?)"
    )


def check_protocol_prompts(dataset, agent: str, source: str = "the dataset", batch_size: int = 512) -> None:
    """Every prompt's system message is the protocol's, so training asks what inference asks."""
    row = 0
    for batch in dataset.select_columns(["prompt"]).iter(batch_size=batch_size):
        for messages in batch["prompt"]:
            problem = protocol_prompt_problem(messages, agent)
            if problem:
                raise TrainingSetupError(
                    f"{source}, row {row}: {problem}; rebuild it with data_prep/, or pass --check_protocol_prompts "
                    "false"
                )
            row += 1


@dataclass
class PromptLengthReport:
    """Token counts of the rendered prompts and what was done about the overlong ones."""

    rows: int
    max_tokens: int
    mean_tokens: float
    limit: int
    overlong_rows: list[int]
    policy: str

    def describe(self) -> str:
        head = (
            f"{self.rows} prompts, {self.mean_tokens:.0f} tokens on average, longest {self.max_tokens} (limit "
            f"{self.limit})"
        )
        if not self.overlong_rows:
            return head + "; all fit"
        shown = ", ".join(map(str, self.overlong_rows[:10])) + (", ..." if len(self.overlong_rows) > 10 else "")
        return head + f"; {len(self.overlong_rows)} over the limit (rows {shown})"


def prompt_token_counts(dataset, tokenizer, chat_template_kwargs: dict, batch_size: int = 64) -> list[int]:
    """Tokens of each prompt rendered exactly as GRPOTrainer renders it (chat template, generation
    prompt, ``chat_template_kwargs``)."""
    from tqdm.auto import tqdm

    counts = []
    prompts = dataset.select_columns(["prompt"])
    with tqdm(total=len(prompts), desc="counting prompt tokens", unit="prompt") as progress:
        for batch in prompts.iter(batch_size=batch_size):
            encoded = tokenizer.apply_chat_template(
                batch["prompt"], add_generation_prompt=True, tokenize=True, return_dict=True, **chat_template_kwargs
            )
            counts.extend(len(ids) for ids in encoded["input_ids"])
            progress.update(len(batch["prompt"]))
    return counts


def enforce_prompt_length(
    dataset, tokenizer, limit: int, policy: str, chat_template_kwargs: dict, source: str = "the dataset"
):
    """``(dataset, report)``: stop on overlong prompts ('error') or filter them out ('drop')."""
    if policy not in OVERLONG_POLICIES:
        raise TrainingSetupError(f"overlong_prompts must be one of {', '.join(OVERLONG_POLICIES)}, got {policy!r}")
    counts = prompt_token_counts(dataset, tokenizer, chat_template_kwargs)
    overlong = [row for row, n in enumerate(counts) if n > limit]
    report = PromptLengthReport(len(counts), max(counts), sum(counts) / len(counts), limit, overlong, policy)
    if overlong and policy == "error":
        raise TrainingSetupError(
            f"{source}: {report.describe()}. TRL does not truncate prompts: rebuild the data within the limit, "
            "raise max_prompt_length, or pass --overlong_prompts drop"
        )
    if overlong:
        keep = sorted(set(range(len(counts))) - set(overlong))
        if not keep:
            raise TrainingSetupError(f"{source}: every prompt is over the limit ({report.describe()})")
        logger.warning("dropping overlong prompts: %s", report.describe())
        dataset = dataset.select(keep)
    return dataset, report


def limit_rows(dataset, max_rows: int | None, seed: int):
    """At most ``max_rows`` rows, drawn at random with ``seed`` (all rows when fewer)."""
    if max_rows is None or len(dataset) <= max_rows:
        if max_rows is not None:
            logger.warning(
                "max_train_samples=%d but the dataset has %d rows; training on all of them", max_rows, len(dataset)
            )
        return dataset
    return dataset.shuffle(seed=seed).select(range(max_rows))


# --- rewards -------------------------------------------------------------------------------------


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
    from clueweaver.protocol.rewards import component_names, get_reward_funcs

    components = component_names(agent)
    names = list(names) if names else components
    weights = [float(w) for w in weights] if weights is not None else [1.0] * len(names)
    if len(weights) != len(names):
        raise TrainingSetupError(f"{len(names)} reward function(s) but {len(weights)} reward weight(s)")
    foreign = [n for n in names if not (n in components or n == f"{agent}_total")]
    if foreign:
        raise TrainingSetupError(
            f"reward function(s) {', '.join(foreign)} are not {agent} rewards; use {', '.join(components)} or "
            f"{agent}_total"
        )
    try:
        funcs = get_reward_funcs(names)
    except ValueError as exc:
        raise TrainingSetupError(str(exc)) from None
    counted = dict.fromkeys(components, 0.0)
    for name, weight in zip(names, weights):
        for component in components if name == f"{agent}_total" else [name]:
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
    from clueweaver.protocol import rewards

    config = rewards.FinderRewardConfig() if agent == "finder" else rewards.InterpreterRewardConfig()
    return {
        "functions": dict(zip(names, weights)),
        "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(config).items()},
        "max_total": config.max_total,
    }


# --- run settings ---------------------------------------------------------------------------------


def apply_protocol_chat_template_kwargs(training_args) -> dict:
    """Render prompts as the protocol does at inference (Qwen3 thinking disabled); a recipe may add
    keys but not contradict the protocol's."""
    from clueweaver.protocol.prompts import CHAT_TEMPLATE_KWARGS

    given = dict(training_args.chat_template_kwargs or {})
    clash = {k: v for k, v in given.items() if k in CHAT_TEMPLATE_KWARGS and v != CHAT_TEMPLATE_KWARGS[k]}
    if clash:
        raise TrainingSetupError(f"chat_template_kwargs {clash} contradict the protocol's {CHAT_TEMPLATE_KWARGS}")
    training_args.chat_template_kwargs = {**given, **CHAT_TEMPLATE_KWARGS}
    return training_args.chat_template_kwargs


def _wandb_logged_in() -> bool:
    netrc = Path(os.environ.get("NETRC", Path.home() / ".netrc"))
    return netrc.is_file() and "api.wandb.ai" in netrc.read_text(errors="ignore")


def configure_reporting(training_args, environ=os.environ) -> str | None:
    """Make wandb reporting work anywhere: offline (synced later with ``wandb sync``) when no API
    key or login exists. Returns the wandb mode, or None when wandb is not reported to."""
    if "wandb" not in (training_args.report_to or []):
        return None
    if importlib.util.find_spec("wandb") is None:
        raise TrainingSetupError(
            "report_to includes wandb but wandb is not installed: pip install wandb, or pass --report_to none"
        )
    if "WANDB_MODE" not in environ and not environ.get("WANDB_API_KEY") and not _wandb_logged_in():
        environ["WANDB_MODE"] = "offline"
        logger.warning("no WANDB_API_KEY: wandb logs offline under ./wandb (upload later with `wandb sync`)")
    return environ.get("WANDB_MODE", "online")


def check_rollout_settings(training_args, max_prompt_length: int) -> None:
    """vLLM's context must hold the longest prompt plus the completion; sleep mode is discouraged."""
    if not training_args.use_vllm:
        return
    needed = max_prompt_length + training_args.max_completion_length
    if training_args.vllm_max_model_length is not None and training_args.vllm_max_model_length < needed:
        raise TrainingSetupError(
            f"vllm_max_model_length={training_args.vllm_max_model_length} cannot hold a {max_prompt_length}-token "
            "prompt "
            f"plus a {training_args.max_completion_length}-token completion; set it to {needed}"
        )
    if training_args.vllm_enable_sleep_mode:
        logger.warning(
            "vllm_enable_sleep_mode is on: sleep level 2 drops vLLM's weights, and waking it has fed rollouts "
            "stale base weights before (huggingface/trl#5312); the recipes keep it off"
        )


def resume_checkpoint(training_args, auto_resume: bool) -> str | None:
    """The checkpoint to resume from: the one asked for, else the last in ``output_dir``."""
    from transformers.trainer_utils import get_last_checkpoint

    asked = training_args.resume_from_checkpoint
    if asked:
        if not Path(asked).is_dir():
            raise TrainingSetupError(f"resume_from_checkpoint {asked}: no such checkpoint folder")
        return str(asked)
    if auto_resume and Path(training_args.output_dir).is_dir():
        return get_last_checkpoint(training_args.output_dir)
    return None


def score_completion_tokens_only_on_cpu(device) -> bool:
    """Make TRL's fused log-prob head score only completion positions on CPU, as it does on GPUs.

    TRL 1.16 scores every prompt and completion position over the whole vocabulary on devices
    without Triton (fixed tile shapes for compilers such as Neuron) and then masks the prompt out.
    On CPU that is most of a step (tiny-model test steps: 70 s -> 11 s; far more for a 9K prompt),
    for the same log-probs. Returns whether the switch was made."""
    if device.type != "cpu":
        return False
    import trl.trainer.utils as trl_utils

    triton_path = getattr(trl_utils, "_use_triton", None)
    if triton_path is None:  # TRL changed: nothing to switch
        return False
    if not getattr(triton_path, "includes_cpu", False):

        def compact_on_cpu(tensor_device) -> bool:
            return tensor_device.type == "cpu" or triton_path(tensor_device)

        compact_on_cpu.includes_cpu = True
        trl_utils._use_triton = compact_on_cpu
    return True


def model_init_kwargs(model_args, training_args) -> dict:
    """``from_pretrained`` arguments from ModelConfig (recipe values in model_init_kwargs win)."""
    kwargs = dict(training_args.model_init_kwargs or {})
    kwargs.setdefault("revision", model_args.model_revision)
    if model_args.dtype is not None:
        kwargs.setdefault("dtype", model_args.dtype)
    if model_args.attn_implementation is not None:
        kwargs.setdefault("attn_implementation", model_args.attn_implementation)
    # the KV cache is useless when activations are recomputed, and warns with checkpointing
    kwargs.setdefault("use_cache", not training_args.gradient_checkpointing)
    return kwargs


def load_tokenizer(model_args, chat_template_path: str | None = None, trust_remote_code: bool = False):
    """The model's tokenizer, left-padded for generation, with a chat template."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(
        model_args.model_name_or_path,
        revision=model_args.model_revision,
        padding_side="left",
        truncation_side="left",
        trust_remote_code=trust_remote_code,
    )
    if chat_template_path:
        path = Path(chat_template_path)
        if not path.is_file():
            raise TrainingSetupError(f"chat_template_path {path}: no such file")
        tokenizer.chat_template = path.read_text(encoding="utf-8")
    if not getattr(tokenizer, "chat_template", None):
        raise TrainingSetupError(
            f"{model_args.model_name_or_path}: the tokenizer has no chat template; pass --chat_template_path "
            "FILE.jinja"
        )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


# --- callbacks -----------------------------------------------------------------------------------


def _checkpoint_dir(args, state) -> Path:
    from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

    return Path(args.output_dir) / f"{PREFIX_CHECKPOINT_DIR}-{state.global_step}"


def recipe_callback(recipe: dict):
    """A callback that writes the recipe beside every checkpoint, so each one documents itself."""
    from transformers import TrainerCallback

    class SaveRecipe(TrainerCallback):
        def on_save(self, args, state, control, **kwargs):
            folder = _checkpoint_dir(args, state)
            if state.is_world_process_zero and folder.is_dir():
                write_recipe(folder, recipe)

    return SaveRecipe()


def hub_revision_callback(
    repo_id: str, *, private: bool | None = None, token: str | None = None, endpoint: str | None = None
):
    """A callback that pushes each checkpoint's model files to revision ``step-NNNNNN`` of
    ``repo_id`` (the optimizer state stays local)."""
    from transformers import TrainerCallback

    class PushCheckpointRevision(TrainerCallback):
        def on_save(self, args, state, control, **kwargs):
            folder = _checkpoint_dir(args, state)
            if not (state.is_world_process_zero and folder.is_dir()):
                return
            revision = checkpoint_revision(state.global_step)
            url = push_folder(
                folder,
                repo_id,
                private=private,
                revision=revision,
                token=token,
                endpoint=endpoint,
                ignore_patterns=RESUME_ONLY_FILES,
                commit_message=f"checkpoint at step {state.global_step}",
            )
            logger.info("pushed %s to %s", folder, url)

    return PushCheckpointRevision()


def checkpoint_revision(step: int) -> str:
    """The Hub branch of the checkpoint at ``step``: sorts in step order."""
    return f"step-{step:06d}"


# --- the run -------------------------------------------------------------------------------------


def build_recipe_record(
    agent, script_args, training_args, model_args, reward_names, reward_weights, length_report, rows
) -> dict:
    """What a checkpoint was trained with, for its model card and for reproducing it."""
    import transformers
    import trl

    return {
        "agent": agent,
        "base_model": model_args.model_name_or_path,
        "script": asdict(script_args),
        "model": asdict(model_args),
        "grpo": training_args.to_dict(),
        "reward": reward_design(agent, reward_names, reward_weights),
        "data": {
            "source": script_args.dataset_name,
            "split": script_args.dataset_split,
            "rows": rows,
            "prompt_tokens": asdict(length_report),
        },
        "versions": {"trl": trl.__version__, "transformers": transformers.__version__},
    }


def build_trainer(agent: str, script_args: GRPOScriptArguments, training_args, model_args, *, callbacks=()):
    """``(trainer, recipe)``: every check done, data loaded, rewards chosen, TRL's GRPOTrainer built
    (``callbacks`` are added to the trainer's own)."""
    from transformers import set_seed
    from trl import GRPOTrainer, get_peft_config, get_quantization_config

    if agent not in AGENTS:
        raise TrainingSetupError(f"unknown agent {agent!r}; use {' or '.join(AGENTS)}")
    if not model_args.model_name_or_path:
        raise TrainingSetupError("no model: set model_name_or_path in the recipe or pass --model_name_or_path")
    set_seed(training_args.seed)
    configure_reporting(training_args)
    check_rollout_settings(training_args, script_args.max_prompt_length)
    chat_kwargs = apply_protocol_chat_template_kwargs(training_args)
    funcs, weights = select_reward_funcs(
        agent,
        script_args.reward_funcs,
        training_args.reward_weights,
        allow_ablation=script_args.allow_reward_ablation,
        aggregation=training_args.multi_objective_aggregation,
    )
    training_args.reward_weights = weights
    reward_names = [f.__name__ for f in funcs]

    tokenizer = load_tokenizer(model_args, script_args.chat_template_path, training_args.trust_remote_code)
    source = script_args.dataset_name
    with training_args.main_process_first(desc="loading and checking the training data"):
        dataset = load_grpo_dataset(source, split=script_args.dataset_split, config=script_args.dataset_config)
        check_columns(dataset, agent, source)
        if script_args.check_protocol_prompts:
            check_protocol_prompts(dataset, agent, source)
        dataset = limit_rows(dataset, script_args.max_train_samples, training_args.data_seed or training_args.seed)
        dataset, length_report = enforce_prompt_length(
            dataset, tokenizer, script_args.max_prompt_length, script_args.overlong_prompts, chat_kwargs, source
        )
    logger.info("training data %s: %s", source, length_report.describe())

    training_args.model_init_kwargs = model_init_kwargs(model_args, training_args)
    score_completion_tokens_only_on_cpu(training_args.device)
    recipe = build_recipe_record(
        agent, script_args, training_args, model_args, reward_names, weights, length_report, len(dataset)
    )
    callbacks = [recipe_callback(recipe), *callbacks]
    if script_args.hub_revision_per_checkpoint:
        if not training_args.hub_model_id:
            raise TrainingSetupError("hub_revision_per_checkpoint needs hub_model_id (the Hub repository to push to)")
        callbacks.append(
            hub_revision_callback(
                training_args.hub_model_id, private=training_args.hub_private_repo, token=training_args.hub_token
            )
        )

    trainer = GRPOTrainer(
        model=model_args.model_name_or_path,
        reward_funcs=funcs,
        args=training_args,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=get_peft_config(model_args),
        quantization_config=get_quantization_config(model_args),
        callbacks=callbacks,
    )
    return trainer, recipe


def train(agent: str, script_args: GRPOScriptArguments, training_args, model_args):
    """Run GRPO for ``agent`` ("finder" or "interpreter"), resuming when a checkpoint exists; the
    final model, tokenizer, state and recipe go to ``output_dir``. Returns the trainer."""
    trainer, recipe = build_trainer(agent, script_args, training_args, model_args)
    checkpoint = resume_checkpoint(training_args, script_args.auto_resume)
    if checkpoint:
        logger.info("resuming from %s", checkpoint)
    result = trainer.train(resume_from_checkpoint=checkpoint)
    trainer.log_metrics("train", result.metrics)
    trainer.save_metrics("train", result.metrics)
    trainer.save_state()
    trainer.save_model(training_args.output_dir)
    if trainer.accelerator.is_main_process:
        write_recipe(training_args.output_dir, recipe)
    return trainer


def main(agent: str, argv: list[str] | None = None) -> int:
    """Entry point of ``train/<agent>_grpo.py``: parse the recipe and train; setup errors are
    printed without a traceback (exit status 2)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        try:
            script_args, training_args, model_args = parse_recipe(argv)
        except ValueError as exc:  # unknown recipe keys, bad values: TRL names them
            raise TrainingSetupError(f"recipe: {exc}") from None
        train(agent, script_args, training_args, model_args)
    except TrainingSetupError as exc:
        print(f"{agent}_grpo: error: {exc}", file=sys.stderr)
        return 2
    return 0
