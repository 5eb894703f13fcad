"""What is asked: a multiple-choice question, a TRUE/FALSE claim, or an open question.

An "open" question (free-text answer, e.g. GutenQA, NarrativeQA) has no answer space: the
Interpreter answers it in a few words with a paragraph-cited reason, and evaluation scores the
answer against reference answers instead of a label.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from clueweaver.core.errors import ClueWeaverError
from clueweaver.core.surrogates import lone_surrogate_at

OPTION_LABELS = ("A", "B", "C", "D")
CLAIM_LABELS = ("TRUE", "FALSE")
QUESTION_KINDS = ("mcq", "claim", "open")


class QuestionError(ClueWeaverError, ValueError):
    """A question that cannot be asked (no text, bad option labels)."""


@dataclass(frozen=True)
class Question:
    """``kind`` is "mcq" (options A-D), "claim" (TRUE/FALSE) or "open" (a free-text answer).
    Frozen so it can key caches."""

    text: str
    options: dict[str, str] = field(default_factory=dict)
    kind: str = "mcq"

    def __post_init__(self) -> None:
        if not self.text or not self.text.strip():
            raise QuestionError("the question or claim is empty")
        if self.kind not in QUESTION_KINDS:
            raise QuestionError(f"unknown question kind {self.kind!r}; use 'mcq', 'claim' or 'open'")
        if self.kind != "mcq" and self.options:
            raise QuestionError(f"{'a claim' if self.is_claim else 'an open question'} takes no options")
        if self.kind == "mcq":
            if len(self.options) < 2:
                raise QuestionError("a multiple-choice question needs at least two options")
            bad = [k for k in self.options if k not in OPTION_LABELS]
            if bad:
                raise QuestionError(f"option labels must be among {', '.join(OPTION_LABELS)}; got {', '.join(bad)}")
            empty = [k for k, v in self.options.items() if not str(v).strip()]
            if empty:
                raise QuestionError(f"option {', '.join(empty)} has no text")
        self._refuse_lone_surrogates()
        object.__setattr__(self, "options", dict(sorted(self.options.items())))

    def _refuse_lone_surrogates(self) -> None:
        """A question's text must be characters: a lone surrogate (a byte that was not UTF-8, as Python
        keeps it in a command line's arguments, or a broken JSON escape) would fail in the analyzer."""
        for name, text in (("the question", self.text), *((f"option {k}", v) for k, v in self.options.items())):
            where = lone_surrogate_at(str(text))
            if where:
                raise QuestionError(
                    f"{name} holds a lone surrogate ({where}), half of a character: a byte that was not UTF-8 (a "
                    "terminal set to another encoding) or a broken \\u escape; give it again as UTF-8 text"
                )

    def __hash__(self) -> int:
        return hash((self.text, tuple(self.options.items()), self.kind))

    @classmethod
    def claim(cls, text: str) -> "Question":
        return cls(text=text, kind="claim")

    @property
    def is_claim(self) -> bool:
        return self.kind == "claim"

    @classmethod
    def open(cls, text: str) -> "Question":
        return cls(text=text, kind="open")

    @property
    def is_open(self) -> bool:
        return self.kind == "open"

    @property
    def labels(self) -> tuple[str, ...]:
        """The legal answers (none for an open question)."""
        return CLAIM_LABELS if self.is_claim else tuple(self.options)

    def queries(self) -> list[str]:
        """Retrieval queries: the question (or claim) and, for each option, question plus option,
        because an option often carries the clue words the question lacks."""
        if not self.options:
            return [self.text]
        return [self.text] + [f"{self.text} {option}" for option in self.options.values()]
