"""The optional open-answer Interpreter recipe: its rewards in the protocol's registry (values by
hand), reward selection, the recipe parsed by TRL's own parser, rows built from GutenQA-style data,
and a real GRPO run on CPU through the entry script; the paper's recipes stay as they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from clueweaver import training
from clueweaver.protocol.open_rewards import (
    OPEN_COMPONENTS,
    OpenAnswerRewardConfig,
    open_answer_reward_components,
    open_component_names,
)
from clueweaver.protocol.prompts import interpreter_messages
from clueweaver.protocol.question import Question
from clueweaver.protocol.reward_registry import REWARD_FUNCS
from clueweaver.protocol.rewards import INTERPRETER_COMPONENTS, component_names
from clueweaver.training.data import protocol_prompt_problem
from tests.conftest import shared_path
from tests.training_fixtures import build_tiny_model, launch, log_history, teach_reply, tiny_narrative, write_jsonl

ROOT = Path(__file__).resolve().parents[1]
RECIPE = "configs/interpreter_open/qwen3-4b-grpo-lora-open.yaml"
EVIDENCE = "[1] Mrs. Hale saw the keeper rowing.\n[2] The harbour master kept the only spare key in his desk drawer."
REFERENCES = ["the harbour master"]
CONFIG = OpenAnswerRewardConfig()


def reply(reason: str, answer: str) -> str:
    return f"<reason>{reason}</reason><answer>{answer}</answer>"


def test_open_rewards_by_hand():
    reason = 'Paragraph [2] says the harbour master kept "the only spare key" in his desk, so he could enter.'
    best = open_answer_reward_components(
        reply(reason, "The harbour master"), references=REFERENCES, gold_ids=[2], allowed_ids=[1, 2], evidence=EVIDENCE
    )
    words = len(reason.split())  # 17: inside Table 6's band, rising to 1 at 15 words
    assert best == {
        "format": 1.0,
        "citation_f1": 1.0,  # cites exactly the gold paragraph
        "reference_overlap": 2.5,  # token F1 1.0 x 2.5
        "length": pytest.approx(0.2 * (1.0 if words >= 15 else words / 15)),
        "specificity": 0.3,  # the quoted phrase is in the evidence
        "hedging": 0.0,
    }
    # cites [1] and [2] against gold [2]: F1 = 2/3; answer "master" vs 3 reference tokens "harbour master":
    # P = 1, R = 1/2, F1 = 2/3 (the article goes)
    partial = open_answer_reward_components(
        reply("It is hard to say; [1] and [2] hint at the master.", "master"), references=REFERENCES, gold_ids=[2]
    )
    assert partial["citation_f1"] == pytest.approx(2 / 3) and partial["reference_overlap"] == pytest.approx(
        2.5 * 2 / 3
    )
    assert partial["hedging"] == -0.4
    wrong = open_answer_reward_components(reply(reason, "Mrs. Hale"), references=REFERENCES, gold_ids=[2])
    assert wrong["reference_overlap"] == 0 and wrong["length"] == wrong["specificity"] == 0  # bonuses need overlap
    assert open_answer_reward_components("no tags at all", references=REFERENCES) == dict.fromkeys(
        OPEN_COMPONENTS, 0.0
    )
    assert CONFIG.max_total == pytest.approx(1.0 + 1.0 + 2.5 + 0.2 + 0.3)


def test_open_rewards_join_the_registry_and_leave_the_paper_rewards_alone():
    assert set(open_component_names()) | {"interpreter_open_total"} <= set(REWARD_FUNCS)
    assert component_names("interpreter") == [f"interpreter_{c}" for c in INTERPRETER_COMPONENTS]
    batch = {"answer": [REFERENCES, "the harbour master"], "gold_ids": [[2], None], "evidence": [EVIDENCE] * 2}
    completions = [reply("[2] the harbour master kept the key.", "the harbour master"), "garbage"]
    totals = REWARD_FUNCS["interpreter_open_total"](prompts=None, completions=completions, **batch)
    parts = [REWARD_FUNCS[name](prompts=None, completions=completions, **batch) for name in open_component_names()]
    assert totals == pytest.approx([sum(column) for column in zip(*parts)]) and totals[1] == 0
    with pytest.raises(ValueError, match="row 0: column 'answer' must hold the reference answer"):
        REWARD_FUNCS["interpreter_open_total"](prompts=None, completions=["x"], answer=[[]])


def test_reward_selection_checks_the_open_total():
    funcs, weights = training.select_reward_funcs("interpreter", open_component_names(), [1.0] * len(OPEN_COMPONENTS))
    assert [f.__name__ for f in funcs] == open_component_names()
    with pytest.raises(training.TrainingSetupError, match="interpreter_open_format are not interpreter rewards"):
        training.select_reward_funcs("interpreter", ["interpreter_open_format", "interpreter_correct"], [1.0, 1.0])
    with pytest.raises(training.TrainingSetupError, match="not the paper's total"):
        training.select_reward_funcs("interpreter", ["interpreter_open_total", "interpreter_open_format"], [1.0, 1.0])
    design = training.reward_design("interpreter", open_component_names(), weights)
    assert design["config"]["reference_overlap"] == 2.5 and design["max_total"] == CONFIG.max_total


def test_the_recipe_parses_with_trl_and_names_the_open_rewards(monkeypatch):
    monkeypatch.setenv("WANDB_PROJECT", "tests")
    script, grpo, model = training.parse_recipe(["--config", str(ROOT / RECIPE), "--use_cpu", "true"])
    funcs, _ = training.select_reward_funcs(
        "interpreter", script.reward_funcs, grpo.reward_weights, aggregation=grpo.multi_objective_aggregation
    )
    assert [f.__name__ for f in funcs] == open_component_names()
    assert grpo.loss_type == "grpo" and grpo.beta == 0.04 and model.use_peft


@pytest.mark.shared_data
def test_rows_from_gutenqa_are_protocol_prompts_with_gold_inside_the_packet():
    from clueweaver.training_data.open_answers import open_answer_rows

    rows = open_answer_rows("gutenqa", str(shared_path("gutenqa_emma")), limit=6)
    assert len(rows) == 6 and all(row["answer_kind"] == "open" and row["answer"] for row in rows)
    for row in rows:
        assert set(row["gold_ids"]) <= set(row["allowed_ids"])
        assert row["prompt"] == interpreter_messages(Question.open(row["question"]), row["evidence"])
        assert protocol_prompt_problem(row["prompt"], "interpreter") is None
    assert sum(bool(row["gold_ids"]) for row in rows) >= 4


OPEN_REPLY = (
    "<reason>Paragraph [2] says the harbour master kept the only spare key.</reason>\n"
    "<answer>The harbour master</answer>"
)


def open_rows() -> list[dict]:
    narrative = tiny_narrative()
    question = Question.open("Who kept the only spare key to the lamp room?")
    rows = []
    for ids in ((1, 2, 4), (0, 2, 6), (2, 3), (2, 5, 7)):
        packet = narrative.render(ids)
        rows.append(
            {
                "prompt": interpreter_messages(question, packet),
                "question": question.text,
                "answer": ["the harbour master", "The harbour master kept it."],
                "answer_kind": "open",
                "gold_ids": [2],
                "allowed_ids": list(ids),
                "evidence": packet,
            }
        )
    return rows


@pytest.mark.slow
def test_open_answer_grpo_runs_on_cpu(tmp_path):
    rows = open_rows()
    model = teach_reply(build_tiny_model(tmp_path / "model"), [r["prompt"] for r in rows], OPEN_REPLY)
    data = write_jsonl(tmp_path / "open.jsonl", rows)
    result = launch(
        "interpreter_grpo.py", RECIPE, "--model_name_or_path", str(model), "--dataset_name", str(data),
        "--output_dir", str(tmp_path / "run"), "--max_steps", "2", "--lora_r", "8", "--lora_alpha", "16",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    entries = [e for e in log_history(tmp_path / "run" / "checkpoint-2") if "reward" in e]
    assert [e["step"] for e in entries] == [1, 2]
    for entry in entries:
        means = [entry[f"rewards/{name}/mean"] for name in open_component_names()]
        assert entry["reward"] == pytest.approx(sum(means), abs=1e-5)
    assert any(e["rewards/interpreter_open_format/mean"] > 0 for e in entries)
