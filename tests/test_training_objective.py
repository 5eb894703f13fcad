"""The paper's sequence-level GRPO objective: its terms by hand, the trainer subclass's loss and
gradient on a fixed batch of a tiny model against a hand computation, and the recipe checks."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from clueweaver.training import (
    TrainingSetupError,
    advantage_scale,
    check_objective_settings,
    paper_grpo_trainer_class,
    sequence_grpo_terms,
)
from clueweaver.training.objective import PAPER_SETTINGS
from tests.training_fixtures import build_tiny_model

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


EPSILON, BETA, TEMPERATURE, GROUP = 0.2, 0.04, 0.7, 4
REWARDS = [1.0, 3.0, 3.0, 5.0]  # one prompt's group: the reward function reads them from the row
ROWS = [{"prompt": "The lamp went dark.", "reward": reward} for reward in REWARDS]


def paper_sequence_loss(sum_logp, sum_old, sum_ref, advantage, beta=BETA, eps=EPSILON):
    """One sequence's loss, written out from the paper's equations with Python floats."""
    ratio = math.exp(sum_logp - sum_old)
    surrogate = min(ratio * advantage, min(max(ratio, 1 - eps), 1 + eps) * advantage)
    log_r = sum_ref - sum_logp
    return -surrogate + beta * (math.exp(log_r) - log_r - 1)


def test_advantages_use_the_group_std_with_one_over_k(tmp_path):
    """TRL's own advantages from one real generation step (``_generate_and_score_completions`` on
    a tiny model), rescaled as the loss rescales them, are the paper's: should TRL change its std
    convention or its epsilon, this fails."""
    trainer = _trainer(tmp_path)
    trainer.model.train()
    advantages = trainer._generate_and_score_completions(ROWS)["advantages"]
    population_std = math.sqrt(sum((r - 3.0) ** 2 for r in REWARDS) / GROUP)  # the mean reward is 3
    paper = [(r - 3.0) / (population_std + 1e-4 * math.sqrt((GROUP - 1) / GROUP)) for r in REWARDS]
    assert (advantages * advantage_scale(GROUP)).tolist() == pytest.approx(paper, rel=1e-6)
    assert advantage_scale(1) == 1.0


def test_sequence_terms_follow_the_equations():
    import torch

    logps = torch.tensor([[-1.0, -2.0, -0.5], [-0.3, -0.2, 0.0], [-1.5, -0.5, -0.5]])
    mask = torch.tensor([[1, 1, 1], [1, 1, 0], [1, 1, 1]])
    old = logps + torch.tensor([[-0.3, 0.0, 0.0], [0.05, 0.0, 9.0], [0.4, 0.0, 0.0]])  # padding ignored
    ref = logps + torch.tensor([[0.1, 0.0, 0.0], [0.0, -0.2, 5.0], [0.0, 0.0, 0.3]])
    advantages = torch.tensor([1.0, -0.5, -1.0])
    terms = sequence_grpo_terms(
        logps, old, ref, mask, advantages, epsilon_low=EPSILON, epsilon_high=EPSILON, beta=BETA
    )
    sums = [(logps[i] * mask[i]).sum().item() for i in range(3)]
    old_sums = [(old[i] * mask[i]).sum().item() for i in range(3)]
    ref_sums = [(ref[i] * mask[i]).sum().item() for i in range(3)]
    expected = [paper_sequence_loss(s, o, r, a) for s, o, r, a in zip(sums, old_sums, ref_sums, advantages.tolist())]
    assert terms["loss"].tolist() == pytest.approx(expected, rel=1e-5)
    assert terms["ratio"].tolist() == pytest.approx([math.exp(0.3), math.exp(-0.05), math.exp(-0.4)], rel=1e-5)
    # ratio 1.35 with A > 0 is clipped high; 0.67 with A < 0 clipped low; 0.95 is inside the range
    assert terms["clipped_high"].tolist() == [True, False, False]
    assert terms["clipped_low"].tolist() == [False, False, True]
    assert terms["kl"].tolist() == pytest.approx([math.exp(x) - x - 1 for x in (0.1, -0.2, 0.3)], rel=1e-5)
    no_kl = sequence_grpo_terms(
        logps, old, None, mask, advantages, epsilon_low=EPSILON, epsilon_high=EPSILON, beta=0.0
    )
    assert no_kl["kl"].tolist() == [0.0, 0.0, 0.0]


def _trainer(tmp_path):
    import torch
    from datasets import Dataset
    from transformers import AutoTokenizer
    from trl import GRPOConfig

    model_dir = build_tiny_model(tmp_path / "tiny")
    args = GRPOConfig(
        output_dir=str(tmp_path / "run"),
        use_cpu=True,
        bf16=False,
        report_to=[],
        per_device_train_batch_size=GROUP,
        num_generations=GROUP,
        max_completion_length=6,
        temperature=TEMPERATURE,
        beta=BETA,
        epsilon=EPSILON,
        loss_type="grpo",
        importance_sampling_level="sequence",
        use_bias_correction_kl=False,
        model_init_kwargs={"dtype": torch.float32},
    )
    check_objective_settings("paper", args)
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), padding_side="left")
    return paper_grpo_trainer_class()(
        model=str(model_dir),
        reward_funcs=[lambda completions, reward, **_: reward],
        args=args,
        train_dataset=Dataset.from_list(ROWS),
        processing_class=tokenizer,
    )


def _hand_sequence_logps(model, prompt_ids, prompt_mask, completion_ids, completion_mask):
    """Sum over each completion's tokens of log pi(token | prefix) at the sampling temperature,
    from the model's plain forward pass (no TRL code)."""
    import torch

    input_ids = torch.cat([prompt_ids, completion_ids], 1)
    attention = torch.cat([prompt_mask, completion_mask], 1)
    logits = model(input_ids=input_ids, attention_mask=attention).logits[:, prompt_ids.size(1) - 1 : -1]
    token_logps = torch.log_softmax(logits.float() / TEMPERATURE, -1).gather(-1, completion_ids[..., None])[..., 0]
    return token_logps, (token_logps * completion_mask).sum(-1)


def test_paper_loss_and_gradient_match_a_hand_computation(tmp_path):
    import torch

    trainer = _trainer(tmp_path)
    model = trainer.model
    model.train()
    trainer.current_gradient_accumulation_steps = 2  # the loss is one micro-batch's share, as in TRL's grpo loss
    generator = torch.Generator().manual_seed(0)
    prompt_ids = torch.randint(10, 150_000, (GROUP, 5), generator=generator)
    prompt_mask = torch.tensor([[1] * 5, [0, 1, 1, 1, 1], [1] * 5, [0, 0, 1, 1, 1]])
    completion_ids = torch.randint(10, 150_000, (GROUP, 6), generator=generator)
    completion_mask = torch.tensor([[1] * 6, [1, 1, 1, 1, 0, 0], [1] * 6, [1, 1, 0, 0, 0, 0]])
    with torch.no_grad():
        token_logps, _ = _hand_sequence_logps(model, prompt_ids, prompt_mask, completion_ids, completion_mask)
    log_rho = torch.tensor([0.3, -0.1, 0.05, -0.4])  # clipped high, inside, inside, clipped low
    log_r = torch.tensor([0.02, -0.05, 0.1, 0.0])
    old = token_logps.clone()
    old[:, 0] -= log_rho
    ref = token_logps.clone()
    ref[:, 0] += log_r
    trl_advantages = torch.tensor([1.2, -0.8, 0.5, -0.9])
    inputs = {
        "prompt_ids": prompt_ids,
        "prompt_mask": prompt_mask,
        "completion_ids": completion_ids,
        "completion_mask": completion_mask,
        "advantages": trl_advantages,
        "old_per_token_logps": old,
        "ref_per_token_logps": ref,
        "num_items_in_batch": completion_mask.sum(),
    }
    model.zero_grad()
    loss = trainer.compute_loss(model, inputs)
    loss.backward()
    trainer_grads = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}

    # by hand: the loss from the equations, and its gradient -(1/B) sum_i c_i grad S_i / accumulation
    model.zero_grad()
    _, sums = _hand_sequence_logps(model, prompt_ids, prompt_mask, completion_ids, completion_mask)
    scale = math.sqrt(GROUP / (GROUP - 1))
    values = sums.detach().tolist()
    old_sums = (old * completion_mask).sum(-1).tolist()
    ref_sums = (ref * completion_mask).sum(-1).tolist()
    advantages = [a * scale for a in trl_advantages.tolist()]
    expected = sum(map(paper_sequence_loss, values, old_sums, ref_sums, advantages)) / GROUP / 2
    assert loss.item() == pytest.approx(expected, rel=1e-4)
    weights = []
    for value, old_sum, ref_sum, advantage in zip(values, old_sums, ref_sums, advantages):
        ratio = math.exp(value - old_sum)
        clipped = (ratio > 1 + EPSILON and advantage > 0) or (ratio < 1 - EPSILON and advantage < 0)
        surrogate_weight = 0.0 if clipped else advantage * ratio
        weights.append(-(surrogate_weight + BETA * (math.exp(ref_sum - value) - 1)) / GROUP / 2)
    assert weights[0] == pytest.approx(-BETA * (math.exp(0.02) - 1) / GROUP / 2, rel=1e-3)  # clipped: the KL only
    (sums * torch.tensor(weights)).sum().backward()
    assert trainer_grads.keys() == {n for n, p in model.named_parameters() if p.grad is not None}
    for name, parameter in model.named_parameters():
        if parameter.grad is not None:
            difference = (trainer_grads[name] - parameter.grad).norm() / parameter.grad.norm()
            assert difference < 1e-3, (name, difference.item())  # float32 sums in a different order
    assert any(g.abs().sum() > 0 for g in trainer_grads.values())
    metrics = trainer._metrics["train"]
    assert metrics["clip_ratio/high_mean"] == [0.25] and metrics["clip_ratio/low_mean"] == [0.25]
    # The logged KL is second order in log r, so the trainer's own forward pass (float32 sums in another
    # order: up to ~1e-4 nats a sequence off the hand pass, as the gradient check allows) moves it by
    # |r| * 1e-4 <= 1e-5 absolute, which is 0.6% of this small value: a relative 1e-3 asked for more
    # precision than float32 log-probabilities carry. The metric itself is exact (next tests).
    expected_kl = sum(math.expm1(x) - x for x in log_r.tolist()) / GROUP
    assert metrics["kl"][0] == pytest.approx(expected_kl, abs=1e-5)


def _args(**overrides):
    """Settings the paper objective accepts (TRL's extra loss terms off), with ``overrides``."""
    values = {
        **{name: value for name, (value, _) in PAPER_SETTINGS.items()},
        "use_vllm": True,
        "vllm_importance_sampling_correction": True,
        "vllm_importance_sampling_mode": "sequence_mask",
    }
    return SimpleNamespace(**{**values, **overrides})


@pytest.mark.parametrize(
    "overrides,message",
    [({"loss_type": "dapo"}, "loss_type='dapo'"),
     ({"importance_sampling_level": "token"}, "importance_sampling_level='token'"),
     ({"vllm_importance_sampling_mode": "token_truncate"}, "vllm_importance_sampling_mode='token_truncate'"),
     ({"top_entropy_quantile": 0.2}, "top_entropy_quantile=0.2"),
     ({"delta": 4.0}, "delta=4.0"),
     ({"scale_rewards": "batch"}, "scale_rewards='batch' \\(needs 'group'"),
     ({"scale_rewards": "none"}, "scale_rewards='none' \\(needs 'group'"),
     ({"multi_objective_aggregation": "normalize_then_sum"},
      "multi_objective_aggregation='normalize_then_sum' \\(needs 'sum_then_normalize'")],
)  # fmt: skip
def test_settings_the_paper_objective_would_ignore_are_refused(overrides, message):
    check_objective_settings("paper", _args())
    check_objective_settings("trl", _args(**overrides))  # TRL's own loss honours them
    with pytest.raises(TrainingSetupError, match=message):
        check_objective_settings("paper", _args(**overrides))
    with pytest.raises(TrainingSetupError, match="objective must be one of trl, paper"):
        check_objective_settings("gspo", _args())


@pytest.mark.parametrize("name", [*PAPER_SETTINGS, "vllm_importance_sampling_mode"])
def test_a_setting_this_trl_lacks_is_an_error_naming_it(name):
    args = _args()
    delattr(args, name)  # as if TRL had renamed or dropped the field
    check_objective_settings("trl", args)
    with pytest.raises(TrainingSetupError, match=f"checks TRL's {name}, which this TRL's GRPOConfig lacks"):
        check_objective_settings("paper", args)


def test_a_far_off_sequence_keeps_a_finite_loss_and_a_gradient_that_pulls_it_back():
    import torch

    from clueweaver.training.objective import sequence_grpo_terms

    # log r = ref - theta = 25 and 1e4 nats: past exp's float32 range, where a clamp gave no gradient
    theta = torch.tensor([[0.0], [0.0]], requires_grad=True)
    ref = torch.tensor([[25.0], [1e4]])
    terms = sequence_grpo_terms(
        theta, theta.detach(), ref, torch.ones(2, 1), torch.zeros(2), epsilon_low=0.2, epsilon_high=0.2, beta=1.0
    )
    assert torch.isfinite(terms["loss"]).all()
    terms["loss"].sum().backward()
    # d/dtheta [exp(r) - r - 1] = -(exp(r) - 1): the tangent line continues exp past 20 with slope exp(20)
    assert theta.grad.flatten().tolist() == pytest.approx([-(math.exp(20.0) - 1)] * 2, rel=1e-5)


def test_the_kl_of_a_near_sequence_is_exact_in_float32():
    import torch

    from clueweaver.training.objective import sequence_grpo_terms

    log_r = [0.02, -0.05, 0.1]
    theta = torch.zeros(3, 1)
    terms = sequence_grpo_terms(
        theta, theta, torch.tensor(log_r).reshape(3, 1), torch.ones(3, 1), torch.zeros(3),
        epsilon_low=0.2, epsilon_high=0.2, beta=1.0,
    )  # fmt: skip
    assert terms["kl"].tolist() == pytest.approx([math.expm1(x) - x for x in log_r], rel=1e-5)
