"""The training data and its checks.

Data is a ``datasets`` folder, a JSONL file or a Hub name, built by ``data_prep/`` with the
protocol's prompts. The prompts are checked to be the protocol's (a dataset built with an older
prompt would teach the agent something inference never asks), and every prompt must fit
``max_prompt_length`` tokens once rendered with the chat template: TRL no longer truncates
prompts, so an overlong one would silently cost memory or lose the segment's end.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from tqdm.auto import tqdm

from clueweaver.protocol.prompts import TEMPLATES, finder_segment_ids
from clueweaver.protocol.rewards import check_finder_gold, finder_label
from clueweaver.training.arguments import TrainingSetupError

logger = logging.getLogger(__name__)

# Columns the reward functions read; the rest of a row is passed along untouched.
REQUIRED_COLUMNS = {"finder": ("prompt", "label"), "interpreter": ("prompt", "answer")}
# Prompt families of the protocol each agent is trained on (the Interpreter's self-calibration
# pass is the Interpreter too).
PROMPT_FAMILIES = {"finder": ("finder",), "interpreter": ("interpreter", "calibration")}
OVERLONG_POLICIES = ("error", "drop")


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


def check_finder_gold_rows(dataset, source: str = "the dataset", batch_size: int = 1024, shown: int = 10) -> None:
    """Every YES row of a Finder set names its gold paragraphs, inside its segment (its
    ``allowed_ids``, or the IDs its prompt shows): without them a correct YES tops out below a
    correct NO (the recall bias reversed); no NO row carries any. Names the rows."""
    if "gold_ids" not in dataset.column_names:
        raise TrainingSetupError(
            f"{source}: the Finder needs column gold_ids (the evidence paragraphs of each YES segment); rebuild the "
            "data with data_prep/build_finder_data.py"
        )
    # Without an allowed_ids column the segment's IDs are read back from each prompt.
    segment_column = "allowed_ids" if "allowed_ids" in dataset.column_names else "prompt"
    problems: list[str] = []
    row = 0
    for batch in dataset.select_columns(["label", "gold_ids", segment_column]).iter(batch_size=batch_size):
        allowed = batch.get("allowed_ids") or [finder_segment_ids(messages) for messages in batch["prompt"]]
        for label, gold, segment in zip(batch["label"], batch["gold_ids"], allowed):
            problem = _gold_problem(row, label, gold, segment)
            if problem:
                problems.append(problem)
            row += 1
    if problems:
        more = f" (and {len(problems) - shown} more)" if len(problems) > shown else ""
        raise TrainingSetupError(
            f"{source}: {len(problems)} row(s) cannot pay the Finder reward: " + "; ".join(problems[:shown]) + more
        )


def _gold_problem(row: int, label, gold, segment) -> str | None:
    try:
        problem = check_finder_gold(finder_label(label, row), gold or (), segment)
    except ValueError as exc:  # a label that is neither YES nor NO; the message names the row
        return str(exc)
    return f"row {row}: {problem}" if problem else None


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
