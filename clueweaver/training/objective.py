"""The paper's GRPO objective (Eq. 1, 2 and 8-12), as our reading of it states it: everything
per *sequence*.

For the K completions o_1..o_K of one prompt, with rewards R_i:

* advantage  A_i = (R_i - mean_j R_j) / std_j R_j, the std with 1/K (not TRL's 1/(K-1));
* ratio      rho_i = pi_theta(o_i) / pi_old(o_i) = exp(sum_t [log pi_theta(o_i,t) - log pi_old(o_i,t)]),
  the whole sequence's probability ratio (a sum over tokens: not TRL's per-token ratios, nor GSPO's
  length-normalized mean);
* surrogate  min(rho_i A_i, clip(rho_i, 1 - eps_low, 1 + eps_high) A_i), clipped per sequence;
* KL         r_i - log r_i - 1 with r_i = pi_ref(o_i) / pi_theta(o_i) of the whole sequence;
* loss       mean over the completions of [ -surrogate_i + beta KL_i ].

TRL computes the advantages before the loss, dividing by the Bessel-corrected std plus 1e-4, so
the loss multiplies them by sqrt(K / (K - 1)): that is exactly (R_i - mean) / (std_{1/K} + eps')
with eps' = 1e-4 sqrt((K - 1) / K). Past a log-ratio of 20 the exponential continues as its tangent
line (``exp_linear_above``), so one far-off sequence cannot overflow float32 (exp(20) = 4.9e8) and
still gets a gradient that pulls it back (a clamp would give it none). The KL is computed as
expm1(log r) - log r, exact in float32 for the small log-ratios training mostly sees (exp(x) - x - 1
loses about 1e-3 of its value to cancellation there). With vLLM rollouts, TRL's sequence-level
importance-sampling correction (``vllm_importance_sampling_mode: sequence_mask`` or
``sequence_truncate``) multiplies the surrogate; token-level modes do not apply to a sequence ratio
and are refused.
"""

from __future__ import annotations

import math

from clueweaver.training.arguments import TrainingSetupError

OBJECTIVES = ("trl", "paper")
LOG_RATIO_LINEAR_FROM = 20.0  # exp(20) = 4.9e8: past it the exponential grows linearly
# The TRL settings the paper objective relies on: the value each needs, and why.
PAPER_SETTINGS = {
    "loss_type": ("grpo", "the paper objective replaces it"),
    "importance_sampling_level": ("sequence", "the ratio is per sequence"),
    "scale_rewards": ("group", "advantages divide by their group's std, the only std the sqrt(K/(K-1)) rescale fits"),
    "multi_objective_aggregation": ("sum_then_normalize", "the paper normalizes the summed reward"),
    "use_bias_correction_kl": (False, "TRL's importance-weighted KL is not the paper's"),
    "off_policy_mask_threshold": (None, "not in the paper"),
    "top_entropy_quantile": (1.0, "not in the paper"),
    "entropy_coef": (0.0, "not in the paper"),
    "use_adaptive_entropy": (False, "not in the paper"),
    "delta": (None, "not in the paper"),
}
VLLM_SETTINGS = ("use_vllm", "vllm_importance_sampling_correction", "vllm_importance_sampling_mode")
SEQUENCE_IS_MODES = ("sequence_mask", "sequence_truncate")


def check_objective_settings(objective: str, training_args) -> None:
    """The recipe's ``objective`` and TRL settings agree: with ``paper`` every setting of
    ``PAPER_SETTINGS`` has its value and vLLM's importance-sampling correction is per sequence, so
    no setting is silently ignored (``allow_reward_ablation`` does not lift these: the loss's
    advantage rescale is wrong for any other normalization). A setting this TRL lacks is an error,
    not a pass: a renamed field would otherwise escape the check."""
    if objective not in OBJECTIVES:
        raise TrainingSetupError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if objective == "trl":
        return
    missing = [name for name in (*PAPER_SETTINGS, *VLLM_SETTINGS) if not hasattr(training_args, name)]
    if missing:
        raise TrainingSetupError(
            f"objective: paper checks TRL's {', '.join(missing)}, which this TRL's GRPOConfig lacks (did TRL "
            "rename or drop it?); update clueweaver.training.objective to the new name"
        )
    conflicts = [
        f"{name}={getattr(training_args, name)!r} (needs {value!r}: {why})"
        for name, (value, why) in PAPER_SETTINGS.items()
        if getattr(training_args, name) != value
    ]
    mode = training_args.vllm_importance_sampling_mode
    if training_args.use_vllm and training_args.vllm_importance_sampling_correction and mode not in SEQUENCE_IS_MODES:
        conflicts.append(f"vllm_importance_sampling_mode={mode!r} (needs {' or '.join(SEQUENCE_IS_MODES)})")
    if conflicts:
        raise TrainingSetupError("objective: paper cannot honour " + "; ".join(conflicts))


def advantage_scale(group_size: int) -> float:
    """Turns TRL's advantages (std with 1/(K-1)) into the paper's (std with 1/K)."""
    return math.sqrt(group_size / (group_size - 1)) if group_size > 1 else 1.0


def exp_linear_above(x, *, minus_one: bool = False):
    """exp(x) (or expm1(x)), continued past ``LOG_RATIO_LINEAR_FROM`` by its tangent line: finite for
    any x, with a gradient that never vanishes. The exponential's input is clamped so the branch
    not taken cannot overflow (an inf there would turn the gradient into NaN)."""
    import torch

    edge = LOG_RATIO_LINEAR_FROM
    exp = torch.expm1 if minus_one else torch.exp
    below = exp(x.clamp(max=edge))
    above = math.exp(edge) * (1 + x - edge) - (1.0 if minus_one else 0.0)
    return torch.where(x > edge, above, below)


def sequence_grpo_terms(
    per_token_logps,
    old_per_token_logps,
    ref_per_token_logps,
    mask,
    advantages,
    *,
    epsilon_low: float,
    epsilon_high: float,
    beta: float,
    importance_sampling_ratio=None,
) -> dict:
    """Per-sequence tensors of the objective (see the module doc), each of shape (B,): ``loss``
    (minus the clipped surrogate, plus beta times the KL), ``ratio``, ``kl`` (zeros when beta is
    0), ``clipped_low`` and ``clipped_high``. ``advantages`` are already the paper's."""
    import torch

    mask = mask.to(per_token_logps.dtype)
    log_ratio = ((per_token_logps - old_per_token_logps) * mask).sum(-1)
    ratio = exp_linear_above(log_ratio)
    clipped = torch.clamp(ratio, 1 - epsilon_low, 1 + epsilon_high)
    surrogate = torch.min(ratio * advantages, clipped * advantages)
    if importance_sampling_ratio is not None:
        surrogate = surrogate * importance_sampling_ratio.reshape(-1)
    kl = torch.zeros_like(surrogate)
    if beta != 0.0:
        log_r = ((ref_per_token_logps - per_token_logps) * mask).sum(-1)
        kl = exp_linear_above(log_r, minus_one=True) - log_r
    return {
        "loss": -surrogate + beta * kl,
        "ratio": ratio,
        "kl": kl,
        "clipped_low": (ratio < 1 - epsilon_low) & (advantages < 0),
        "clipped_high": (ratio > 1 + epsilon_high) & (advantages > 0),
    }
