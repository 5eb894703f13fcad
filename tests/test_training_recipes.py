"""Every recipe parses with TRL 1.16's own parser (no unknown or removed key), the paper recipes
carry Table 7, and the accelerate configs are what their names say."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from clueweaver import training
from clueweaver.protocol.rewards import component_names

ROOT = Path(__file__).resolve().parents[1]
RECIPES = sorted((ROOT / "configs").glob("*/*.yaml"))
RECIPES = [p for p in RECIPES if p.parent.name in training.AGENTS]
PAPER = {  # Table 7: (recipe, learning rate, grad accumulation, train samples, steps, global batch on 8 GPUs)
    "finder": ("configs/finder/qwen3-4b-grpo.yaml", 5e-7, 8, 12000, 150, 512),
    "interpreter": ("configs/interpreter/qwen3-4b-grpo.yaml", 3e-7, 2, 1000, 100, 128),
}
MULTINODE_KEYS = {  # what a multi-node recipe may change of the paper recipe
    "gradient_accumulation_steps",
    "vllm_mode",
    "vllm_server_base_url",
    "vllm_gpu_memory_utilization",
    "vllm_max_model_length",
    "vllm_tensor_parallel_size",
    "vllm_enable_sleep_mode",
    "output_dir",
    "run_name",
}
LORA_KEYS = {
    "use_peft",
    "lora_r",
    "lora_alpha",
    "lora_dropout",
    "lora_target_modules",
    "learning_rate",
    "output_dir",
    "run_name",
}


def parse(recipe: Path, monkeypatch, *overrides):
    monkeypatch.setenv("WANDB_PROJECT", "tests")  # the recipes' env: block sets it; restored afterwards
    # bf16 is validated against the machine: on this CPU-only one TrainingArguments accepts it for use_cpu
    return training.parse_recipe(["--config", str(recipe), "--use_cpu", "true", *overrides])


def test_recipes_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in RECIPES}
    assert {
        PAPER["finder"][0],
        PAPER["interpreter"][0],
        "configs/finder/qwen3-4b-grpo-lora.yaml",
        "configs/interpreter/qwen3-4b-grpo-lora.yaml",
    } <= names


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_key_is_accepted_by_trl(recipe, monkeypatch):
    script, grpo, model = parse(recipe, monkeypatch)
    agent = recipe.parent.name
    funcs, weights = training.select_reward_funcs(
        agent,
        script.reward_funcs,
        grpo.reward_weights,
        allow_ablation=script.allow_reward_ablation,
        aggregation=grpo.multi_objective_aggregation,
    )
    assert [f.__name__ for f in funcs] == component_names(agent)
    training.check_objective_settings(script.objective, grpo)  # no TRL setting the objective would ignore
    assert grpo.loss_type == "grpo" and grpo.scale_rewards == "group" and grpo.beta == 0.04
    assert grpo.num_generations >= 4 and grpo.temperature == 1.0 and (grpo.top_p, grpo.top_k) == (0.9, 20)
    assert not grpo.chat_template_kwargs  # the trainer takes them from the protocol


def test_an_unknown_key_is_refused(tmp_path, monkeypatch):
    recipe = tmp_path / "typo.yaml"
    recipe.write_text(Path(ROOT / PAPER["finder"][0]).read_text() + "warmup_ratio: 0.1\n")
    with pytest.raises(ValueError, match="warmup_ratio"):
        parse(recipe, monkeypatch)


@pytest.mark.parametrize("agent", sorted(PAPER))
def test_paper_recipes_carry_table_7(agent, monkeypatch):
    path, lr, accumulation, samples, steps, global_batch = PAPER[agent]
    script, grpo, model = parse(ROOT / path, monkeypatch)
    assert grpo.learning_rate == lr and grpo.gradient_accumulation_steps == accumulation
    assert grpo.per_device_train_batch_size == 8 and 8 * 8 * accumulation == global_batch
    assert script.max_train_samples == samples and grpo.max_steps == steps
    assert grpo.num_generations == 8 and global_batch % grpo.num_generations == 0
    assert script.max_prompt_length == 9216 and grpo.max_completion_length == 256
    assert grpo.lr_scheduler_type == "cosine" and grpo.warmup_steps == 0.1
    assert grpo.bf16 and not model.use_peft and model.dtype == "bfloat16"
    assert grpo.use_vllm and grpo.vllm_mode == "colocate" and 0.3 <= grpo.vllm_gpu_memory_utilization <= 0.4
    assert grpo.vllm_max_model_length == 9216 + 256 and grpo.vllm_tensor_parallel_size == 1
    assert not grpo.vllm_enable_sleep_mode
    stated = yaml.safe_load((ROOT / path).read_text())  # TRL's vLLM correction, in the recipe, not TRL's defaults
    vllm_is = [f"vllm_importance_sampling_{key}" for key in ("correction", "mode", "clip_max")]
    assert [stated[key] for key in vllm_is] == [True, "sequence_mask", 3.0] == [getattr(grpo, key) for key in vllm_is]
    assert grpo.log_completions and grpo.report_to == ["wandb"] and grpo.save_strategy == "steps"
    assert script.overlong_prompts == "error" and script.check_protocol_prompts
    assert script.objective == "paper" and grpo.importance_sampling_level == "sequence"
    assert not grpo.use_bias_correction_kl and grpo.epsilon == 0.2 and grpo.num_iterations == 1
    assert model.model_name_or_path == "Qwen/Qwen3-4B-Instruct-2507" and script.base_model_license == "apache-2.0"


@pytest.mark.parametrize("agent", sorted(PAPER))
def test_lora_recipe_is_the_paper_recipe_plus_an_adapter(agent, monkeypatch):
    full = yaml.safe_load((ROOT / PAPER[agent][0]).read_text())
    lora_path = ROOT / PAPER[agent][0].replace(".yaml", "-lora.yaml")
    lora = yaml.safe_load(lora_path.read_text())
    assert {k: v for k, v in lora.items() if k not in LORA_KEYS} == {
        k: v for k, v in full.items() if k not in LORA_KEYS
    }
    assert lora["output_dir"] != full["output_dir"]
    script, grpo, model = parse(lora_path, monkeypatch)
    assert model.use_peft and model.lora_r == 32 and "down_proj" in model.lora_target_modules


def test_command_line_overrides_the_recipe(monkeypatch):
    script, grpo, model = parse(
        ROOT / PAPER["finder"][0],
        monkeypatch,
        "--max_steps",
        "3",
        "--report_to",
        "none",
        "--dataset_name",
        "x.jsonl",
        "--use_peft",
        "true",
    )
    assert grpo.max_steps == 3 and grpo.report_to == [] and script.dataset_name == "x.jsonl" and model.use_peft


@pytest.mark.parametrize(
    "override", [["--scale_rewards", "batch"], ["--multi_objective_aggregation", "normalize_then_sum"]]
)
def test_the_paper_objective_refuses_other_normalizations_even_as_an_ablation(override, monkeypatch):
    ablation = ["--report_to", "none", "--allow_reward_ablation", "true", *override]
    args = parse(ROOT / PAPER["finder"][0], monkeypatch, *ablation)
    with pytest.raises(training.TrainingSetupError, match=f"{override[0][2:]}='{override[1]}' \\(needs"):
        training.build_trainer("finder", *args)  # refused before any model or data is loaded


@pytest.mark.parametrize(
    "name, kind, processes, precision, stage",
    [
        ("zero3", "DEEPSPEED", 8, "bf16", 3),
        ("zero3_multinode", "DEEPSPEED", 16, "bf16", 3),
        ("zero2", "DEEPSPEED", 8, "bf16", 2),
        ("ddp", "MULTI_GPU", 8, "bf16", None),
        ("single_gpu", "NO", 1, "bf16", None),
        ("cpu", "NO", 1, "no", None),
    ],
)
def test_accelerate_configs(name, kind, processes, precision, stage):
    from accelerate.commands.config.config_args import load_config_from_file

    config = load_config_from_file(str(ROOT / "configs" / "accelerate" / f"{name}.yaml"))
    assert config.distributed_type.value == kind and config.num_processes == processes
    assert config.mixed_precision == precision and config.use_cpu == (name == "cpu")
    if stage:
        assert config.deepspeed_config["zero_stage"] == stage
    if stage == 3:
        assert config.deepspeed_config["zero3_init_flag"] and config.deepspeed_config["zero3_save_16bit_model"]


@pytest.mark.parametrize("agent", sorted(PAPER))
def test_multinode_recipe_is_the_paper_recipe_in_server_mode_with_the_papers_global_batch(agent, monkeypatch):
    from accelerate.commands.config.config_args import load_config_from_file

    full = yaml.safe_load((ROOT / PAPER[agent][0]).read_text())
    path = ROOT / PAPER[agent][0].replace(".yaml", "-multinode.yaml")
    multinode = yaml.safe_load(path.read_text())
    assert {k: v for k, v in multinode.items() if k not in MULTINODE_KEYS} == {
        k: v for k, v in full.items() if k not in MULTINODE_KEYS
    }
    script, grpo, model = parse(path, monkeypatch, "--vllm_server_base_url", "http://vllm-node:8000")
    assert grpo.use_vllm and grpo.vllm_mode == "server" and grpo.vllm_server_base_url == "http://vllm-node:8000"
    launch = load_config_from_file(str(ROOT / "configs" / "accelerate" / "zero3_multinode.yaml"))
    assert launch.num_machines == 2 and launch.deepspeed_config["deepspeed_multinode_launcher"] == "standard"
    completions = launch.num_processes * grpo.per_device_train_batch_size * grpo.gradient_accumulation_steps
    assert completions == PAPER[agent][5] and completions % grpo.num_generations == 0


def test_the_slurm_launcher_starts_one_process_group_per_training_node_and_a_vllm_server():
    import subprocess

    script = ROOT / "train" / "slurm" / "grpo_multinode.sbatch"
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text()
    assert "--machine_rank \\$SLURM_NODEID" in text and "--main_process_ip $MAIN_NODE" in text
    assert "trl vllm-serve" in text and "--vllm_server_base_url http://$VLLM_NODE:$VLLM_PORT" in text
    for config in ("configs/accelerate/zero3_multinode.yaml",):
        assert config in text and (ROOT / config).is_file()
    for agent in PAPER:  # the script fills in the agent: both recipes and entry points exist
        assert (ROOT / "configs" / agent / "qwen3-4b-grpo-multinode.yaml").is_file()
        assert (ROOT / "train" / f"{agent}_grpo.py").is_file()
