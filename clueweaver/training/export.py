"""A training checkpoint turned into a Hub-ready model folder, and pushes to the Hugging Face Hub.

``export_checkpoint`` writes safetensors weights (a LoRA checkpoint merged into its base with
``merge_lora``, or kept as an adapter), the tokenizer with its chat template, the generation config
and a model card (``README.md``) built from what the trainer saved beside the checkpoint
(``clueweaver_training.json``: base model, agent, data, reward design, hyperparameters) and its
``trainer_state.json`` (last logged rewards), plus evaluation numbers when given. The card names the
base model by its Hub id (never a local path) with its license, and the run's scale (processes,
global batch, prompts per step, epochs). The folder loads with ``AutoModelForCausalLM.from_pretrained``
and serves with the inference engine.

``clueweaver.training.hub.push_folder`` uploads the folder (``clueweaver export --push-to-hub``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import yaml

from clueweaver.core.errors import ClueWeaverError
from clueweaver.training.hub import RECIPE_FILE, base_model_identity, write_recipe

ADAPTER_FILES = ("adapter_config.json", "adapter_model.safetensors")
AGENT_ROLES = {
    "finder": (
        "the **Finder**: it reads one candidate segment of a long narrative at a time (paragraphs prefixed "
        "with their IDs, like `[12]`) and says whether it holds any clue for the question or claim, "
        "answering `<reason>...</reason>` (citing paragraph IDs when YES) then `<answer>YES</answer>` or "
        "`<answer>NO</answer>`. It favours recall: a rejected segment is never read again."
    ),
    "interpreter": (
        "the **Interpreter**: it answers a multiple-choice question (`<answer>A/B/C/D</answer>`) or judges a "
        "claim (`<answer>TRUE or FALSE</answer>`) from an evidence packet of selected paragraphs in "
        "narrative order, with a `<reason>` that cites the paragraph IDs it relies on; on risky questions it "
        "re-checks its own answer (self-calibration)."
    ),
}
# Hyperparameters shown in the card, in this order (keys of the saved GRPOConfig).
CARD_HYPERPARAMETERS = (
    "learning_rate",
    "lr_scheduler_type",
    "warmup_steps",
    "per_device_train_batch_size",
    "gradient_accumulation_steps",
    "max_steps",
    "num_generations",
    "max_completion_length",
    "temperature",
    "top_p",
    "top_k",
    "beta",
    "epsilon",
    "loss_type",
    "scale_rewards",
    "importance_sampling_level",
    "num_iterations",
    "bf16",
    "seed",
    "use_vllm",
    "vllm_mode",
)


class ExportError(ClueWeaverError, ValueError):
    """A checkpoint or output folder that cannot be exported; the message says which and why."""


def read_recipe(checkpoint: Path) -> dict:
    """The training record saved beside the checkpoint (or in its run folder); {} when absent."""
    for folder in (checkpoint, checkpoint.parent):
        path = folder / RECIPE_FILE
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
    return {}


def last_logged_rewards(checkpoint: Path) -> dict[str, float]:
    """The step, total reward and component means (``reward``, ``rewards/<name>/mean``) of the last
    log entry that has them."""
    state = checkpoint / "trainer_state.json"
    if not state.is_file():
        return {}
    entries = [e for e in json.loads(state.read_text(encoding="utf-8")).get("log_history", []) if "reward" in e]
    if not entries:
        return {}
    last = entries[-1]
    rewards = {k: v for k, v in last.items() if k == "reward" or (k.startswith("rewards/") and k.endswith("/mean"))}
    return {"step": last.get("step"), **rewards}


def _markdown_table(header: tuple[str, str], rows: list[tuple[Any, Any]]) -> str:
    lines = [f"| {header[0]} | {header[1]} |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in rows]
    return "\n".join(lines)


def _flatten(results: dict, prefix: str = "") -> list[tuple[str, Any]]:
    rows = []
    for key, value in results.items():
        name = f"{prefix}{key}"
        rows += _flatten(value, name + " / ") if isinstance(value, dict) else [(name, value)]
    return rows


def _batch_rows(recipe: dict) -> list[tuple[str, Any]]:
    """The run's scale: processes, completions and prompts per optimizer step, passes over the data."""
    batch = recipe.get("batch", {})
    names = {
        "objective": recipe.get("objective"),
        "processes": batch.get("processes"),
        "global batch (completions per optimizer step)": batch.get("global_batch_completions"),
        "prompts per optimizer step": batch.get("prompts_per_step"),
        "epochs over the training data": batch.get("epochs"),
    }
    return [(name, value) for name, value in names.items() if value is not None]


def model_card(
    recipe: dict,
    *,
    base_model: str | None,
    base_model_license: str | None = None,
    merged_lora: bool,
    adapter_only: bool,
    rewards: dict[str, float],
    eval_results: dict | None = None,
    title: str | None = None,
) -> str:
    """The README.md of an exported agent: front matter for the Hub, then role, usage, training,
    data, reward design and numbers."""
    agent = recipe.get("agent")
    grpo = recipe.get("grpo", {})
    model = recipe.get("model", {})
    meta = {
        "library_name": "peft" if adapter_only else "transformers",
        "pipeline_tag": "text-generation",
        "tags": ["clueweaver", "grpo", "trl", "long-narrative-qa", *([agent] if agent else [])],
    }
    if base_model_license:
        meta["license"] = base_model_license
    if base_model:
        meta["base_model"] = base_model
    name = title or f"ClueWeaver {agent.capitalize() if agent else 'agent'}"
    parts = [f"---\n{yaml.safe_dump(meta, sort_keys=False)}---\n", f"# {name}\n"]
    role = AGENT_ROLES.get(agent, "a ClueWeaver reader agent.")
    licensed = (
        f" (license: {base_model_license}, which this model inherits)"
        if base_model_license
        else " (whose license is unknown: none was recorded; check the base model's own card)"
    )
    base = f"`{base_model}`" if base_model else "a base model whose Hub id is unknown (none was recorded)"
    parts.append(
        f"This model is {role}\n\nIt was fine-tuned from {base}{licensed} with "
        "GRPO (TRL's `GRPOTrainer`) and the rule-based rewards of the ClueWeaver agent protocol.\n"
    )
    weights = (
        "LoRA adapter (load it on top of the base model)"
        if adapter_only
        else ("LoRA adapter merged into the base weights" if merged_lora else "full weights")
    )
    parts.append(
        "## Usage\n\nPrompts come from `clueweaver.protocol.prompts` (the same at training and inference); "
        "render them with the chat template and thinking disabled (`enable_thinking=False`). "
        f"The folder holds {weights}, the tokenizer with its chat template and the generation config.\n\n"
        "```python\nfrom transformers import AutoModelForCausalLM, AutoTokenizer\n\n"
        "model = AutoModelForCausalLM.from_pretrained(PATH)\ntokenizer = AutoTokenizer.from_pretrained(PATH)\n```\n"
    )
    if grpo:
        rows = _batch_rows(recipe) + [(key, grpo[key]) for key in CARD_HYPERPARAMETERS if key in grpo]
        if model.get("use_peft"):
            rows += [
                ("lora_r", model.get("lora_r")),
                ("lora_alpha", model.get("lora_alpha")),
                ("lora_target_modules", model.get("lora_target_modules")),
            ]
        versions = recipe.get("versions", {})
        parts.append(
            "## Training\n\n"
            + _markdown_table(("hyperparameter", "value"), rows)
            + f"\n\nTRL {versions.get('trl', '?')}, transformers {versions.get('transformers', '?')}.\n"
        )
    data = recipe.get("data")
    if data:
        tokens = data.get("prompt_tokens", {})
        parts.append(
            f"## Data\n\n`{data.get('source')}` (split `{data.get('split')}`), {data.get('rows')} training prompts; "
            f"prompt length {tokens.get('mean_tokens', 0):.0f} tokens on average, at most {tokens.get('max_tokens')} "
            f"(limit {tokens.get('limit')}, {len(tokens.get('overlong_rows', []))} over it).\n"
        )
    reward = recipe.get("reward")
    if reward:
        functions = _markdown_table(("reward function", "weight"), list(reward.get("functions", {}).items()))
        constants = _markdown_table(
            ("constant", "value"),
            [(k, v) for k, v in reward.get("config", {}).items() if not isinstance(v, (list, dict))],
        )
        parts.append(
            "## Reward design\n\nRule-based, unnormalized (GRPO normalizes within each group of completions). "
            "Each component is its own reward function, logged separately; their weighted sum is the total "
            f"(maximum {reward.get('max_total')}).\n\n{functions}\n\nConstants "
            "(`clueweaver.protocol.rewards`):\n\n" + constants + "\n"
        )
    if rewards:
        step = rewards.get("step")
        rows = [(k, f"{v:.4f}") for k, v in rewards.items() if k != "step"]
        parts.append(
            f"## Training reward at the last logged step{f' ({step})' if step is not None else ''}\n\n"
            + _markdown_table(("metric", "value"), rows)
            + "\n"
        )
    if eval_results:
        parts.append(
            "## Evaluation\n\n" + _markdown_table(("benchmark / metric", "value"), _flatten(eval_results)) + "\n"
        )
    return "\n".join(parts)


def card_identity(recipe: dict, base_model: str | None, hub_id: str | None = None, license: str | None = None) -> dict:
    """The base model's Hub id and license for the card: given, recorded by the trainer, or found
    from ``base_model``; an ExportError when either stays unknown (a card needs both, and a local
    path is no Hub id)."""
    identity = base_model_identity(
        base_model or "",
        hub_id or recipe.get("base_model_hub_id"),
        license or recipe.get("base_model_license"),
    )
    flags = {"hub_id": ("Hub id", "--base-model-id"), "license": ("license", "--base-model-license")}
    missing = [flags[key] for key in flags if not identity[key]]
    if missing:
        raise ExportError(
            f"the model card needs the base model's {' and '.join(what for what, _ in missing)}, which "
            f"{base_model or 'the checkpoint'} does not tell (a local folder is no Hub id; the license comes from "
            f"its README): pass {' and '.join(flag for _, flag in missing)} (for the paper's base model: "
            "--base-model-id Qwen/Qwen3-4B-Instruct-2507 --base-model-license apache-2.0)"
        )
    return identity


def _prepare_output(out: Path, overwrite: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not overwrite:
            raise ExportError(f"{out}: the output folder is not empty; choose another or pass --overwrite")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def export_checkpoint(
    checkpoint: str | Path,
    out: str | Path,
    *,
    merge_lora: bool = False,
    base_model: str | None = None,
    base_model_id: str | None = None,
    base_model_license: str | None = None,
    eval_results: dict | None = None,
    title: str | None = None,
    overwrite: bool = False,
) -> Path:
    """Write the Hub-ready folder of ``checkpoint`` to ``out`` (see the module doc)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    checkpoint, out = Path(checkpoint), Path(out)
    is_adapter = (checkpoint / ADAPTER_FILES[0]).is_file()
    if not checkpoint.is_dir() or not (is_adapter or (checkpoint / "config.json").is_file()):
        raise ExportError(f"{checkpoint}: not a checkpoint folder (no config.json or adapter_config.json)")
    if merge_lora and not is_adapter:
        raise ExportError(
            f"{checkpoint}: --merge-lora given but the checkpoint holds full weights, not a LoRA adapter"
        )
    recipe = read_recipe(checkpoint)
    if is_adapter:
        adapter_base = json.loads((checkpoint / ADAPTER_FILES[0]).read_text())["base_model_name_or_path"]
        base_model = base_model or adapter_base
    else:
        base_model = base_model or recipe.get("base_model")
    identity = card_identity(recipe, base_model, base_model_id, base_model_license)
    tokenizer = AutoTokenizer.from_pretrained(str(checkpoint))
    if not getattr(tokenizer, "chat_template", None):
        raise ExportError(f"{checkpoint}: the tokenizer has no chat template; the agents' prompts need one")

    _prepare_output(out, overwrite)
    if is_adapter and not merge_lora:
        for name in ADAPTER_FILES:
            shutil.copy2(checkpoint / name, out / name)
        generation_config = None
    else:
        if is_adapter:
            from peft import PeftModel

            base = AutoModelForCausalLM.from_pretrained(base_model, dtype="auto")
            model = PeftModel.from_pretrained(base, str(checkpoint)).merge_and_unload()
        else:
            model = AutoModelForCausalLM.from_pretrained(str(checkpoint), dtype="auto")
        with torch.no_grad():
            model.save_pretrained(out)  # safetensors
        generation_config = model.generation_config
    tokenizer.save_pretrained(out)
    if generation_config is not None:
        eos = generation_config.eos_token_id
        eos = [] if eos is None else [eos] if isinstance(eos, int) else list(eos)
        if tokenizer.eos_token_id is not None and tokenizer.eos_token_id not in eos:
            generation_config.eos_token_id = [tokenizer.eos_token_id, *eos]  # the end of a chat turn ends a reply
        generation_config.pad_token_id = tokenizer.pad_token_id
        generation_config.save_pretrained(out)
    card = model_card(
        recipe,
        base_model=identity["hub_id"],
        base_model_license=identity["license"],
        merged_lora=is_adapter and merge_lora,
        adapter_only=is_adapter and not merge_lora,
        rewards=last_logged_rewards(checkpoint),
        eval_results=eval_results,
        title=title,
    )
    (out / "README.md").write_text(card, encoding="utf-8")
    if recipe:
        write_recipe(out, recipe)
    return out
