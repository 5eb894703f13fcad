"""The run: every check, the data, the rewards and the callbacks put together around TRL's
``GRPOTrainer``; seeds, resume from the last checkpoint of ``output_dir``, and the recipe saved with
the final model. ``main`` is the entry point of ``train/<agent>_grpo.py``."""

from __future__ import annotations

import logging
import sys
from dataclasses import asdict

from clueweaver.training.arguments import AGENTS, GRPOScriptArguments, TrainingSetupError, parse_recipe
from clueweaver.training.callbacks import hub_revision_callback, recipe_callback
from clueweaver.training.data import (
    check_columns,
    check_finder_gold_rows,
    check_protocol_prompts,
    enforce_prompt_length,
    limit_rows,
    load_grpo_dataset,
)
from clueweaver.training.hub import HubUploadError, base_model_identity, write_recipe
from clueweaver.training.objective import check_objective_settings
from clueweaver.training.rewards import reward_design, select_reward_funcs
from clueweaver.training.settings import (
    apply_protocol_chat_template_kwargs,
    check_rollout_settings,
    configure_reporting,
    load_tokenizer,
    model_init_kwargs,
    resume_checkpoint,
)
from clueweaver.training.trainer import paper_grpo_trainer_class, score_completion_tokens_only_on_cpu

logger = logging.getLogger(__name__)


def batch_record(training_args, rows: int) -> dict:
    """How many completions and prompts an optimizer step takes over how many processes, and how
    many passes over the data the run makes (``per_device_train_batch_size`` counts completions)."""
    processes = training_args.world_size
    completions = training_args.per_device_train_batch_size * training_args.gradient_accumulation_steps * processes
    prompts = completions // training_args.num_generations
    record = {
        "processes": processes,
        "global_batch_completions": completions,
        "prompts_per_step": prompts,
        "num_generations": training_args.num_generations,
    }
    if training_args.max_steps and training_args.max_steps > 0 and rows:
        record["epochs"] = round(prompts * training_args.max_steps / rows, 3)
    return record


def recorded_base_model(model: str, hub_id: str | None, license: str | None) -> dict:
    """The base model's Hub id and license for the model card: what ``model`` itself tells (a Hub
    id, a Hugging Face cache folder, a README's license), else the recipe's ``base_model_id`` /
    ``base_model_license``; a recipe value that contradicts the model is an error. The recipe's
    license describes a Hub model, so it is kept only when the model has a Hub id (its own, or the
    ``base_model_id`` that says which Hub model a local folder copies): a recipe run on another
    local model (``--model_name_or_path`` overridden) records the license as unknown, with a warning."""
    found = base_model_identity(model)
    stated = {"hub_id": hub_id, "license": license}
    for key, option in (("hub_id", "base_model_id"), ("license", "base_model_license")):
        if found[key] and stated[key] and found[key] != stated[key]:
            raise TrainingSetupError(
                f"{option} {stated[key]!r} contradicts the model {model} ({found[key]!r}); change them together"
            )
    record = {key: found[key] or stated[key] for key in found}
    if not found["license"] and license and not record["hub_id"]:
        logger.warning(
            "base_model_license %r describes the recipe's Hub model, not %s (a local folder with no Hub id): the "
            "license is recorded as unknown; pass --base_model_id if the folder is a copy of a Hub model",
            license,
            model,
        )
        record["license"] = None
    return record


def build_recipe_record(
    agent, script_args, training_args, model_args, reward_names, reward_weights, length_report, rows
) -> dict:
    """What a checkpoint was trained with, for its model card and for reproducing it."""
    import transformers
    import trl

    base = recorded_base_model(
        model_args.model_name_or_path, script_args.base_model_id, script_args.base_model_license
    )
    return {
        "agent": agent,
        "base_model": model_args.model_name_or_path,
        "base_model_hub_id": base["hub_id"],
        "base_model_license": base["license"],
        "objective": script_args.objective,
        "script": asdict(script_args),
        "model": asdict(model_args),
        "grpo": training_args.to_dict(),
        "batch": batch_record(training_args, rows),
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
    check_objective_settings(script_args.objective, training_args)
    chat_kwargs = apply_protocol_chat_template_kwargs(training_args)
    funcs, weights = select_reward_funcs(
        agent,
        script_args.reward_funcs,
        training_args.reward_weights,
        allow_ablation=script_args.allow_reward_ablation,
        aggregation=training_args.multi_objective_aggregation,
    )
    training_args.reward_weights = weights
    reward_names = script_args.reward_funcs or [f.__name__ for f in funcs]  # a recipe's own reward: its import path

    tokenizer = load_tokenizer(model_args, script_args.chat_template_path, training_args.trust_remote_code)
    source = script_args.dataset_name
    with training_args.main_process_first(desc="loading and checking the training data"):
        dataset = load_grpo_dataset(source, split=script_args.dataset_split, config=script_args.dataset_config)
        check_columns(dataset, agent, source)
        if agent == "finder":
            check_finder_gold_rows(dataset, source)
        if script_args.check_protocol_prompts:
            check_protocol_prompts(dataset, agent, source)
        dataset = limit_rows(dataset, script_args.max_train_samples, training_args.data_seed or training_args.seed)
        dataset, length_report = enforce_prompt_length(
            dataset, tokenizer, script_args.max_prompt_length, script_args.overlong_prompts, chat_kwargs, source
        )
    logger.info("training data %s: %s", source, length_report.describe())

    training_args.model_init_kwargs = model_init_kwargs(model_args, training_args)
    if script_args.cpu_compact_logprobs:
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

    if recipe["base_model_hub_id"] is None or recipe["base_model_license"] is None:
        logger.warning(
            "the base model's Hub id or license is unknown (%s is a local folder without a README license): set "
            "base_model_id and base_model_license, or pass them to clueweaver export, for the model card",
            model_args.model_name_or_path,
        )
    trainer_class = paper_grpo_trainer_class() if script_args.objective == "paper" else GRPOTrainer
    trainer = trainer_class(
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
    for callback in trainer.callback_handler.callbacks:
        if getattr(callback, "upload_failures", None) is not None:
            raise callback.upload_failures
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
    except (TrainingSetupError, HubUploadError) as exc:
        print(f"{agent}_grpo: error: {exc}", file=sys.stderr)
        return 2
    return 0
