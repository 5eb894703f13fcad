"""Real GRPO runs of both agents through the entry scripts, exactly as users launch them:

    accelerate launch --config_file configs/accelerate/cpu.yaml train/<agent>_grpo.py --config <recipe> ...

on a tiny Qwen3 (real tokenizer) taught to answer in the protocol's format, so completions earn
real rewards. Full weights (Finder) and LoRA (Interpreter), reward components logged, checkpoints
with tokenizer and chat template, a checkpoint pushed to a Hub revision, resume, and export round
trips (load and generate)."""

from __future__ import annotations

import json
import os

import pytest

from clueweaver.protocol.rewards import component_names
from tests.hub_standin import HubStandIn
from tests.training_fixtures import (
    FINDER_REPLY,
    INTERPRETER_REPLY,
    build_tiny_model,
    finder_rows,
    interpreter_rows,
    launch,
    log_history,
    teach_reply,
    write_jsonl,
)

pytestmark = pytest.mark.slow


def _reward_entries(history: list[dict]) -> list[dict]:
    return [entry for entry in history if "reward" in entry]


def _check_reward_logging(history: list[dict], agent: str) -> list[dict]:
    """Every component is its own metric and their sum is the logged reward, at every step."""
    entries = _reward_entries(history)
    assert entries, "no reward was logged"
    for entry in entries:
        means = [entry[f"rewards/{name}/mean"] for name in component_names(agent)]
        assert entry["reward"] == pytest.approx(sum(means), abs=1e-5)
    return entries


def _assert_checkpoint(folder, weights: str) -> None:
    names = {p.name for p in folder.iterdir()}
    assert {
        weights,
        "tokenizer.json",
        "tokenizer_config.json",
        "clueweaver_training.json",
        "trainer_state.json",
        "optimizer.pt",
    } <= names, names
    template = (
        (folder / "chat_template.jinja").read_text()
        if "chat_template.jinja" in names
        else json.loads((folder / "tokenizer_config.json").read_text()).get("chat_template", "")
    )
    assert "enable_thinking" in template  # Qwen3's own template travels with the checkpoint


def _generate(folder, messages, max_new_tokens=40) -> str:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    model = AutoModelForCausalLM.from_pretrained(str(folder))
    inputs = tokenizer.apply_chat_template(
        messages, add_generation_prompt=True, return_tensors="pt", return_dict=True, enable_thinking=False
    )
    output = model.generate(**inputs, max_new_tokens=max_new_tokens, do_sample=False)
    return tokenizer.decode(output[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)


def _export_cli(*args: str) -> dict:
    """``clueweaver export ...`` in this process (the CLI's own entry point), its JSON summary."""
    import contextlib
    import io

    from clueweaver.cli import main

    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert main(["export", *args]) == 0
    return json.loads(stdout.getvalue())


@pytest.fixture(scope="module")
def finder_run(tmp_path_factory):
    """Two Finder GRPO steps (full weights), the checkpoint pushed to a Hub revision on the stand-in."""
    work = tmp_path_factory.mktemp("finder-grpo")
    model = teach_reply(build_tiny_model(work / "model"), [r["prompt"] for r in finder_rows()], FINDER_REPLY)
    data = write_jsonl(work / "finder.jsonl", finder_rows())
    with HubStandIn() as hub:
        result = launch(
            "finder_grpo.py", "configs/finder/qwen3-4b-grpo.yaml", "--model_name_or_path", str(model),
            "--dataset_name", str(data), "--output_dir", str(work / "run"), "--max_steps", "2",
            "--hub_revision_per_checkpoint", "true", "--hub_model_id", "lab/finder-tiny",
            env={"HF_ENDPOINT": hub.url, "HF_TOKEN": "hf_test", "HF_HUB_OFFLINE": "0"},
        )  # fmt: skip
    return work, result, hub


def test_finder_grpo_full_weights(finder_run):
    work, result, hub = finder_run
    assert result.returncode == 0, result.stderr[-4000:]
    assert "8 prompts" in result.stderr and "all fit" in result.stderr  # the prompt-length report
    run = work / "run"
    _assert_checkpoint(run / "checkpoint-2", "model.safetensors")
    entries = _check_reward_logging(log_history(run / "checkpoint-2"), "finder")
    assert [e["step"] for e in entries] == [1, 2]
    # the taught reply is well formed in every sample, and right (NO) on the non-evidence segments
    assert all(e["rewards/finder_format/mean"] > 0.5 for e in entries)
    assert sum(e["rewards/finder_verdict/mean"] + e["rewards/finder_negative_rationale/mean"] for e in entries) > 0
    assert all(e["rewards/finder_id_f1/mean"] == 0 for e in entries)  # it never cites an ID
    assert sorted(p.name for p in (run / "completions").iterdir()) == [
        "completions_00001.parquet",
        "completions_00002.parquet",
    ]
    recipe = json.loads((run / "checkpoint-2" / "clueweaver_training.json").read_text())
    assert recipe["agent"] == "finder" and recipe["grpo"]["chat_template_kwargs"] == {"enable_thinking": False}
    assert recipe["grpo"]["loss_type"] == "grpo" and recipe["reward"]["functions"] == dict.fromkeys(
        component_names("finder"), 1.0
    )
    assert recipe["objective"] == "paper" and recipe["batch"]["global_batch_completions"] == 4  # the paper's loss ran
    assert all("kl" in e and "clip_ratio/region_mean" in e for e in log_history(run / "checkpoint-2") if "loss" in e)
    pushed = hub.repos["lab/finder-tiny"]["branches"]["step-000002"]
    assert pushed["model.safetensors"] == (run / "checkpoint-2" / "model.safetensors").read_bytes()
    assert "optimizer.pt" not in pushed and "clueweaver_training.json" in pushed


def test_finder_resume_continues_from_the_last_checkpoint(finder_run):
    work, first, _ = finder_run
    assert first.returncode == 0
    data, model = work / "finder.jsonl", work / "model"
    result = launch(
        "finder_grpo.py",
        "configs/finder/qwen3-4b-grpo.yaml",
        "--model_name_or_path",
        str(model),
        "--dataset_name",
        str(data),
        "--output_dir",
        str(work / "run"),
        "--max_steps",
        "3",
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert f"resuming from {work / 'run' / 'checkpoint-2'}" in result.stderr
    state = json.loads((work / "run" / "trainer_state.json").read_text())
    assert state["global_step"] == 3
    assert [e["step"] for e in _reward_entries(state["log_history"])] == [1, 2, 3]


def test_finder_checkpoint_exports_and_pushes(finder_run, tmp_path, monkeypatch):
    work, first, _ = finder_run
    assert first.returncode == 0
    checkpoint = work / "run" / "checkpoint-2"
    results = tmp_path / "eval.json"
    results.write_text(json.dumps({"DetectiveQA": {"accuracy": 0.5}}))
    import huggingface_hub.constants

    with HubStandIn() as hub:
        monkeypatch.setattr(huggingface_hub.constants, "ENDPOINT", hub.url)  # what HF_ENDPOINT sets at import
        monkeypatch.setenv("HF_TOKEN", "hf_test")
        summary = _export_cli(
            str(checkpoint),
            str(tmp_path / "out"),
            "--eval-results",
            str(results),
            "--push-to-hub",
            "lab/finder-export",
            "--private",
            "--base-model-id",
            "lab/tiny-qwen3",  # the tiny base is a local folder: the card needs a Hub id
            "--base-model-license",
            "mit",  # and its license: the recipe's apache-2.0 is Qwen's, not this random model's
        )
    out = tmp_path / "out"
    assert "model.safetensors" in summary["files"] and summary["pushed"].startswith(hub.url)
    assert set(hub.repos["lab/finder-export"]["branches"]["main"]) == {p.name for p in out.iterdir()}
    reply = _generate(out, finder_rows()[4]["prompt"])
    assert "<answer>NO</answer>" in reply  # the trained model, exported, still speaks the protocol
    card = (out / "README.md").read_text()
    assert "**Finder**" in card and "| DetectiveQA / accuracy | 0.5 |" in card and "| num_generations | 2 |" in card


@pytest.fixture(scope="module")
def interpreter_lora_run(tmp_path_factory):
    work = tmp_path_factory.mktemp("interpreter-grpo")
    model = teach_reply(build_tiny_model(work / "model"), [r["prompt"] for r in interpreter_rows()], INTERPRETER_REPLY)
    data = write_jsonl(work / "interpreter.jsonl", interpreter_rows())
    result = launch(
        "interpreter_grpo.py",
        "configs/interpreter/qwen3-4b-grpo-lora.yaml",
        "--model_name_or_path",
        str(model),
        "--dataset_name",
        str(data),
        "--output_dir",
        str(work / "run"),
        "--max_steps",
        "2",
        "--lora_r",
        "8",
        "--lora_alpha",
        "16",
        "--report_to",
        "wandb",
        env={"WANDB_MODE": None, "WANDB_API_KEY": None, "WANDB_DIR": str(work), "NETRC": str(work / "no-netrc")},
    )
    return work, result


def test_interpreter_run_logs_to_wandb_offline_without_a_key(interpreter_lora_run):
    """No key and no login: the run goes to an offline wandb run with every reward component as its
    own metric and TRL's completions table (one column per component)."""
    work, result = interpreter_lora_run
    assert result.returncode == 0, result.stderr[-4000:]
    assert "no WANDB_API_KEY: wandb logs offline" in result.stderr
    (run,) = (work / "wandb").glob("offline-run-*")
    (records,) = run.glob("run-*.wandb")
    logged = records.read_bytes()
    for name in component_names("interpreter"):
        assert f"rewards/{name}/mean".encode() in logged
    tables = sorted((run / "files" / "media" / "table").glob("completions_*.table.json"))
    assert tables
    table = json.loads(tables[-1].read_text())
    assert {"prompt", "completion", "advantage", *component_names("interpreter")} <= set(table["columns"])
    assert table["data"]


def test_interpreter_grpo_lora_and_merged_export(interpreter_lora_run, tmp_path):
    work, result = interpreter_lora_run
    assert result.returncode == 0, result.stderr[-4000:]
    checkpoint = work / "run" / "checkpoint-2"
    _assert_checkpoint(checkpoint, "adapter_model.safetensors")
    assert json.loads((checkpoint / "adapter_config.json").read_text())["r"] == 8
    entries = _check_reward_logging(log_history(checkpoint), "interpreter")
    assert all(e["rewards/interpreter_format/mean"] > 0 for e in entries)

    tiny_base = ("--base-model-id", "lab/tiny", "--base-model-license", "mit")  # the recipe's license is Qwen's
    summary = _export_cli(str(checkpoint), str(tmp_path / "merged"), "--merge-lora", *tiny_base)
    assert "model.safetensors" in summary["files"] and "adapter_config.json" not in summary["files"]
    reply = _generate(tmp_path / "merged", interpreter_rows()[0]["prompt"])
    assert "<answer>B</answer>" in reply
    card = (tmp_path / "merged" / "README.md").read_text()
    assert "**Interpreter**" in card and "merged into the base weights" in card and "| lora_r | 8 |" in card
    assert "base_model: lab/tiny" in card and "license: mit" in card and f"`{work / 'model'}`" not in card

    adapter = _export_cli(str(checkpoint), str(tmp_path / "adapter"), *tiny_base)
    assert {"adapter_model.safetensors", "adapter_config.json", "README.md"} <= set(adapter["files"])
    from transformers import AutoModelForCausalLM

    assert AutoModelForCausalLM.from_pretrained(str(tmp_path / "adapter")) is not None  # base + adapter via PEFT


FAKE_VLLM = {
    "vllm/__init__.py": '''
import json, os

__version__ = "0.31.0"  # the version the project pins

class SamplingParams:
    def __init__(self, **kwargs):
        self.kwargs = kwargs

class RequestOutput:
    pass

class LLM:
    """Records how TRL builds the colocated engine, then stops the run."""
    def __init__(self, **kwargs):
        with open(os.environ["FAKE_VLLM_RECORD"], "w") as f:
            json.dump(kwargs, f, default=str)
        raise RuntimeError("fake vLLM: engine arguments recorded")
''',
    "vllm/sampling_params.py": "class StructuredOutputsParams:\n    pass\n",
    "vllm/utils/__init__.py": "",
    "vllm/utils/network_utils.py": "def get_ip():\n    return '127.0.0.1'\n",
    "vllm/distributed/__init__.py": "",
    "vllm/distributed/weight_transfer/__init__.py": "",
    "vllm/distributed/weight_transfer/nccl_common.py": (
        "def trainer_init(*args, **kwargs):\n    raise RuntimeError('not here')\n"
    ),
    "vllm/distributed/weight_transfer/packed_tensor.py": (
        "def packed_nccl_broadcast_producer(*a, **k):\n    raise RuntimeError('not here')\n"
    ),
}


def test_recipe_rollout_settings_reach_the_colocated_vllm_engine(tmp_path):
    """vLLM cannot run here: a stand-in ``vllm`` package records the engine TRL builds from the recipe."""
    for name, text in FAKE_VLLM.items():
        (tmp_path / "site" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "site" / name).write_text(text)
    model, data = build_tiny_model(tmp_path / "model"), write_jsonl(tmp_path / "finder.jsonl", finder_rows())
    record = tmp_path / "llm.json"
    result = launch(
        "finder_grpo.py",
        "configs/finder/qwen3-4b-grpo.yaml",
        "--model_name_or_path",
        str(model),
        "--dataset_name",
        str(data),
        "--output_dir",
        str(tmp_path / "run"),
        "--use_vllm",
        "true",
        "--max_steps",
        "1",
        env={
            "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), os.environ.get("PYTHONPATH", "")]),
            "FAKE_VLLM_RECORD": str(record),
        },  # the stand-in first, the checkout under test after it
    )
    assert result.returncode != 0 and "fake vLLM: engine arguments recorded" in result.stderr
    engine = json.loads(record.read_text())
    assert engine["model"] == str(model) and engine["gpu_memory_utilization"] == 0.35
    assert engine["max_model_len"] == 9216 + 256 and engine["tensor_parallel_size"] == 1
    assert engine["enable_sleep_mode"] is False and engine["logprobs_mode"] == "processed_logprobs"
