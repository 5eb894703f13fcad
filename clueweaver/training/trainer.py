"""Changes to how TRL's ``GRPOTrainer`` computes a step (its log-probabilities, its loss), apart from
the setup that reaches the trainer through its arguments (data, rewards, callbacks)."""

from __future__ import annotations


def score_completion_tokens_only_on_cpu(device) -> bool:
    """Make TRL's fused log-prob head score only completion positions on CPU, as it does on GPUs.

    TRL 1.16 scores every prompt and completion position over the whole vocabulary on devices
    without Triton (fixed tile shapes for compilers such as Neuron) and then masks the prompt out.
    On CPU that is most of a step (tiny-model test steps: 70 s -> 11 s; far more for a 9K prompt),
    for the same log-probs. Returns whether the switch was made."""
    if device.type != "cpu":
        return False
    import trl.trainer.utils as trl_utils

    triton_path = getattr(trl_utils, "_use_triton", None)
    if triton_path is None:  # TRL changed: nothing to switch
        return False
    if not getattr(triton_path, "includes_cpu", False):

        def compact_on_cpu(tensor_device) -> bool:
            return tensor_device.type == "cpu" or triton_path(tensor_device)

        compact_on_cpu.includes_cpu = True
        trl_utils._use_triton = compact_on_cpu
    return True
