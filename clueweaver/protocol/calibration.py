"""The self-calibration trigger tau(q): which questions get a second, re-checking Interpreter pass.

Always for TRUE/FALSE claims (one wrong detail flips them); for multiple-choice and open questions
only when the wording signals polarity or reasoning risk (a reader may ask for every open answer
to be re-checked: ``always_kinds``). Matching is on whole words of the question
text (not its options), case-insensitive: "note", "nothing" and "causeway" do not fire. Negative
contractions count as "not" ("Why didn't...", "If Ninon hadn't...", "cannot"), because a
counterfactual or negated question carries the same polarity risk as one spelled with "not".
Inflections fire only when listed (or a cue is a stem, "kein*"), so that e.g. "notes" never fires
through "not".

The default cues are those of every language of ``clueweaver.protocol.cues``, matched together, so
"Pourquoi Hester doute-t-elle ?" and "海丝特为什么怀疑？" fire as "Why does Hester doubt?" does; a
Chinese or Japanese cue ("不", "为什么") matches anywhere in the question, since those scripts do not
separate words.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from clueweaver.protocol.cues import CAUSAL_CUES, INFERENTIAL_CUES, NEGATION_CUES, every_language
from clueweaver.protocol.question import Question
from clueweaver.protocol.text import find_phrases


@dataclass(frozen=True)
class CalibrationTriggers:
    """Cue words and phrases per risk family; build from YAML with ``CalibrationTriggers(**mapping)``."""

    negation: tuple[str, ...] = every_language(NEGATION_CUES)
    causal: tuple[str, ...] = every_language(CAUSAL_CUES)
    inferential: tuple[str, ...] = every_language(INFERENTIAL_CUES)

    def __post_init__(self) -> None:
        for family in fields(self):
            cues = getattr(self, family.name)
            if isinstance(cues, str) or not all(isinstance(cue, str) and cue.strip() for cue in cues):
                raise ValueError(f"calibration trigger family {family.name!r} must be a list of non-empty words")
            object.__setattr__(self, family.name, tuple(cues))

    def families(self) -> dict[str, tuple[str, ...]]:
        return {family.name: getattr(self, family.name) for family in fields(self)}


DEFAULT_TRIGGERS = CalibrationTriggers()


def calibration_cues(question: Question, triggers: CalibrationTriggers = DEFAULT_TRIGGERS) -> dict[str, list[str]]:
    """The cues found in the question text, by family (families without a cue left out): the
    explanation a trace records for why tau(q) fired."""
    found = {name: find_phrases(question.text, cues) for name, cues in triggers.families().items()}
    return {name: cues for name, cues in found.items() if cues}


ALWAYS_CALIBRATED = ("claim",)  # question kinds re-checked whatever their wording


def needs_self_calibration(
    question: Question, triggers: CalibrationTriggers = DEFAULT_TRIGGERS, always_kinds=ALWAYS_CALIBRATED
) -> bool:
    """tau(q): True for every question of ``always_kinds`` (claims), and for any other question
    (multiple-choice or open) whose wording has a cue."""
    return question.kind in always_kinds or bool(calibration_cues(question, triggers))
