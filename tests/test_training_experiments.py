"""The two measurement scripts of docs/training.md: the learning-signal experiment's data, reward
curve and summary, and the scale probe (its estimate, its exact-length prompts, a tiny CPU run)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from clueweaver.protocol.rewards import build_reward_funcs, component_names, finder_reward_components
from clueweaver.training import protocol_prompt_problem, reward_cost
from tests.training_fixtures import finder_rows

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


ROOT = Path(__file__).resolve().parents[1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "train" / "experiments" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


signal = _script("finder_learning_signal")
probe = _script("grpo_scale_probe")


def test_demonstrations_show_a_fully_rewarded_reply():
    for row in finder_rows():
        reply = signal.demonstration_reply({**row, "answer_kind": "claim"})
        scores = finder_reward_components(
            reply, label=row["label"], gold_ids=row["gold_ids"], allowed_ids=row["allowed_ids"]
        )
        expected = {
            "YES": ("format", "verdict", "id_f1", "compact_ids", "length"),
            "NO": ("format", "verdict", "negative_rationale", "length"),
        }[row["label"]]
        assert all(scores[c] > 0 for c in expected), (row["label"], scores)


def test_a_demonstration_keeps_the_protocol_prompt_and_the_case():
    rows = finder_rows()
    demo = {**rows[4], "example_id": "demo-4"}
    shown = signal.with_demonstration(rows[0], demo)
    assert [m["role"] for m in shown["prompt"]] == ["system", "user", "assistant", "user"]
    assert shown["prompt"][0] == rows[0]["prompt"][0] and shown["prompt"][-1] == rows[0]["prompt"][-1]
    assert shown["prompt"][1] == rows[4]["prompt"][-1] and shown["demonstration"] == "demo-4"
    assert protocol_prompt_problem(shown["prompt"], "finder") is None
    assert shown["label"] == rows[0]["label"] and shown["gold_ids"] == rows[0]["gold_ids"]


def test_reward_curve_and_summary(tmp_path):
    history = [{"step": s, "reward": 0.5 * s, "rewards/finder_format/mean": 0.1 * s, "loss": 0.0} for s in range(1, 7)]
    history.append({"step": 6, "train_runtime": 10.0})
    series = signal.reward_series(history)
    assert series["reward"] == [(s, 0.5 * s) for s in range(1, 7)] and series["finder_verdict"] == []
    summary = signal.window_means(series, 2)
    assert summary["reward"] == {"first": 0.75, "last": 2.75, "steps": 6} and "finder_verdict" not in summary
    png = signal.plot(series, tmp_path / "curve.png", 2, "test")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_paper_run_estimate_recovers_the_measured_utilization():
    config = probe.QWEN3_4B
    flops = 8 * probe.model_flops(config, 9216 + 256, 5.0)
    measured = {"train_s_per_micro_batch": flops / (0.4 * 989e12), "device_bf16_flops": 989e12, "parameters": 4.02e9}
    estimate = probe.estimate_paper_run(config, measured)
    assert estimate["mfu_measured"] == pytest.approx(0.4)
    parts = estimate["per_step_s"]
    assert parts["total"] == pytest.approx(sum(v for k, v in parts.items() if k != "total"))
    assert estimate["run_hours"] == pytest.approx(150 * parts["total"] / 3600)
    # 8 micro-batches of 8 completions per GPU and step, one more forward (vLLM's importance sampling),
    # at 312/989 of the speed: the training part alone is 8 * 6/5 * 989/312 times the measured one
    assert parts["train"] == pytest.approx(8 * 6 / 5 * 989 / 312 * measured["train_s_per_micro_batch"])
    assert probe.model_flops(config, 1, 1) / 2 == pytest.approx(4.02e9, rel=0.01)  # Qwen3-4B's matrices
    assert probe.peak_bf16_flops("NVIDIA H200") == 989e12 and probe.peak_bf16_flops("Tesla T4") is None


def test_probe_prompts_have_the_exact_length():
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(probe.qwen3_tokenizer_dir()))
    rows = probe.finder_rows_of_length(tokenizer, 2, 700)
    for row in rows:
        assert 692 <= row["prompt_tokens"] <= 700
        assert protocol_prompt_problem(row["prompt"], "finder") is None
    assert [r["label"] for r in rows] == ["NO", "YES"]


@pytest.mark.slow
def test_scale_probe_runs_on_tiny_shapes(tmp_path):
    out = tmp_path / "probe.json"
    assert probe.main(["--tiny", "--steps", "1", "--out", str(out)]) == 0
    measured = json.loads(out.read_text())["measured"]
    assert measured["timed_steps"] == 1 and measured["shapes"] == probe.TINY_SHAPES
    assert 0 < measured["generate_s"] < measured["step_s"] and measured["train_s_per_micro_batch"] > 0
    assert measured["completion_mean_length"] == [16.0, 16.0]  # a random model writes to the limit


def test_reward_cost_benchmark_reports_each_run_on_the_batch_asked_for(capsys):
    """The report's fields (that each completion is scored once is
    tests/test_protocol_rewards.py::test_each_completion_is_scored_once_whatever_functions_ask; the
    speed itself is a benchmark, not a test)."""
    assert reward_cost.main(["--completions", "16", "--packet-chars", "4000", "--repeats", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    timings = ("total_alone_s", "all_components_s", "uncached_components_s")
    fields = {"agent", "completions", "packet_chars", "component_functions", "repeats", "ratio", "target_ratio"}
    assert set(report) == fields | set(timings)
    assert report["agent"] == "interpreter" and report["completions"] == 16 and report["repeats"] == 1
    assert 4000 <= report["packet_chars"] < 5000
    assert report["component_functions"] == len(component_names("interpreter"))
    assert all(report[name] > 0 for name in timings) and report["ratio"] > 0 and report["target_ratio"] == 1.2
    batch = reward_cost.interpreter_batch(64, 29_000)
    assert len(batch["completions"]) == 64 and 29_000 <= len(batch["evidence"][0]) < 31_000
    totals = build_reward_funcs()["interpreter_total"](**batch)
    assert min(totals) == 0.0 and max(totals) > 3.5  # broken replies and well-rewarded ones, as a policy writes
