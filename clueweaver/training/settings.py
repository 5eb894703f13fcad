"""Run settings checked and completed before the trainer is built.

* Chat template: Qwen3 thinking disabled through ``chat_template_kwargs`` taken from the protocol
  (``CHAT_TEMPLATE_KWARGS``), as at inference; a base model without a template gets one from a file.
* Reporting: wandb offline when no key is set.
* Rollouts: vLLM's context must hold a prompt and its completion.
* Resume: from the last checkpoint of ``output_dir``.
* Model and tokenizer: ``from_pretrained`` arguments from TRL's ``ModelConfig``.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from pathlib import Path

from clueweaver.protocol.prompts import CHAT_TEMPLATE_KWARGS
from clueweaver.training.arguments import TrainingSetupError

logger = logging.getLogger(__name__)


def apply_protocol_chat_template_kwargs(training_args) -> dict:
    """Render prompts as the protocol does at inference (Qwen3 thinking disabled); a recipe may add
    keys but not contradict the protocol's."""
    given = dict(training_args.chat_template_kwargs or {})
    clash = {k: v for k, v in given.items() if k in CHAT_TEMPLATE_KWARGS and v != CHAT_TEMPLATE_KWARGS[k]}
    if clash:
        raise TrainingSetupError(f"chat_template_kwargs {clash} contradict the protocol's {CHAT_TEMPLATE_KWARGS}")
    training_args.chat_template_kwargs = {**given, **CHAT_TEMPLATE_KWARGS}
    return training_args.chat_template_kwargs


def _wandb_logged_in() -> bool:
    netrc = Path(os.environ.get("NETRC", Path.home() / ".netrc"))
    return netrc.is_file() and "api.wandb.ai" in netrc.read_text(errors="ignore")


def configure_reporting(training_args, environ=os.environ) -> str | None:
    """Make wandb reporting work anywhere: offline (synced later with ``wandb sync``) when no API
    key or login exists. Returns the wandb mode, or None when wandb is not reported to."""
    if "wandb" not in (training_args.report_to or []):
        return None
    if importlib.util.find_spec("wandb") is None:
        raise TrainingSetupError(
            "report_to includes wandb but wandb is not installed: pip install wandb, or pass --report_to none"
        )
    if "WANDB_MODE" not in environ and not environ.get("WANDB_API_KEY") and not _wandb_logged_in():
        environ["WANDB_MODE"] = "offline"
        logger.warning("no WANDB_API_KEY: wandb logs offline under ./wandb (upload later with `wandb sync`)")
    return environ.get("WANDB_MODE", "online")


def check_rollout_settings(training_args, max_prompt_length: int) -> None:
    """vLLM's context must hold the longest prompt plus the completion; sleep mode is discouraged."""
    if not training_args.use_vllm:
        return
    needed = max_prompt_length + training_args.max_completion_length
    if training_args.vllm_max_model_length is not None and training_args.vllm_max_model_length < needed:
        raise TrainingSetupError(
            f"vllm_max_model_length={training_args.vllm_max_model_length} cannot hold a {max_prompt_length}-token "
            "prompt "
            f"plus a {training_args.max_completion_length}-token completion; set it to {needed}"
        )
    if training_args.vllm_enable_sleep_mode:
        logger.warning(
            "vllm_enable_sleep_mode is on: sleep level 2 drops vLLM's weights, and waking it has fed rollouts "
            "stale base weights before (huggingface/trl#5312); the recipes keep it off"
        )


def resume_checkpoint(training_args, auto_resume: bool) -> str | None:
    """The checkpoint to resume from: the one asked for, else the last in ``output_dir``."""
    from transformers.trainer_utils import get_last_checkpoint

    asked = training_args.resume_from_checkpoint
    if asked:
        if not Path(asked).is_dir():
            raise TrainingSetupError(f"resume_from_checkpoint {asked}: no such checkpoint folder")
        return str(asked)
    if auto_resume and Path(training_args.output_dir).is_dir():
        return get_last_checkpoint(training_args.output_dir)
    return None


def model_init_kwargs(model_args, training_args) -> dict:
    """``from_pretrained`` arguments from ModelConfig (recipe values in model_init_kwargs win)."""
    kwargs = dict(training_args.model_init_kwargs or {})
    kwargs.setdefault("revision", model_args.model_revision)
    if model_args.dtype is not None:
        kwargs.setdefault("dtype", model_args.dtype)
    if model_args.attn_implementation is not None:
        kwargs.setdefault("attn_implementation", model_args.attn_implementation)
    # the KV cache is useless when activations are recomputed, and warns with checkpointing
    kwargs.setdefault("use_cache", not training_args.gradient_checkpointing)
    return kwargs


def load_tokenizer(model_args, chat_template_path: str | None = None, trust_remote_code: bool = False):
    """The model's tokenizer, left-padded for generation, with a chat template."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(
        model_args.model_name_or_path,
        revision=model_args.model_revision,
        padding_side="left",
        truncation_side="left",
        trust_remote_code=trust_remote_code,
    )
    if chat_template_path:
        path = Path(chat_template_path)
        if not path.is_file():
            raise TrainingSetupError(f"chat_template_path {path}: no such file")
        tokenizer.chat_template = path.read_text(encoding="utf-8")
    if not getattr(tokenizer, "chat_template", None):
        raise TrainingSetupError(
            f"{model_args.model_name_or_path}: the tokenizer has no chat template; pass --chat_template_path "
            "FILE.jinja"
        )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer
