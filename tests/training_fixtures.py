"""Tiny models, datasets and launch helpers shared by the training and export tests.

The datasets are made the way ``data_prep/`` makes them: prompts from the protocol
(``finder_messages`` / ``interpreter_messages``) over "[id] text" segments of a small narrative.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from clueweaver.backends.stand_ins import build_tiny_qwen3
from clueweaver.books.narrative import from_paragraphs
from clueweaver.protocol.prompts import finder_messages, interpreter_messages
from clueweaver.protocol.question import Question

REPO_ROOT = Path(__file__).resolve().parents[1]

PARAGRAPHS = [
    "The lamp in the lighthouse went dark at nine, an hour before the storm reached Gull Point.",
    "Mrs. Hale said she had seen the keeper, Tom Brant, rowing toward the mainland at dusk.",
    "The harbour master kept the only spare key to the lamp room in his desk drawer.",
    "At the inn, the fishermen argued about the price of herring and the new tariff.",
    "A wet oilskin coat, far too large for the keeper, hung behind the lamp room door.",
    "The vicar's garden party was ruined by rain, and the cakes were given to the school.",
    "Brant's boat was found the next morning, dry and tied up in its usual place.",
    "The church bells were recast in the spring, and the new ones rang a tone higher.",
]


def tiny_narrative():
    return from_paragraphs(PARAGRAPHS, title="The Lantern at Gull Point")


QUESTION = Question(
    "Who most likely put out the lighthouse lamp?",
    {"A": "Tom Brant, the keeper", "B": "The harbour master", "C": "Mrs. Hale", "D": "The vicar"},
)
CLAIM = Question.claim("The keeper's boat was dry the morning after the storm.")


def finder_rows() -> list[dict]:
    """Eight Finder rows, four gold-bearing segments (YES) and four without evidence (NO)."""
    narrative = tiny_narrative()
    cases = [  # (question, segment paragraph IDs, gold IDs)
        (QUESTION, (1, 2), (2,)), (QUESTION, (4,), (4,)), (CLAIM, (6,), (6,)), (CLAIM, (5, 6), (6,)),
        (QUESTION, (3,), ()), (QUESTION, (5,), ()), (CLAIM, (7,), ()), (CLAIM, (3,), ()),
    ]  # fmt: skip
    rows = []
    for question, ids, gold in cases:
        rows.append(
            {
                "prompt": finder_messages(question, narrative.render(ids)),
                "label": "YES" if gold else "NO",
                "gold_ids": list(gold),
                "allowed_ids": list(ids),
                "label_source": "gold",
            }
        )
    return rows


def interpreter_rows() -> list[dict]:
    """Eight Interpreter rows over two evidence packets (a question and a claim)."""
    narrative = tiny_narrative()
    rows = []
    for question, answer, ids in ((QUESTION, "B", (1, 2, 4)), (CLAIM, "TRUE", (0, 6))):
        packet = narrative.render(ids)
        for hard in (False, True, False, True):
            rows.append(
                {
                    "prompt": interpreter_messages(question, packet),
                    "question": question.text,
                    "answer": answer,
                    "answer_kind": question.kind,
                    "options": dict(question.options) or None,
                    "allowed_ids": list(ids),
                    "hard": hard,
                    "evidence": packet,
                    "gold_ids": list(ids[-1:]),
                }
            )
    return rows


def brevity_reward(prompts, completions, **columns) -> list[float]:
    """A recipe's own reward, which the tests name by its import path: shorter replies score higher."""
    return [1.0 / (1 + len(completion[0]["content"].split())) for completion in completions]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def build_tiny_model(path: Path) -> Path:
    """A one-layer random Qwen3 with the real Qwen3 tokenizer and chat template."""
    return build_tiny_qwen3(path, num_hidden_layers=1)


FINDER_REPLY = (
    "<reason>The segment is about other matters and does not mention the case at all.</reason>\n<answer>NO</answer>"
)
INTERPRETER_REPLY = (
    "<reason>Paragraph [2] says the harbour master kept the only spare key.</reason>\n<answer>B</answer>"
)


def teach_reply(
    model_dir: Path, conversations: list[list[dict]], reply: str, *, steps: int = 30, lr: float = 2e-2
) -> Path:
    """Train the tiny model in ``model_dir`` (in place) to answer every conversation with ``reply``,
    so GRPO tests see protocol-shaped completions and non-zero rewards instead of random tokens.
    The tied embedding stays frozen and only the reply positions go through the 152K-wide output
    layer, which keeps this to seconds."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32)
    reply_ids = tokenizer(reply + "<|im_end|>", add_special_tokens=False)["input_ids"]
    batch = [
        tokenizer.apply_chat_template(
            c, add_generation_prompt=True, tokenize=True, return_dict=True, enable_thinking=False
        )["input_ids"]
        for c in conversations
    ]
    width = max(len(ids) for ids in batch)
    pad = tokenizer.pad_token_id
    inputs = torch.tensor([[pad] * (width - len(ids)) + ids + reply_ids for ids in batch])
    mask = torch.tensor([[0] * (width - len(ids)) + [1] * (len(ids) + len(reply_ids)) for ids in batch])
    targets = torch.tensor(reply_ids).repeat(len(batch), 1)
    model.get_input_embeddings().weight.requires_grad_(False)
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    model.train()
    for _ in range(steps):
        hidden = model.model(input_ids=inputs, attention_mask=mask).last_hidden_state
        logits = model.lm_head(hidden[:, width - 1 : -1])  # the positions that predict the reply
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.save_pretrained(model_dir)
    return model_dir


# Overrides that turn a paper recipe into a CPU run of a few tiny GRPO steps.
CPU_OVERRIDES = [
    "--bf16", "false", "--use_cpu", "true", "--cpu_compact_logprobs", "true", "--dtype", "float32",
    "--report_to", "none", "--gradient_checkpointing", "false",
    "--per_device_train_batch_size", "4", "--gradient_accumulation_steps", "1", "--num_generations", "2",
    "--max_completion_length", "32", "--max_prompt_length", "2048", "--logging_steps", "1",
    "--save_steps", "2", "--num_completions_to_print", "1", "--dataloader_num_workers", "0",
]  # fmt: skip


def launch(script: str, recipe: str, *overrides: str, env: dict | None = None, timeout: int = 600):
    """``accelerate launch --config_file configs/accelerate/cpu.yaml train/<script> --config <recipe> ...``
    from the repository root, as a user runs it; returns the CompletedProcess."""
    command = [
        str(Path(sys.executable).parent / "accelerate"),
        "launch",
        "--config_file",
        "configs/accelerate/cpu.yaml",
        f"train/{script}",
        "--config",
        recipe,
        *CPU_OVERRIDES,
        "--use_vllm",
        "false",
        *overrides,
    ]
    run_env = {**os.environ, "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1", "WANDB_MODE": "disabled"}
    for name, value in (env or {}).items():  # None removes a variable
        if value is None:
            run_env.pop(name, None)
        else:
            run_env[name] = value
    return subprocess.run(command, cwd=REPO_ROOT, env=run_env, capture_output=True, text=True, timeout=timeout)


def log_history(output_dir: Path) -> list[dict]:
    """The trainer's log entries (trainer_state.json of the run's last save)."""
    return json.loads((output_dir / "trainer_state.json").read_text())["log_history"]
