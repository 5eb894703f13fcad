"""Changes to how TRL's ``GRPOTrainer`` computes a step, apart from the setup that reaches the
trainer through its arguments (data, rewards, callbacks):

* ``paper_grpo_trainer_class``: a ``GRPOTrainer`` whose loss is the paper's sequence-level
  objective (``clueweaver.training.objective``); it overrides ``compute_loss`` only, so
  generation, rewards, advantages, reference model, logging and checkpoints stay TRL's.
* ``score_completion_tokens_only_on_cpu``: a CPU switch for tests and CPU experiments
  (``cpu_compact_logprobs: true``), not part of a GPU run.
"""

from __future__ import annotations

from functools import lru_cache

from clueweaver.training.arguments import TrainingSetupError
from clueweaver.training.objective import advantage_scale, sequence_grpo_terms


def paper_loss(trainer, model, inputs):
    """The paper objective's loss of one micro-batch, scaled for gradient accumulation as TRL's
    ``grpo`` loss is; logs ``kl`` (mean sequence KL), ``entropy`` and the sequences' clip ratios."""
    import torch

    completion_ids, completion_mask = inputs["completion_ids"], inputs["completion_mask"]
    input_ids = torch.cat([inputs["prompt_ids"], completion_ids], dim=1)
    attention_mask = torch.cat([inputs["prompt_mask"], completion_mask], dim=1)
    mask = completion_mask if "tool_mask" not in inputs else completion_mask * inputs["tool_mask"]
    per_token_logps, entropies, _ = trainer._get_per_token_logps_and_entropies(
        model, input_ids, attention_mask, completion_ids.size(1), compute_entropy=True
    )
    advantages = inputs["advantages"]
    if advantages.dim() != 1:
        raise TrainingSetupError("objective: paper needs one advantage per completion, got per-token advantages")
    mode = "train" if trainer.model.training else "eval"
    group_size = trainer.num_generations if mode == "train" else trainer.num_generations_eval
    old = inputs.get("old_per_token_logps")
    terms = sequence_grpo_terms(
        per_token_logps,
        per_token_logps.detach() if old is None else old,
        inputs.get("ref_per_token_logps"),
        mask,
        advantages * advantage_scale(group_size),
        epsilon_low=trainer.epsilon_low,
        epsilon_high=trainer.epsilon_high,
        beta=trainer.beta,
        importance_sampling_ratio=inputs.get("importance_sampling_ratio"),
    )
    _log_terms(trainer, mode, terms, entropies, mask)
    normalizer = trainer.current_gradient_accumulation_steps if mode == "train" else 1.0
    return terms["loss"].mean() / normalizer


def _log_terms(trainer, mode: str, terms: dict, entropies, mask) -> None:
    """TRL's metric names, measured per sequence (``kl``: the sequences' KL, not a token mean)."""
    import torch

    metrics, accelerator = trainer._metrics[mode], trainer.accelerator

    def mean_over_processes(values) -> float:
        return accelerator.gather(values.detach().float()).mean().item()

    if trainer.beta != 0.0:
        metrics["kl"].append(mean_over_processes(terms["kl"]))
    totals = accelerator.reduce(torch.stack([(entropies * mask).sum(), mask.sum().float()]).detach(), reduction="sum")
    metrics["entropy"].append((totals[0] / totals[1].clamp(min=1.0)).item())
    metrics["clip_ratio/low_mean"].append(mean_over_processes(terms["clipped_low"]))
    metrics["clip_ratio/high_mean"].append(mean_over_processes(terms["clipped_high"]))
    metrics["clip_ratio/region_mean"].append(mean_over_processes(terms["clipped_low"] | terms["clipped_high"]))


@lru_cache(maxsize=1)
def paper_grpo_trainer_class():
    """``GRPOTrainer`` with the paper's loss (``objective: paper`` in a recipe)."""
    from trl import GRPOTrainer

    class SequenceGRPOTrainer(GRPOTrainer):
        """TRL's GRPOTrainer; the loss is the paper's sequence-level objective."""

        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
            if return_outputs:
                raise ValueError("The GRPOTrainer does not support returning outputs")
            return paper_loss(self, model, inputs)

    return SequenceGRPOTrainer


def score_completion_tokens_only_on_cpu(device) -> None:
    """Make TRL's fused log-prob head score only completion positions on CPU, as it does on GPUs.

    TRL 1.16 scores every prompt and completion position over the whole vocabulary on devices
    without Triton (fixed tile shapes for compilers such as Neuron) and then masks the prompt out.
    On CPU that is most of a step (tiny-model test steps: 70 s -> 11 s; far more for a 9K prompt),
    for the same log-probs. It replaces TRL's private ``trl.trainer.utils._use_triton``, so it is a
    switch for CPU runs only (``cpu_compact_logprobs: true``): asked for on another device, or on a
    TRL without that function, it is an error."""
    if device.type != "cpu":
        raise TrainingSetupError(f"cpu_compact_logprobs is a CPU switch; this run is on {device.type}")
    import trl.trainer.utils as trl_utils

    triton_path = getattr(trl_utils, "_use_triton", None)
    if triton_path is None:
        raise TrainingSetupError(
            "cpu_compact_logprobs: this TRL has no trl.trainer.utils._use_triton to switch; drop the option"
        )
    if getattr(triton_path, "includes_cpu", False):
        return

    def compact_on_cpu(tensor_device) -> bool:
        return tensor_device.type == "cpu" or triton_path(tensor_device)

    compact_on_cpu.includes_cpu = True
    trl_utils._use_triton = compact_on_cpu
