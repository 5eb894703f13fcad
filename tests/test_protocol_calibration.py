"""tau(q) on real benchmark questions: QuALITY (L-Eval), GutenQA's Emma, NoCha and L-Eval sci-fi claims."""

from __future__ import annotations

import json
import re

import pytest

from clueweaver.protocol.calibration import (
    DEFAULT_TRIGGERS,
    CalibrationTriggers,
    calibration_cues,
    needs_self_calibration,
)
from clueweaver.protocol.question import Question
from tests.conftest import shared_path

PLACEHOLDER_OPTIONS = {"A": "first", "B": "second"}


def mcq(text: str) -> Question:
    return Question(text, PLACEHOLDER_OPTIONS)


@pytest.fixture(scope="module")
def quality_stems() -> set[str]:
    """Question stems of QuALITY in L-Eval's layout (options follow the stem inline from "(A)")."""
    stems = set()
    with shared_path("quality_leval", "quality.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            for instruction in json.loads(line)["instructions"]:
                stems.add(re.split(r"\s*\(A\)", instruction, maxsplit=1)[0].strip())
    return stems


@pytest.fixture(scope="module")
def emma_questions() -> set[str]:
    with shared_path("gutenqa_emma", "emma_questions.jsonl").open(encoding="utf-8") as lines:
        return {json.loads(line)["Question"] for line in lines}


QUALITY_FIRE = {
    "What is the most likely reason for Korvin's solitude in jail?": {
        "causal": ["reason"],
        "inferential": ["most likely"],
    },
    "Within the article, which of the following is NOT a minus that's listed in the ratings?": {"negation": ["not"]},
    (
        "According to Slate's ratings, which of the orderings below correctly goes from most reprehensible "
        "to least reprehensible?"
    ): {"negation": ["least"]},
    "What can we infer from the longest dialogue in the story？": {"inferential": ["infer"]},
    "If Ninon hadn't had as many procedures, what would've happened?": {"negation": ["not"]},
    "How does Slate morally consider the implications of being loyal or unloyal to Clinton in the scandal?": {
        "inferential": ["implications"]
    },
    "Why did Korvin have to word his questions to the guard carefully?": {"causal": ["why"]},
}
QUALITY_QUIET = [
    "What was the most noteworthy feature of the spaceship provided for Dennis and his crew to chase down Koerber?",
    "How did the Ruler become the Ruler?",
    "What is the best description of Korvin's job?",
    "How many sentences does this story have approximately?",
]
EMMA_FIRE = [
    "Why does Mr. Woodhouse feel fortunate for thinking of Hannah?",
    "What was the reason for Jane Fairfax potentially staying at her grandmother's for an extended period?",
]
EMMA_QUIET = [
    "Who were the only individuals invited to the dinner at Randalls?",
    "What is Mrs. Elton's opinion about puppies?",
    "What talent does Mr. Elton encourage Miss Woodhouse to exercise for the benefit of her friend Harriet?",
    "Where was Mr. Woodhouse placed during the al-fresco party at Donwell?",
]


def test_real_quality_questions_that_must_fire(quality_stems):
    for stem, cues in QUALITY_FIRE.items():
        assert stem in quality_stems, f"not in the shared QuALITY data: {stem}"
        assert calibration_cues(mcq(stem)) == cues, stem
        assert needs_self_calibration(mcq(stem))


def test_real_quality_questions_that_must_not_fire(quality_stems):
    for stem in QUALITY_QUIET:
        assert stem in quality_stems, f"not in the shared QuALITY data: {stem}"
        assert not needs_self_calibration(mcq(stem)), (stem, calibration_cues(mcq(stem)))


def test_real_emma_questions(emma_questions):
    for text in EMMA_FIRE + EMMA_QUIET:
        assert text in emma_questions, f"not in the shared GutenQA data: {text}"
    assert all(needs_self_calibration(mcq(text)) for text in EMMA_FIRE)
    assert not any(needs_self_calibration(mcq(text)) for text in EMMA_QUIET)


def test_claims_always_fire_even_without_a_cue():
    claims = json.loads(shared_path("nocha", "data_sample", "data_sample.json").read_text(encoding="utf-8"))
    claim = "Laurie and Amy celebrate their marriage quietly due to Beth's death."
    assert claim in {item["claim"] for item in claims}
    assert calibration_cues(Question.claim(claim)) == {}
    assert needs_self_calibration(Question.claim(claim))
    assert not needs_self_calibration(mcq(claim))


def test_the_share_of_real_quality_questions_that_fire_is_moderate(quality_stems):
    """A trigger that fires on nearly everything would be no trigger; QuALITY asks "why" often."""
    fired = sum(needs_self_calibration(mcq(stem)) for stem in quality_stems)
    assert 0.2 < fired / len(quality_stems) < 0.7


@pytest.mark.parametrize(
    "text",
    ["Who wrote the note?", "What is noted about the causeway?", "What does nothing do?", "Who tied the knot?",
     "What was reasonable about the suggestion?", "Who sat on the causeway at Leastwood?", "What is his reasoning?"],
)  # fmt: skip
def test_word_boundaries(text):
    assert not needs_self_calibration(mcq(text))


@pytest.mark.parametrize(
    "text,family",
    [("Why?", "causal"), ("What caused the fire?", "causal"), ("Which one is NOT true?", "negation"),
     ("Which one isn't true?", "negation"), ("Which one isn’t true?", "negation"), ("What cannot happen?", "negation"),
     ("All EXCEPT which?", "negation"), ("Who is most\n likely the thief?", "inferential"),
     ("What does the letter suggest?", "inferential")],
)  # fmt: skip
def test_cues_fire(text, family):
    assert family in calibration_cues(mcq(text))


def test_lists_are_configurable_and_validated():
    custom = CalibrationTriggers(**{"negation": ["never"], "causal": [], "inferential": ["probably"]})
    assert custom.negation == ("never",)
    assert needs_self_calibration(mcq("Who never left?"), custom)
    assert not needs_self_calibration(mcq("Why did he not leave?"), custom)
    assert needs_self_calibration(mcq("Why did he not leave?"), DEFAULT_TRIGGERS)
    with pytest.raises(ValueError, match="negation"):
        CalibrationTriggers(negation="not")
    with pytest.raises(ValueError, match="causal"):
        CalibrationTriggers(causal=["why", ""])
